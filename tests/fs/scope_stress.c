// SPDX-License-Identifier: GPL-2.0
/*
 * scope_stress - 16 creators against fs/mounts edits, for fs_scope_test.sh.
 *
 * usage: scope_stress MOUNTS DIR COUNT
 *
 * Forks 16 processes that each create COUNT files with names that are
 * ill-formed UTF-8 ("c<k>-<i>" with a 0xff byte) in DIR, while this process
 * writes DIR's entry to MOUNTS (/sys/kernel/utf8guard/fs/mounts) every
 * millisecond, cycling "DIR strict", "DIR bidi" and "DIR -".  Prints
 * "made N refused N other N edits N failed-edits N": each create either
 * made its file or failed with EILSEQ ("other" counts anything else).
 *
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CREATORS 16

struct tally {
	long made, refused, other;
};

int main(int argc, char **argv)
{
	static const char *const words[] = { "strict", "bidi", "-" };
	long count, i, edits = 0, failed = 0, done = 0;
	struct tally *tally, sum = { 0 };
	char name[64], line[4200];
	int k, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: scope_stress MOUNTS DIR COUNT\n");
		return 2;
	}
	count = atol(argv[3]);
	tally = mmap(NULL, sizeof(*tally) * CREATORS, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED)
		return 1;
	memset(tally, 0, sizeof(*tally) * CREATORS);
	for (k = 0; k < CREATORS; k++) {
		if (fork())
			continue;
		for (i = 0; i < count; i++) {
			snprintf(name, sizeof(name), "%s/c%d-\xff-%ld", argv[2],
				 k, i);
			fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
			if (fd >= 0) {
				close(fd);
				tally[k].made++;
			} else if (errno == EILSEQ) {
				tally[k].refused++;
			} else {
				tally[k].other++;
			}
		}
		_exit(0);
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0)
		return 1;
	while (done < CREATORS) {
		int n = snprintf(line, sizeof(line), "%s %s\n", argv[2],
				 words[edits % 3]);

		if (pwrite(fd, line, n, 0) != n)
			failed++;
		edits++;
		usleep(1000);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			done++;
	}
	close(fd);
	for (k = 0; k < CREATORS; k++) {
		sum.made += tally[k].made;
		sum.refused += tally[k].refused;
		sum.other += tally[k].other;
	}
	printf("made %ld refused %ld other %ld edits %ld failed-edits %ld\n",
	       sum.made, sum.refused, sum.other, edits, failed);
	return 0;
}
