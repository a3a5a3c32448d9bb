/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing the files of /sys/kernel/utf8guard.
 *
 * Paths are relative to the root, which is /sys/kernel/utf8guard unless
 * the environment variable UTF8GUARD_SYSFS names another directory (for
 * the tests, which run against a plain directory tree).
 */
#ifndef UTF8GUARDCTL_SYSFS_H
#define UTF8GUARDCTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSFS_DEFAULT_ROOT "/sys/kernel/utf8guard"
#define SYSFS_VALUE_MAX 4096

/* The root directory, without a trailing slash. */
const char *sysfs_root(void);

/* Whether the root (the module) or @rel below it exists. */
bool sysfs_exists(const char *rel);

/*
 * Read @rel into @buf (NUL-terminated, one trailing newline removed).
 * Returns 0, or a negative errno.
 */
int sysfs_read(const char *rel, char *buf, size_t size);

/* Read a decimal counter.  Returns 0, or a negative errno (-EINVAL: junk). */
int sysfs_read_u64(const char *rel, uint64_t *value);

/* One write() of @text to @rel.  Returns 0, or a negative errno. */
int sysfs_write(const char *rel, const char *text);

/*
 * The chosen word of a file that lists choices, such as mode or
 * validator: the bracketed word of "off audit [enforce]" (or the whole
 * text when it has no brackets).  Returns 0 or a negative errno.
 */
int sysfs_read_choice(const char *file, char *buf, size_t size);
/* The same word, from text already read. */
void sysfs_choice_word(const char *text, char *buf, size_t size);

#endif /* UTF8GUARDCTL_SYSFS_H */
