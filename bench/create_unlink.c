// SPDX-License-Identifier: GPL-2.0
/*
 * create_unlink - the loop bench/fs-create-unlink.sh times: ITERATIONS x
 * (open(O_CREAT|O_EXCL) + close + unlink) of one well-formed name in DIR.
 *
 * Usage: create_unlink DIR ITERATIONS [NAME]
 * Prints one line:
 *	create_unlink: iterations=N elapsed_ns=T ns_per_iter=X
 * and exits 0, or prints the failing call and its error and exits 1 (a name
 * refused by utf8guard_fs.ko fails with "Invalid or incomplete multibyte or
 * wide character").  Built static: the test VM has no libc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Well-formed UTF-8 with 2-byte sequences, so the check walks them too. */
#define DEFAULT_NAME "na\xc3\xafve-caf\xc3\xa9-report-2026.txt"

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("create_unlink: clock_gettime");
		exit(1);
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *name = DEFAULT_NAME;
	unsigned long long n, i;
	uint64_t start, elapsed;
	char *end;
	int dirfd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: create_unlink DIR ITERATIONS [NAME]\n");
		return 2;
	}
	errno = 0;
	n = strtoull(argv[2], &end, 10);
	if (errno || *end || end == argv[2] || n == 0) {
		fprintf(stderr, "create_unlink: bad ITERATIONS: %s\n", argv[2]);
		return 2;
	}
	if (argc == 4)
		name = argv[3];
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(stderr, "create_unlink: open %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	/* A leftover from an interrupted run would make O_EXCL fail. */
	unlinkat(dirfd, name, 0);

	start = now_ns();
	for (i = 0; i < n; i++) {
		int fd = openat(dirfd, name,
				O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);

		if (fd < 0) {
			fprintf(stderr, "create_unlink: iteration %llu: open(O_CREAT|O_EXCL): %s\n",
				i, strerror(errno));
			return 1;
		}
		if (close(fd)) {
			fprintf(stderr, "create_unlink: iteration %llu: close: %s\n",
				i, strerror(errno));
			return 1;
		}
		if (unlinkat(dirfd, name, 0)) {
			fprintf(stderr, "create_unlink: iteration %llu: unlink: %s\n",
				i, strerror(errno));
			return 1;
		}
	}
	elapsed = now_ns() - start;

	printf("create_unlink: iterations=%llu elapsed_ns=%llu ns_per_iter=%llu\n",
	       n, (unsigned long long)elapsed,
	       (unsigned long long)(elapsed / n));
	return 0;
}
