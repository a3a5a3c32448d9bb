// SPDX-License-Identifier: GPL-2.0
/*
 * guest_write - write bytes to a file with exactly one write() and print
 * the outcome ("ok" or the errno name), for the VM tests of sysfs and
 * debugfs files.
 *
 *	guest_write [--as-uid UID | --no-cap-sys-admin | --in-userns] FILE HEX
 *	guest_write --repeat N FILE HEX...
 *	guest_write --toggle N FILE CLASS
 *
 * HEX is the exact bytes (so tests can write NULs and invalid UTF-8);
 * the empty string writes zero bytes.  The privilege options prove that
 * a store handler checks CAP_SYS_ADMIN in the initial user namespace
 * itself: uid 65534 fails on the file mode, root without CAP_SYS_ADMIN and
 * root of a new user namespace pass the file mode and must be refused by
 * the handler.  --repeat writes each HEX in turn, N rounds, from one
 * process (a tight loop, for races between concurrent writers), and prints
 * how many writes succeeded and failed.  --toggle writes "+CLASS" and
 * "-CLASS" N times each and re-reads FILE after every write: CLASS must be
 * there exactly when it was last added, so two processes toggling two
 * different classes at once catch any lost read-modify-write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EILSEQ: return "EILSEQ";
	case E2BIG: return "E2BIG";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case EIO: return "EIO";
	default: return strerror(e);
	}
}

static int parse_hex(const char *hex, unsigned char *out, size_t *len)
{
	size_t n = strlen(hex), k;
	unsigned int byte;

	if (n % 2)
		return -1;
	for (k = 0; k < n / 2; k++) {
		if (sscanf(hex + 2 * k, "%2x", &byte) != 1)
			return -1;
		out[k] = (unsigned char)byte;
	}
	*len = n / 2;
	return 0;
}

static void drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &header, data) < 0 ||
	    prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) < 0) {
		perror("capget/prctl");
		exit(2);
	}
	data[0].effective &= ~(1U << CAP_SYS_ADMIN);
	data[0].permitted &= ~(1U << CAP_SYS_ADMIN);
	data[0].inheritable &= ~(1U << CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &header, data) < 0) {
		perror("capset");
		exit(2);
	}
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0) {
		perror(path);
		exit(2);
	}
	close(fd);
}

static void enter_user_namespace(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER) < 0) {
		perror("unshare(CLONE_NEWUSER)");
		exit(2);
	}
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1", gid);
	write_file("/proc/self/gid_map", map);
}

static int repeat_writes(int rounds, const char *path, char **hex, int count)
{
	static unsigned char values[16][256];
	size_t len[16];
	long ok = 0, failed = 0;
	int round, k, fd;

	if (count < 1 || count > 16)
		return 2;
	for (k = 0; k < count; k++)
		if (strlen(hex[k]) / 2 > sizeof(values[k]) ||
		    parse_hex(hex[k], values[k], &len[k]) < 0)
			return 2;
	for (round = 0; round < rounds; round++) {
		for (k = 0; k < count; k++) {
			fd = open(path, O_WRONLY);
			if (fd < 0)
				return 2;
			if (write(fd, values[k], len[k]) == (ssize_t)len[k])
				ok++;
			else
				failed++;
			close(fd);
		}
	}
	printf("ok=%ld failed=%ld\n", ok, failed);
	return 0;
}

/* Is @word one of the space-separated words in @text? */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	while ((p = strstr(p, word))) {
		if ((p == text || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static int toggle_class(int rounds, const char *path, const char *class)
{
	char edit[64], now[256];
	long ok = 0, lost = 0, failed = 0;
	int round, add, fd;
	ssize_t got;

	for (round = 0; round < rounds; round++) {
		for (add = 1; add >= 0; add--) {
			snprintf(edit, sizeof(edit), "%c%s", add ? '+' : '-',
				 class);
			fd = open(path, O_RDWR);
			if (fd < 0)
				return 2;
			if (write(fd, edit, strlen(edit)) != (ssize_t)strlen(edit)) {
				failed++;
				close(fd);
				continue;
			}
			got = pread(fd, now, sizeof(now) - 1, 0);
			close(fd);
			if (got < 0)
				return 2;
			now[got] = '\0';
			if (has_word(now, class) == add)
				ok++;
			else
				lost++;
		}
	}
	printf("ok=%ld lost=%ld failed=%ld\n", ok, lost, failed);
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char bytes[1 << 16];
	size_t len;
	ssize_t done;
	int fd, arg = 1;

	if (argc == 5 && !strcmp(argv[1], "--toggle"))
		return toggle_class(atoi(argv[2]), argv[3], argv[4]);
	if (argc >= 5 && !strcmp(argv[1], "--repeat"))
		return repeat_writes(atoi(argv[2]), argv[3], argv + 4, argc - 4);
	if (argc == 5 && !strcmp(argv[1], "--as-uid")) {
		if (setgid(65534) < 0 || setuid(atoi(argv[2])) < 0) {
			perror("setuid");
			return 2;
		}
		arg = 3;
	} else if (argc == 4 && !strcmp(argv[1], "--no-cap-sys-admin")) {
		drop_cap_sys_admin();
		arg = 2;
	} else if (argc == 4 && !strcmp(argv[1], "--in-userns")) {
		enter_user_namespace();
		arg = 2;
	}
	if (argc - arg != 2 || strlen(argv[arg + 1]) / 2 > sizeof(bytes) ||
	    parse_hex(argv[arg + 1], bytes, &len) < 0) {
		fprintf(stderr, "usage: guest_write [--as-uid UID | --no-cap-sys-admin | --in-userns] FILE HEX\n");
		return 2;
	}
	fd = open(argv[arg], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	done = write(fd, bytes, len);
	if (done < 0)
		printf("%s\n", errno_name(errno));
	else if ((size_t)done != len)
		printf("short write %zd of %zu\n", done, len);
	else
		printf("ok\n");
	close(fd);
	return done < 0 || (size_t)done != len;
}
