// SPDX-License-Identifier: GPL-2.0
/* Listing the counter files of /sys/kernel/utf8guard. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "utf8guard_core.h"
#include "counters.h"
#include "escape.h"
#include "sysfs.h"

static int not_hidden(const struct dirent *entry)
{
	return entry->d_name[0] != '.';
}

/* Walk DIR = @rel (a stats directory); @operation set one level down. */
static int walk_dir(const char *rel, const char *hook, const char *operation,
		    void (*fn)(const struct counter *counter, void *arg),
		    void *arg)
{
	char path[PATH_MAX], child[3 * NAME_MAX];
	struct dirent **entries;
	struct stat st;
	int count, i, err;

	snprintf(path, sizeof(path), "%s/%s", sysfs_root(), rel);
	count = scandir(path, &entries, not_hidden, alphasort);
	if (count < 0)
		return -errno;
	for (i = 0; i < count; i++) {
		const char *name = entries[i]->d_name;
		struct counter counter = {
			.hook = hook,
			.operation = operation,
			.name = name,
		};

		snprintf(child, sizeof(child), "%s/%s", rel, name);
		if (!sysfs_exists(child))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sysfs_root(), child);
		if (stat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!operation)
				walk_dir(child, hook, name, fn, arg);
			continue;
		}
		/* Write-only files (reset) have no read permission. */
		if (!(st.st_mode & 0444))
			continue;
		err = sysfs_read_u64(child, &counter.value);
		if (err) {
			fputs("utf8guardctl: skipping ", stderr);
			escape_write_string(stderr, path);
			fprintf(stderr, ": %s\n", err == -EINVAL ?
				"not a decimal counter" : strerror(-err));
			continue;
		}
		counter.is_reason =
			utf8guard_reason_from_name(name, strlen(name)) >= 0;
		fn(&counter, arg);
	}
	for (i = 0; i < count; i++)
		free(entries[i]);
	free(entries);
	return 0;
}

int counters_walk(void (*fn)(const struct counter *counter, void *arg),
		  void *arg)
{
	char path[PATH_MAX], rel[NAME_MAX + 16];
	struct dirent **entries;
	int count, i, err;

	err = walk_dir("stats", NULL, NULL, fn, arg);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s", sysfs_root());
	count = scandir(path, &entries, not_hidden, alphasort);
	if (count < 0)
		return -errno;
	for (i = 0; i < count; i++) {
		snprintf(rel, sizeof(rel), "%s/stats", entries[i]->d_name);
		if (strcmp(entries[i]->d_name, "stats") && sysfs_exists(rel))
			walk_dir(rel, entries[i]->d_name, NULL, fn, arg);
		free(entries[i]);
	}
	free(entries);
	return 0;
}
