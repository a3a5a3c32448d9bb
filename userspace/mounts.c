// SPDX-License-Identifier: GPL-2.0
/*
 * fs.mount: one entry of fs/mounts.  The path is checked here as the
 * kernel will (absolute, existing, the root of a mount: /proc/self/
 * mountinfo), the value with the kernel's own policy parser, so that the
 * message says why before the kernel would refuse; the kernel has the
 * last word (an entry under another path of the same filesystem, more
 * than 16 entries, locked).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "utf8guard_policy.h"
#include "mounts.h"
#include "settings.h"
#include "sysfs.h"

void fs_path_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Whether @real (a canonical path) is a mount point in mountinfo. */
static bool is_mount_point(const char *real)
{
	char *line = NULL, *field;
	size_t capacity = 0;
	bool found = false;
	FILE *in = fopen("/proc/self/mountinfo", "re");
	int k;

	if (!in)
		return true;	/* cannot tell: the kernel will */
	while (!found && getline(&line, &capacity, in) >= 0) {
		field = strtok(line, " ");
		for (k = 0; k < 4 && field; k++)
			field = strtok(NULL, " ");
		if (!field)
			continue;
		fs_path_unescape(field);
		found = !strcmp(field, real);
	}
	free(line);
	fclose(in);
	return found;
}

bool fs_mount_validate(const char *path, const char *value, char *error,
		       size_t size)
{
	struct utf8guard_parse_error parse;
	char real[PATH_MAX];
	struct stat st;
	u32 classes;

	if (path[0] != '/') {
		snprintf(error, size, "'%s' is not an absolute path", path);
		return false;
	}
	if (strlen(path) > FS_MOUNT_PATH_MAX) {
		snprintf(error, size, "path longer than %d bytes",
			 FS_MOUNT_PATH_MAX);
		return false;
	}
	if (!*value) {
		snprintf(error, size,
			 "no value: a policy (\"strict path-tricks\"), off, or - to remove");
		return false;
	}
	if (strcmp(value, "-") && strcmp(value, "off") &&
	    !utf8guard_parse_policy(value, strlen(value),
				    UTF8GUARD_CLASSES_DEFAULT, &classes,
				    &parse)) {
		if (parse.length)
			snprintf(error, size, "%s: '%.*s' at character %zu",
				 parse.message, (int)parse.length,
				 value + parse.offset, parse.offset + 1);
		else
			snprintf(error, size, "%s", parse.message);
		return false;
	}
	if (!strcmp(value, "-"))
		return true;	/* an entry whose filesystem may be gone */
	if (stat(path, &st) || !realpath(path, real)) {
		snprintf(error, size, "'%s': %s", path, strerror(errno));
		return false;
	}
	if (!is_mount_point(real)) {
		snprintf(error, size,
			 "'%s' is not a mount point (an entry names the root of a mounted filesystem)",
			 path);
		return false;
	}
	return true;
}

bool fs_path_escape(const char *path, char *buf, size_t size)
{
	size_t at = strlen(buf);
	int n;

	for (; *path; path++) {
		unsigned char c = (unsigned char)*path;

		if (c <= ' ' || c == '\\' || c == 0x7f)
			n = snprintf(buf + at, size - at, "\\%03o", c);
		else
			n = snprintf(buf + at, size - at, "%c", c);
		if (n < 0 || (size_t)n >= size - at)
			return false;
		at += (size_t)n;
	}
	return true;
}

bool fs_mount_line(const char *path, const char *value, char *buf,
		   size_t size)
{
	size_t at;
	int n;

	if (!fs_path_escape(path, buf, size))
		return false;
	at = strlen(buf);
	n = snprintf(buf + at, size - at, " %s\n", value);
	return n >= 0 && (size_t)n < size - at;
}

/* What fs/mounts shows for @path ("-" for no entry) into @now. */
static int read_entry(const char *path, char *now, size_t now_size)
{
	char text[SYSFS_VALUE_MAX], want[FS_MOUNT_PATH_MAX * 4 + 8] = "";
	char *line, *next;
	size_t len;
	int err;

	err = sysfs_read(FS_MOUNTS_FILE, text, sizeof(text));
	if (err)
		return err;
	fs_mount_line(path, "", want, sizeof(want));
	len = strlen(want) - 2;	/* the escaped path, without the space and newline */
	snprintf(now, now_size, "-");
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, want, len) && line[len] == ' ')
			snprintf(now, now_size, "%s", line + len + 1);
	}
	return 0;
}

