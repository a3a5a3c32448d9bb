// SPDX-License-Identifier: GPL-2.0
/*
 * fs.exempt: entries of fs/exempt.  A path is checked here as the kernel
 * will (absolute, not the root, a directory of the cgroup v2 hierarchy,
 * which the kernel resolves in the writer's cgroup namespace: the mount
 * seen here), so that the message says why before the kernel would
 * refuse; the kernel has the last word (more than 16 entries, locked).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exempt.h"
#include "mounts.h"
#include "settings.h"
#include "sysfs.h"

/* Where cgroup v2 is mounted, into @root; false if it is not. */
static bool cgroup2_root(char *root, size_t size)
{
	const char *env = getenv("UTF8GUARD_CGROUP2");
	char *line = NULL, *field, *type;
	size_t capacity = 0;
	bool found = false;
	FILE *in;
	int k;

	if (env && *env) {
		snprintf(root, size, "%s", env);
		return true;
	}
	in = fopen("/proc/self/mountinfo", "re");
	if (!in)
		return false;
	while (!found && getline(&line, &capacity, in) >= 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNT OPTIONS [TAGS...] - TYPE ... */
		type = strstr(line, " - ");
		if (!type || strncmp(type + 3, "cgroup2 ", 8))
			continue;
		field = strtok(line, " ");
		for (k = 0; k < 4 && field; k++)
			field = strtok(NULL, " ");
		if (!field)
			continue;
		fs_path_unescape(field);
		snprintf(root, size, "%s", field);
		found = true;
	}
	free(line);
	fclose(in);
	return found;
}

bool fs_exempt_validate(const char *path, bool remove, char *error,
			size_t size)
{
	char root[4096], dir[8192];
	struct stat st;

	if (path[0] != '/') {
		snprintf(error, size, "'%s' is not an absolute path", path);
		return false;
	}
	if (strlen(path) > FS_EXEMPT_PATH_MAX) {
		snprintf(error, size, "path longer than %d bytes",
			 FS_EXEMPT_PATH_MAX);
		return false;
	}
	if (!path[strspn(path, "/")]) {
		snprintf(error, size,
			 "'%s' is the root cgroup: it would exempt every task",
			 path);
		return false;
	}
	if (remove)
		return true;	/* an entry whose cgroup may be gone */
	if (!cgroup2_root(root, sizeof(root))) {
		snprintf(error, size,
			 "cgroup v2 is not mounted (no cgroup2 in /proc/self/mountinfo)");
		return false;
	}
	snprintf(dir, sizeof(dir), "%s%s", root, path);
	if (stat(dir, &st)) {
		snprintf(error, size, "no cgroup '%s' (%s: %s)", path, dir,
			 strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(error, size, "'%s' is not a cgroup (%s is a file)",
			 path, dir);
		return false;
	}
	return true;
}

bool fs_exempt_line(const char *path, bool remove, char *buf, size_t size)
{
	size_t at;
	int n;

	if (!fs_path_escape(path, buf, size))
		return false;
	at = strlen(buf);
	n = snprintf(buf + at, size - at, "%s\n", remove ? " -" : "");
	return n >= 0 && (size_t)n < size - at;
}

void fs_exempt_summary(const char *text, char *buf, size_t size)
{
	size_t at = 0, len;
	const char *next;

	buf[0] = '\0';
	for (; *text; text = next) {
		next = strchr(text, '\n');
		len = next ? (size_t)(next - text) : strlen(text);
		next = next ? next + 1 : text + len;
		if (!len)
			continue;
		if (at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%.*s",
					       at ? ", " : "", (int)len, text);
	}
	if (!buf[0])
		snprintf(buf, size, "(none)");
}

int fs_exempt_set(const char *text, char *now, size_t now_size, char *error,
		  size_t size)
{
	static const struct setting exempt_setting = {
		"fs.exempt", FS_EXEMPT_FILE, "utf8guard_fs", SETTING_EXEMPT, 1
	};
	char listing[SYSFS_VALUE_MAX];
	int err;

	err = sysfs_write(FS_EXEMPT_FILE, text);
	if (err) {
		setting_explain_errno(&exempt_setting, text, err, error, size);
		return err;
	}
	err = sysfs_read(FS_EXEMPT_FILE, listing, sizeof(listing));
	if (err) {
		snprintf(error, size,
			 "wrote fs.exempt but cannot read %s/%s back: %s",
			 sysfs_root(), FS_EXEMPT_FILE, strerror(-err));
		return err;
	}
	fs_exempt_summary(listing, now, now_size);
	return 0;
}
