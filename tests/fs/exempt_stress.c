// SPDX-License-Identifier: GPL-2.0
/*
 * exempt_stress - 16 creators in and out of an exempt cgroup against
 * fs/exempt edits, for fs_exempt_test.sh.
 *
 * usage: exempt_stress EXEMPT CGROUP2 DIR COUNT
 *
 * Makes the cgroups /stress-in, /stress-out and /stress-aux under CGROUP2
 * (the cgroup2 mount), forks 16 processes that each create COUNT files in DIR: 6 in
 * /stress-in, 6 in /stress-out, 4 that move themselves between the two
 * every 8 creates.  One name in 4 is well-formed ("g<k>-<i>"), the others
 * ill-formed ("c<k>-<i>" with a 0xff byte).  Meanwhile this process writes
 * EXEMPT (/sys/kernel/utf8guard/fs/exempt) every millisecond, cycling
 * "/stress-in", "/stress-aux", "/stress-in -", "/stress-in",
 * "/stress-in -\n/stress-aux -": /stress-in is exempt 2 edits in 5,
 * /stress-out never, and the list goes from none to two entries.  Prints
 * "in-made N in-refused N out-made N out-refused N move-made N
 * move-refused N good N other N edits N failed-edits N": each ill-formed
 * name either made (exempt) or refused with EILSEQ, each well-formed one
 * made ("other" counts anything else).  Removes the cgroups at the end,
 * the last write leaving no entry.
 *
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CREATORS 16
#define INSIDE 6
#define OUTSIDE 6

struct tally {
	long made, refused, good, other;
};

static char in_procs[4200], out_procs[4200];

static int move_to(const char *procs)
{
	int fd = open(procs, O_WRONLY);
	int ok = fd >= 0 && write(fd, "0", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static void creator(int k, long count, const char *dir, struct tally *t)
{
	char name[4200];
	long i;
	int fd;

	for (i = 0; i < count; i++) {
		int good = i % 4 == 0;

		if (k >= INSIDE + OUTSIDE && i % 8 == 0 &&
		    move_to(i % 16 ? out_procs : in_procs)) {
			t->other++;
			continue;
		}
		snprintf(name, sizeof(name), good ? "%s/g%d-%ld" :
			 "%s/c%d-\xff-%ld", dir, k, i);
		fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd >= 0) {
			close(fd);
			if (good)
				t->good++;
			else
				t->made++;
		} else if (errno == EILSEQ && !good) {
			t->refused++;
		} else {
			t->other++;
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const edits_text[] = {
		"/stress-in\n", "/stress-aux\n", "/stress-in -\n",
		"/stress-in\n", "/stress-in -\n/stress-aux -\n",
	};
	long count, edits = 0, failed = 0, done = 0;
	struct tally *tally, sum[3] = { { 0 } };
	char in_dir[4096], out_dir[4096], aux_dir[4096];
	int k, fd;

	if (argc != 5) {
		fprintf(stderr, "usage: exempt_stress EXEMPT CGROUP2 DIR COUNT\n");
		return 2;
	}
	count = atol(argv[4]);
	snprintf(in_dir, sizeof(in_dir), "%s/stress-in", argv[2]);
	snprintf(out_dir, sizeof(out_dir), "%s/stress-out", argv[2]);
	snprintf(aux_dir, sizeof(aux_dir), "%s/stress-aux", argv[2]);
	snprintf(in_procs, sizeof(in_procs), "%s/cgroup.procs", in_dir);
	snprintf(out_procs, sizeof(out_procs), "%s/cgroup.procs", out_dir);
	if ((mkdir(in_dir, 0755) && errno != EEXIST) ||
	    (mkdir(out_dir, 0755) && errno != EEXIST) ||
	    (mkdir(aux_dir, 0755) && errno != EEXIST)) {
		perror("exempt_stress: mkdir");
		return 1;
	}
	tally = mmap(NULL, sizeof(*tally) * CREATORS, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED)
		return 1;
	memset(tally, 0, sizeof(*tally) * CREATORS);
	for (k = 0; k < CREATORS; k++) {
		if (fork())
			continue;
		if (move_to(k < INSIDE || k >= INSIDE + OUTSIDE ? in_procs :
			    out_procs))
			_exit(1);
		creator(k, count, argv[3], &tally[k]);
		_exit(0);
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0)
		return 1;
	while (done < CREATORS) {
		const char *text = edits_text[edits % 5];
		ssize_t n = (ssize_t)strlen(text);

		if (pwrite(fd, text, n, 0) != n)
			failed++;
		edits++;
		usleep(1000);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			done++;
	}
	/* The cycle ends with no entry: finish it. */
	while (edits % 5) {
		const char *text = edits_text[edits % 5];
		ssize_t n = (ssize_t)strlen(text);

		if (pwrite(fd, text, n, 0) != n)
			failed++;
		edits++;
	}
	close(fd);
	for (k = 0; k < CREATORS; k++) {
		struct tally *s = &sum[k < INSIDE ? 0 : k < INSIDE + OUTSIDE ?
				       1 : 2];

		s->made += tally[k].made;
		s->refused += tally[k].refused;
		s->good += tally[k].good;
		s->other += tally[k].other;
	}
	if (rmdir(in_dir) || rmdir(out_dir) || rmdir(aux_dir))
		perror("exempt_stress: rmdir");
	printf("in-made %ld in-refused %ld out-made %ld out-refused %ld move-made %ld move-refused %ld good %ld other %ld edits %ld failed-edits %ld\n",
	       sum[0].made, sum[0].refused, sum[1].made, sum[1].refused,
	       sum[2].made, sum[2].refused,
	       sum[0].good + sum[1].good + sum[2].good,
	       sum[0].other + sum[1].other + sum[2].other, edits, failed);
	return 0;
}
