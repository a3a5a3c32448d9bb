// SPDX-License-Identifier: GPL-2.0
/*
 * fs/fstypes as scan sees it (fs_types.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fs_types.h"
#include "sysfs.h"

int fs_types_read(struct fs_types *types)
{
	int err;

	memset(types, 0, sizeof(*types));
	err = sysfs_read("fs/fstypes", types->text, sizeof(types->text));
	if (err)
		return err;
	types->text[strcspn(types->text, "\n")] = '\0';
	types->all = !strcmp(types->text, "*");
	return 0;
}

/* The type of the filesystem of device @dev, from mountinfo, or "". */
static void type_of(dev_t dev, char *type, size_t size)
{
	char *line = NULL, *field, *tail, want[32];
	size_t capacity = 0;
	FILE *in;
	int k;

	type[0] = '\0';
	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	in = fopen("/proc/self/mountinfo", "re");
	if (!in)
		return;
	while (getline(&line, &capacity, in) >= 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - TYPE SOURCE ... */
		tail = strstr(line, " - ");
		if (!tail)
			continue;
		field = strtok(line, " ");
		for (k = 0; k < 2 && field; k++)
			field = strtok(NULL, " ");
		if (!field || strcmp(field, want))
			continue;
		field = strtok(tail + 3, " ");
		snprintf(type, size, "%s", field ? field : "");
		break;
	}
	free(line);
	fclose(in);
}

bool fs_types_listed(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *at;

	for (at = strstr(list, word); at; at = strstr(at + 1, word))
		if ((at == list || at[-1] == ' ') &&
		    (at[len] == ' ' || at[len] == '\0'))
			return true;
	return false;
}

bool fs_types_watched(struct fs_types *types, dev_t dev, const char **type)
{
	if (!types->have_last || types->last_dev != dev) {
		type_of(dev, types->last_type, sizeof(types->last_type));
		types->last_watched =
			types->all || !types->last_type[0] ||
			fs_types_listed(types->text, types->last_type);
		types->last_dev = dev;
		types->have_last = true;
	}
	*type = types->last_type;
	return types->last_watched;
}
