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

#endif /* UTF8GUARDCTL_MOUNTS_H */
