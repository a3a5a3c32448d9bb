/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config file of `utf8guardctl apply` (default /etc/utf8guard.conf):
 *
 *	# comment
 *	mode = audit
 *	policy = strict path-tricks
 *	net.ports = tcp:80 udp:514
 *
 * One "KEY = VALUE" a line, the keys of `set`, each at most once; blank
 * lines and lines whose first non-blank character is '#' are ignored;
 * blanks around the key and the value are ignored.  A value may be empty
 * only where the kernel accepts it (net.ports).  fs.mount and fs.exempt
 * may appear once per mount point and cgroup: their lines are written in
 * one go.
 */
#ifndef UTF8GUARDCTL_CONFIG_H
#define UTF8GUARDCTL_CONFIG_H

#include <stdio.h>

#include "exempt.h"
#include "mounts.h"
#include "settings.h"

#define CONFIG_LINE_MAX 4096
/* Each key at most once. */
#define CONFIG_ENTRIES_MAX 16

struct config_entry {
	const struct setting *setting;
	char *value;
	unsigned int line;
};

struct config {
	struct config_entry entries[CONFIG_ENTRIES_MAX];
	unsigned int count;
	/* Every key met, valid value or not, for duplicate checks. */
	const struct setting *seen[CONFIG_ENTRIES_MAX];
	unsigned int seen_line[CONFIG_ENTRIES_MAX];
	unsigned int seen_count;
	/* fs.mount lines: their paths, merged into one entry's value. */
	char *mount_path[FS_MOUNTS_MAX];
	unsigned int mount_line[FS_MOUNTS_MAX];
	unsigned int mount_count;
	/* fs.exempt lines: their cgroups, merged into one entry's value. */
	char *exempt_path[FS_EXEMPT_MAX];
	unsigned int exempt_line[FS_EXEMPT_MAX];
	unsigned int exempt_count;
};

/*
 * Parse and validate all of @in, reporting every wrong line on stderr as
 * "@name:LINE: what was wrong".  Returns the number of errors (0: @config
 * holds every entry, in file order), or -1 if @in could not be read.
 */
int config_parse(FILE *in, const char *name, struct config *config);

void config_free(struct config *config);

#endif /* UTF8GUARDCTL_CONFIG_H */
