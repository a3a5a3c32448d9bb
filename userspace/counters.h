/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of /sys/kernel/utf8guard, listed from the files that are
 * there (never from a list compiled in): stats/NAME, HOOK/stats/NAME and
 * HOOK/stats/OPERATION/NAME.
 */
#ifndef UTF8GUARDCTL_COUNTERS_H
#define UTF8GUARDCTL_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

struct counter {
	const char *hook;	/* NULL for the global stats/, else "fs", "net" */
	const char *operation;	/* NULL, or the subdirectory, e.g. "mkdir" */
	const char *name;	/* the file name, e.g. "checked", "overlong" */
	bool is_reason;		/* the name is a reason word of the core */
	uint64_t value;
};

/*
 * Call @fn for every counter file, in a stable order (global first, then
 * each hook directory by name; files by name).  Files that do not hold a
 * decimal number are reported on stderr and skipped.  Returns 0, or the
 * negative errno of the first directory that exists but cannot be read
 * (-ENOENT: utf8guard is not loaded).
 */
int counters_walk(void (*fn)(const struct counter *counter, void *arg),
		  void *arg);

#endif /* UTF8GUARDCTL_COUNTERS_H */
