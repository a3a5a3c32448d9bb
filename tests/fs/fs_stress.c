// SPDX-License-Identifier: GPL-2.0
/*
 * fs_stress - concurrent creates of good and bad names, for the VM stress
 * tests of utf8guard_fs.ko.
 *
 *	fs_stress DIR NPROC ITER [--flip MODEFILE]
 *
 * NPROC workers, each in its own directory DIR/pN (made here, removed at
 * the end), run ITER iterations of: create (open O_CREAT|O_EXCL) and
 * unlink the good name "g\xc3\xa9"; try to create the bad name
 * "a\xc0\xaeb" (an overlong '.') and unlink it if that worked.  ITER 0
 * runs until SIGTERM or SIGINT.  With --flip, one more process writes
 * "enforce" and "audit" alternately to MODEFILE (never "off") every
 * millisecond, on a fixed grid, until the workers are done (as SCHED_FIFO
 * when allowed, so that the busy workers do not delay it); under emulation
 * a write can take longer than that, and fs_hook_test.sh checks the rate
 * it got and the time its writes took.
 *
 * The environment's FS_STRESS_PAUSE_US (default 0) makes every worker
 * sleep that many microseconds after each iteration: a lighter load that
 * leaves CPU time to the kernel's own threads (the debug kernel under
 * emulation starves its RCU grace-period kthread otherwise).
 *
 * Prints one line of totals:
 *	good_ok good_failed bad_refused bad_created other_errors mkdirs
 *	flips flip_errors ms write_us write_us_p50 write_us_max
 * (write_us: the microseconds the flips' writes took in all, from before
 * each pwrite() to after it; write_us_p50: half of them took at most
 * that long (a power of 2: the bound of a log2 histogram), which a few
 * writes that flush the serial console do not move; write_us_max: the
 * longest one;
 * bad_refused: EILSEQ; other_errors: any other failure, including a
 * failed unlink or a worker that died; mkdirs: the pN directories this
 * run created, each one a mkdir the hook checks).  The first unexpected
 * error of each kind is described on stderr.  Exit status 0 if it ran,
 * 1 if DIR could not be set up, 2 on a usage error.
 *
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE
 *        tests/fs/fs_stress.c
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROCS 256
#define WRITE_BUCKETS 32

static const char good_name[] = "g\xc3\xa9";
static const char bad_name[] = "a\xc0\xae\x62";	/* a, overlong '.', b */

struct totals {
	long good_ok, good_failed, bad_refused, bad_created, other_errors;
};

/* Shared by all processes (MAP_SHARED). */
struct shared {
	struct totals worker[MAX_PROCS];
	long flips, flip_errors;
	long long write_ns, write_ns_max;	/* the flips' pwrite()s */
	long write_log2_us[WRITE_BUCKETS];	/* at most 2^k us, k > 0: more than 2^(k-1) */
	int stop;		/* SIGTERM/SIGINT: workers stop early */
	int done;		/* workers finished: the flipper stops */
};

static struct shared *shared;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&shared->stop, 1, __ATOMIC_RELAXED);
}

static int stopping(void)
{
	return __atomic_load_n(&shared->stop, __ATOMIC_RELAXED);
}

/* Describe the first unexpected error of each kind on stderr. */
static void report(int id, const char *what, int err, int *reported)
{
	if (*reported)
		return;
	*reported = 1;
	fprintf(stderr, "fs_stress: p%d: %s: %s\n", id, what, strerror(err));
}

static void work(const char *dir, int id, long iterations, long pause_us)
{
	const struct timespec pause = { pause_us / 1000000,
					(pause_us % 1000000) * 1000 };
	struct totals *t = &shared->worker[id];
	int said_good = 0, said_bad = 0, said_unlink = 0;
	char path[4096];
	long i;
	int dfd, fd;

	snprintf(path, sizeof(path), "%s/p%d", dir, id);
	dfd = open(path, O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		report(id, path, errno, &said_good);
		t->other_errors++;
		return;
	}
	for (i = 0; (!iterations || i < iterations) && !stopping(); i++) {
		fd = openat(dfd, good_name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			report(id, "create of the good name", errno,
			       &said_good);
			t->good_failed++;
		} else {
			close(fd);
			t->good_ok++;
			if (unlinkat(dfd, good_name, 0) < 0) {
				report(id, "unlink", errno, &said_unlink);
				t->other_errors++;
			}
		}
		fd = openat(dfd, bad_name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd >= 0) {
			close(fd);
			t->bad_created++;
			if (unlinkat(dfd, bad_name, 0) < 0) {
				report(id, "unlink", errno, &said_unlink);
				t->other_errors++;
			}
		} else if (errno == EILSEQ) {
			t->bad_refused++;
		} else {
			report(id, "create of the bad name", errno, &said_bad);
			t->other_errors++;
		}
		if (pause_us)
			nanosleep(&pause, NULL);
	}
	close(dfd);
	if (rmdir(path) < 0) {
		report(id, path, errno, &said_unlink);
		t->other_errors++;
	}
}

/* a - b in nanoseconds. */
static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (a->tv_sec - b->tv_sec) * 1000000000LL + a->tv_nsec - b->tv_nsec;
}

/*
 * The histogram bucket of a write that took @ns: the least k with
 * @ns <= 2^k us.
 */
static unsigned int write_bucket(long long ns)
{
	unsigned int k = 0;

	while (k + 1 < WRITE_BUCKETS && ns > 1000LL << k)
		k++;
	return k;
}

