// SPDX-License-Identifier: GPL-2.0
/* Reading and writing the files of /sys/kernel/utf8guard. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

const char *sysfs_root(void)
{
	const char *root = getenv("UTF8GUARD_SYSFS");

	return root && *root ? root : SYSFS_DEFAULT_ROOT;
}

static void sysfs_path(const char *rel, char *path, size_t size)
{
	if (rel && *rel)
		snprintf(path, size, "%s/%s", sysfs_root(), rel);
	else
		snprintf(path, size, "%s", sysfs_root());
}

bool sysfs_exists(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	sysfs_path(rel, path, sizeof(path));
	return stat(path, &st) == 0;
}

int sysfs_read(const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t got;
	size_t len = 0;
	int fd, err = 0;

	sysfs_path(rel, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		got = read(fd, buf + len, size - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			break;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (err)
		return err;
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

int sysfs_read_u64(const char *rel, uint64_t *value)
{
	char buf[64], *end;
	int err = sysfs_read(rel, buf, sizeof(buf));

	if (err)
		return err;
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	*value = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int sysfs_write(const char *rel, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t done;
	int fd, err = 0;

	sysfs_path(rel, path, sizeof(path));
	/* No O_CREAT: a missing file means the module or hook is not loaded. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		done = write(fd, text, len);
	} while (done < 0 && errno == EINTR);
	if (done < 0)
		err = -errno;
	else if ((size_t)done != len)
		err = -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

void sysfs_choice_word(const char *text, char *buf, size_t size)
{
	const char *open_bracket = strchr(text, '['), *close_bracket;

	close_bracket = open_bracket ? strchr(open_bracket, ']') : NULL;
	if (open_bracket && close_bracket)
		snprintf(buf, size, "%.*s", (int)(close_bracket - open_bracket - 1),
			 open_bracket + 1);
	else
		snprintf(buf, size, "%s", text);
}

int sysfs_read_choice(const char *file, char *buf, size_t size)
{
	char text[128];
	int err = sysfs_read(file, text, sizeof(text));

	if (!err)
		sysfs_choice_word(text, buf, size);
	return err;
}
