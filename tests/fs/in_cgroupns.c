// SPDX-License-Identifier: GPL-2.0
/*
 * in_cgroupns CMD [ARG...] - run CMD in a cgroup namespace of its own,
 * whose root is the caller's cgroup (fs_exempt_test.sh: fs/exempt takes
 * no write from such a namespace).  Busybox's unshare has no -C.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: in_cgroupns CMD [ARG...]\n", stderr);
		return 2;
	}
	if (unshare(CLONE_NEWCGROUP)) {
		fprintf(stderr, "in_cgroupns: unshare: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "in_cgroupns: %s: %s\n", argv[1], strerror(errno));
	return 1;
}