/* The bound of the bucket where half of the writes are reached, in us. */
static long long write_p50_us(void)
{
	long seen = 0;
	unsigned int k;

	for (k = 0; k < WRITE_BUCKETS; k++) {
		seen += shared->write_log2_us[k];
		if (seen * 2 >= shared->flips && seen)
			return 1LL << k;
	}
	return 0;
}

/*
 * Write the mode on a 1 ms grid (absolute deadlines, so that the time a
 * write takes does not add up); a flip that overruns its slot is followed
 * by the next one at once, never by a burst to catch up.  The file stays
 * open: every write() to a sysfs attribute is a whole store.
 */
static void flip(const char *file)
{
	static const char *const word[] = { "enforce", "audit" };
	struct sched_param rt = { .sched_priority = 1 };
	struct timespec next, now, before;
	long long took;
	size_t len;
	long n = 0;
	int fd, ok;

	/* Wake up on time despite NPROC busy workers (root only). */
	if (sched_setscheduler(0, SCHED_FIFO, &rt) < 0)
		setpriority(PRIO_PROCESS, 0, -10);
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "fs_stress: flip %s: %s\n", file,
			strerror(errno));
		shared->flip_errors++;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!__atomic_load_n(&shared->done, __ATOMIC_RELAXED)) {
		len = strlen(word[n % 2]);
		clock_gettime(CLOCK_MONOTONIC, &before);
		ok = pwrite(fd, word[n % 2], len, 0) == (ssize_t)len;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ok) {
			took = ns_between(&now, &before);
			shared->write_log2_us[write_bucket(took)]++;
			shared->write_ns += took;
			if (took > shared->write_ns_max)
				shared->write_ns_max = took;
			shared->flips++;
			n++;
		} else {
			if (!shared->flip_errors)
				fprintf(stderr, "fs_stress: flip %s: %s\n",
					file, strerror(errno));
			shared->flip_errors++;
		}
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ns_between(&now, &next) > 0)
			next = now;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
				       NULL) == EINTR)
			;
	}
	if (close(fd) < 0)
		shared->flip_errors++;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fs_stress DIR NPROC ITER [--flip MODEFILE]\n"
		"  NPROC workers (1..%d) in DIR/pN, ITER iterations each (0: until SIGTERM)\n",
		MAX_PROCS);
	exit(2);
}

static long number(const char *text, long min, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < min || n > max)
		usage();
	return n;
}

/* Wait for @pid; a child that did not exit 0 counts as an error. */
static long reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "fs_stress: child %d ended with status %#x\n",
		(int)pid, status);
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t pids[MAX_PROCS], flipper = 0;
	struct timespec start, end;
	struct totals sum = { 0 };
	const char *dir, *modefile = NULL;
	char path[4096];
	long nproc, iterations, pause_us = 0, mkdirs = 0, k;

	if (argc == 6 && !strcmp(argv[4], "--flip"))
		modefile = argv[5];
	else if (argc != 4)
		usage();
	dir = argv[1];
	nproc = number(argv[2], 1, MAX_PROCS);
	iterations = number(argv[3], 0, 1000000000);
	if (getenv("FS_STRESS_PAUSE_US"))
		pause_us = number(getenv("FS_STRESS_PAUSE_US"), 0, 1000000);

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("fs_stress: mmap");
		return 1;
	}
	for (k = 0; k < nproc; k++) {
		snprintf(path, sizeof(path), "%s/p%ld", dir, k);
		if (mkdir(path, 0755) == 0) {
			mkdirs++;
		} else if (errno != EEXIST) {
			fprintf(stderr, "fs_stress: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &start);

	if (modefile) {
		flipper = fork();
		if (flipper == 0) {
			flip(modefile);
			_exit(0);
		}
		if (flipper < 0)
			sum.other_errors++;
	}
	for (k = 0; k < nproc; k++) {
		pids[k] = fork();
		if (pids[k] == 0) {
			work(dir, (int)k, iterations, pause_us);
			_exit(0);
		}
		if (pids[k] < 0) {
			perror("fs_stress: fork");
			sum.other_errors++;
		}
	}
	for (k = 0; k < nproc; k++)
		if (pids[k] > 0)
			sum.other_errors += reap(pids[k]);
	clock_gettime(CLOCK_MONOTONIC, &end);
	__atomic_store_n(&shared->done, 1, __ATOMIC_RELAXED);
	if (flipper > 0)
		sum.other_errors += reap(flipper);

	for (k = 0; k < nproc; k++) {
		sum.good_ok += shared->worker[k].good_ok;
		sum.good_failed += shared->worker[k].good_failed;
		sum.bad_refused += shared->worker[k].bad_refused;
		sum.bad_created += shared->worker[k].bad_created;
		sum.other_errors += shared->worker[k].other_errors;
	}
	printf("good_ok=%ld good_failed=%ld bad_refused=%ld bad_created=%ld other_errors=%ld mkdirs=%ld flips=%ld flip_errors=%ld ms=%ld write_us=%lld write_us_p50=%lld write_us_max=%lld\n",
	       sum.good_ok, sum.good_failed, sum.bad_refused, sum.bad_created,
	       sum.other_errors, mkdirs, shared->flips, shared->flip_errors,
	       (long)(ns_between(&end, &start) / 1000000),
	       shared->write_ns / 1000, write_p50_us(),
	       shared->write_ns_max / 1000);
	return 0;
}
