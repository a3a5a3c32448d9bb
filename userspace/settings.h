/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The keys of `utf8guardctl set` and of the config file of `apply`: which
 * sysfs file each one is, how its value is checked before it is written
 * (with the kernel's own parsers, core/utf8guard_words.c), and how a
 * refused write is explained.
 */
#ifndef UTF8GUARDCTL_SETTINGS_H
#define UTF8GUARDCTL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

enum setting_kind {
	SETTING_MODE,		/* utf8guard_parse_mode() */
	SETTING_POLICY,		/* utf8guard_parse_policy() */
	SETTING_FLAG,		/* utf8guard_parse_flag() */
	SETTING_VALIDATOR,	/* utf8guard_parse_validator() */
	SETTING_KERNEL,		/* only the kernel parses it (fstypes, ports) */
	SETTING_ACTION,		/* drop or reset (net/action) */
	SETTING_MOUNTS,		/* fs/mounts lines (mounts.c); config only */
	SETTING_EXEMPT,		/* fs/exempt lines (exempt.c); config only */
};

struct setting {
	const char *key;	/* "fs.fstypes" */
	const char *file;	/* "fs/fstypes", relative to the sysfs root */
	const char *module;	/* the module that provides the file */
	enum setting_kind kind;
	int order;		/* apply order: lower first; mode last */
};

#define SETTING_ERROR_MAX 512

const struct setting *setting_find(const char *key);

/* All keys, for usage messages: "mode, policy, fs.enabled, ...". */
const char *setting_keys(void);

/*
 * Check @value before anything is written.  Returns true, or false with a
 * sentence in @error (what was wrong and where in the value).
 */
bool setting_validate(const struct setting *setting, const char *value,
		      char *error, size_t size);

/*
 * Write @value to the setting's file and read it back.  Returns 0 and puts
 * the value the kernel now reports in @now, or returns the negative errno
 * and a sentence in @error.
 */
int setting_write(const struct setting *setting, const char *value,
		  char *now, size_t now_size, char *error, size_t size);

/* The current value as the kernel reports it (mode: the bracketed word). */
int setting_read(const struct setting *setting, char *buf, size_t size);

/* Whether the module providing @setting is loaded (its file exists). */
bool setting_available(const struct setting *setting);

/* A sentence for a failed write of @value to @setting. */
void setting_explain_errno(const struct setting *setting, const char *value,
			   int err, char *error, size_t size);

#endif /* UTF8GUARDCTL_SETTINGS_H */
