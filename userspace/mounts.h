/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs.mount: the entries of /sys/kernel/utf8guard/fs/mounts, a policy per
 * mounted filesystem (`utf8guardctl set fs.mount PATH POLICY|off|-` and
 * the config file's `fs.mount = PATH POLICY` lines).
 */
#ifndef UTF8GUARDCTL_MOUNTS_H
#define UTF8GUARDCTL_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "utf8guard_types.h"

#define FS_MOUNTS_FILE "fs/mounts"
/* As the kernel's FS_SCOPE_PATH_MAX and FS_SCOPE_MAX. */
#define FS_MOUNT_PATH_MAX 255
#define FS_MOUNTS_MAX 16

/*
 * Check PATH (absolute, existing, a mount point, at most 255 bytes) and
 * VALUE (a policy, "off" or "-") before anything is written.  Returns
 * true, or false with a sentence in @error.
 */
bool fs_mount_validate(const char *path, const char *value, char *error,
		       size_t size);

/* Undo the \ooo escapes of mountinfo, fs/mounts and fs/exempt in place. */
void fs_path_unescape(char *s);

/*
 * Append @path to @buf (NUL-terminated, @size bytes) with \ooo for the
 * bytes up to the space, the backslash and DEL, as fs/mounts and
 * fs/exempt take it.  Returns false if it does not fit.
 */
bool fs_path_escape(const char *path, char *buf, size_t size);

/*
 * Append "ESCAPED-PATH VALUE\n", the line fs/mounts takes, to @buf
 * (NUL-terminated, @size bytes).  Returns false if it does not fit.
 */
bool fs_mount_line(const char *path, const char *value, char *buf,
		   size_t size);

/*
 * Write the entry, then read the value fs/mounts now shows for PATH into
 * @now ("-" once removed).  Returns 0, or the negative errno and a
 * sentence in @error.
 */
int fs_mount_set(const char *path, const char *value, char *now,
		 size_t now_size, char *error, size_t size);

/* The longest policy text an entry shows (UTF8GUARD_POLICY_TEXT_MAX). */
#define FS_MOUNT_WORDS_MAX 128

/**
 * struct fs_mount_entry - one line of fs/mounts, as scan and status use it
 * @path: the mount point, unescaped
 * @words: "off" or the classes as the kernel lists them
 * @off: names there are not checked
 * @classes: else the classes they are checked under (the kernel's parser)
 * @dev: st_dev of @path (stat() follows symlinks, as the kernel does),
 *	valid when @stat_errno is 0: the filesystem the entry names
 * @stat_errno: 0, or why @path cannot be stat()ed here
 */
struct fs_mount_entry {
	char path[FS_MOUNT_PATH_MAX + 1];
	char words[FS_MOUNT_WORDS_MAX];
	bool off;
	u32 classes;
	dev_t dev;
	int stat_errno;
};

struct fs_mount_list {
	struct fs_mount_entry entry[FS_MOUNTS_MAX];
	size_t count;
};

/*
 * Read fs/mounts into @list and stat() each entry's path once.  Returns
 * 0 (an empty list when the file is empty), -ENOENT when the fs hook is
 * not loaded, another negative errno when it cannot be read, or -EINVAL
 * when a line does not parse (nothing the kernel writes).
 */
int fs_mounts_read(struct fs_mount_list *list);

/* The entry whose filesystem has st_dev @dev, or NULL. */
const struct fs_mount_entry *fs_mounts_find(const struct fs_mount_list *list,
					    dev_t dev);

/*
 * The type and source ("ext4", "/dev/sda1") of the filesystem mounted at
 * @entry's path, from /proc/self/mountinfo: the line of that mount point
 * and device, else the first of that device.  Returns false (both "")
 * when none is found.
 */
bool fs_mount_describe(const struct fs_mount_entry *entry, char *type,
		       size_t type_size, char *source, size_t source_size);

#endif /* UTF8GUARDCTL_MOUNTS_H */
