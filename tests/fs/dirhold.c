// SPDX-License-Identifier: GPL-2.0
/*
 * dirhold DIR - hold DIR's i_rwsem SHARED for as long as we like:
 * getdents64() into a page that userfaultfd keeps missing, so
 * iterate_dir() faults while holding inode_lock_shared(DIR).  Prints
 * "held" once the fault is reported; on SIGUSR1 fills the page and exits.
 * A mkdir in DIR then queues for the lock exclusively, and any later
 * lookup_slow() in DIR (an uncached name) queues behind it: an
 * fs/mounts writer's kern_path() sleeps there, holding fs_settings.lock
 * (fs_scope_test.sh, review round 17).  Needs root (kernel-mode uffd
 * faults).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fd;
static char *page;
static long got;

static void fail(const char *what)
{
	fprintf(stderr, "dirhold: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *reader(void *unused)
{
	(void)unused;
	got = syscall(SYS_getdents64, fd, page, 4096);
	return NULL;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct uffd_msg msg;
	sigset_t block;
	int sig;
	pthread_t thread;
	int uffd;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		fail(argv[1]);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) < 0)
		fail("userfaultfd");
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)page;
	reg.range.len = 4096;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		fail("UFFDIO_REGISTER");
	/* The reader thread inherits the mask: SIGUSR1 only to sigwait(). */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	if (pthread_create(&thread, NULL, reader, NULL))
		fail("pthread_create");
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		fail("read userfaultfd");
	printf("held\n");
	fflush(stdout);
	sigwait(&block, &sig);
	zero.range.start = (unsigned long)page;
	zero.range.len = 4096;
	ioctl(uffd, UFFDIO_ZEROPAGE, &zero);
	pthread_join(thread, NULL);
	printf("released (%ld)\n", got);
	return 0;
}