int fs_mount_set(const char *path, const char *value, char *now,
		 size_t now_size, char *error, size_t size)
{
	static const struct setting mount_setting = {
		"fs.mount", FS_MOUNTS_FILE, "utf8guard_fs", SETTING_MOUNTS, 1
	};
	char line[FS_MOUNT_PATH_MAX * 4 + 256] = "";
	int err;

	if (!fs_mount_line(path, value, line, sizeof(line))) {
		snprintf(error, size, "the entry is too long");
		return -EINVAL;
	}
	err = sysfs_write(FS_MOUNTS_FILE, line);
	if (err) {
		setting_explain_errno(&mount_setting, value, err, error, size);
		return err;
	}
	err = read_entry(path, now, now_size);
	if (err)
		snprintf(error, size, "wrote fs.mount but cannot read %s/%s back: %s",
			 sysfs_root(), FS_MOUNTS_FILE, strerror(-err));
	return err;
}

/* Parse one line "ESCAPED-PATH WORDS" of fs/mounts into @entry. */
static bool parse_entry(char *line, struct fs_mount_entry *entry)
{
	struct utf8guard_parse_error parse;
	char *words = strchr(line, ' ');
	struct stat st;

	if (!words)
		return false;
	*words++ = '\0';
	fs_path_unescape(line);
	if (line[0] != '/' || strlen(line) > FS_MOUNT_PATH_MAX ||
	    strlen(words) >= sizeof(entry->words))
		return false;
	strcpy(entry->path, line);
	strcpy(entry->words, words);
	entry->off = !strcmp(words, "off");
	entry->classes = 0;
	if (!entry->off &&
	    !utf8guard_parse_policy(words, strlen(words),
				    UTF8GUARD_CLASSES_DEFAULT, &entry->classes,
				    &parse))
		return false;
	entry->stat_errno = stat(entry->path, &st) ? errno : 0;
	entry->dev = entry->stat_errno ? 0 : st.st_dev;
	return true;
}

int fs_mounts_read(struct fs_mount_list *list)
{
	char text[SYSFS_VALUE_MAX], *line, *next;
	int err;

	list->count = 0;
	err = sysfs_read(FS_MOUNTS_FILE, text, sizeof(text));
	if (err)
		return err;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (list->count == FS_MOUNTS_MAX ||
		    !parse_entry(line, &list->entry[list->count]))
			return -EINVAL;
		list->count++;
	}
	return 0;
}

const struct fs_mount_entry *fs_mounts_find(const struct fs_mount_list *list,
					    dev_t dev)
{
	size_t k;

	for (k = 0; k < list->count; k++)
		if (!list->entry[k].stat_errno && list->entry[k].dev == dev)
			return &list->entry[k];
	return NULL;
}

bool fs_mount_describe(const struct fs_mount_entry *entry, char *type,
		       size_t type_size, char *source, size_t source_size)
{
	char *line = NULL, *field[5], *tail, real[PATH_MAX], want[32];
	size_t capacity = 0;
	bool found = false, exact;
	FILE *in;
	int k;

	type[0] = source[0] = '\0';
	if (entry->stat_errno)
		return false;
	if (!realpath(entry->path, real))
		real[0] = '\0';
	snprintf(want, sizeof(want), "%u:%u", major(entry->dev),
		 minor(entry->dev));
	in = fopen("/proc/self/mountinfo", "re");
	if (!in)
		return false;
	while (getline(&line, &capacity, in) >= 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - TYPE SOURCE ... */
		line[strcspn(line, "\n")] = '\0';
		tail = strstr(line, " - ");
		if (!tail)
			continue;
		*tail = '\0';
		field[0] = strtok(line, " ");
		for (k = 1; k < 5 && field[k - 1]; k++)
			field[k] = strtok(NULL, " ");
		if (!field[4] || strcmp(field[2], want))
			continue;
		fs_path_unescape(field[4]);
		exact = !strcmp(field[4], real);
		if (found && !exact)
			continue;
		field[0] = strtok(tail + 3, " ");
		field[1] = strtok(NULL, " ");
		snprintf(type, type_size, "%s", field[0] ? field[0] : "");
		snprintf(source, source_size, "%s", field[1] ? field[1] : "");
		if (field[1])
			fs_path_unescape(source);
		found = true;
		if (exact)
			break;
	}
	free(line);
	fclose(in);
	return found;
}
