/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs.exempt: the entries of /sys/kernel/utf8guard/fs/exempt, cgroup v2
 * paths whose tasks may create the names the policy refuses (`utf8guardctl
 * set fs.exempt CGROUP [-]...` and the config file's `fs.exempt = CGROUP`
 * lines).
 */
#ifndef UTF8GUARDCTL_EXEMPT_H
#define UTF8GUARDCTL_EXEMPT_H

#include <stdbool.h>
#include <stddef.h>

#define FS_EXEMPT_FILE "fs/exempt"
/* As the kernel's FS_EXEMPT_MAX and FS_SCOPE_PATH_MAX. */
#define FS_EXEMPT_MAX 16
#define FS_EXEMPT_PATH_MAX 255

/*
 * Check a cgroup PATH before anything is written: absolute, at most 255
 * bytes, not the root, and, unless it is to be removed (@remove), a
 * directory of the cgroup v2 mount (/proc/self/mountinfo, or the
 * environment's UTF8GUARD_CGROUP2).  Returns true, or false with a
 * sentence in @error.
 */
bool fs_exempt_validate(const char *path, bool remove, char *error,
			size_t size);

/*
 * Append "ESCAPED-PATH\n", or "ESCAPED-PATH -\n" if @remove, the line
 * fs/exempt takes, to @buf (NUL-terminated, @size bytes).  Returns false
 * if it does not fit.
 */
bool fs_exempt_line(const char *path, bool remove, char *buf, size_t size);

/*
 * Write @text (fs/exempt lines), then read the listing back into @now as
 * one line ("/a, /b", or "(none)").  Returns 0, or the negative errno and
 * a sentence in @error.
 */
int fs_exempt_set(const char *text, char *now, size_t now_size, char *error,
		  size_t size);

/* A listing of fs/exempt (@text) as one line, "/a, /b" or "(none)". */
void fs_exempt_summary(const char *text, char *buf, size_t size);

#endif /* UTF8GUARDCTL_EXEMPT_H */
