// SPDX-License-Identifier: GPL-2.0
/*
 * holdlock - hold a file's inode lock until told to let go, for the VM
 * tests of utf8guard_fs.ko (fs_lock_test.sh).
 *
 *   holdlock FILE
 *
 * A thread write()s one byte to FILE from a page that userfaultfd keeps
 * missing: the write takes the inode lock, then faults the page in
 * (generic_perform_write()) and waits for it, holding the lock.  Once the
 * fault is reported, holdlock prints "held"; on SIGUSR1 (or SIGTERM) it
 * fills the page, the write ends and the lock goes, and it prints
 * "released" and exits 0.  A rename or link of FILE started meanwhile
 * waits in vfs_rename()/vfs_link() after its security hook.  Needs
 * CAP_SYS_PTRACE (or vm.unprivileged_userfaultfd 1): kernel-mode faults.
 * Exit status 1 on any failure, with a message.
 *
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE
 *        -pthread tests/fs/holdlock.c
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

static volatile sig_atomic_t let_go;
static int fd;
static char *page;
static ssize_t written;
static int write_errno;

static void fail(const char *what)
{
	fprintf(stderr, "holdlock: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void on_signal(int sig)
{
	(void)sig;
	let_go = 1;
}

static void *writer(void *unused)
{
	(void)unused;
	written = write(fd, page, 1);
	write_errno = errno;
	return NULL;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct uffd_msg msg;
	long size = sysconf(_SC_PAGESIZE);
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;
	pthread_t thread;
	int uffd;

	if (argc != 2) {
		fprintf(stderr, "usage: holdlock FILE\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_APPEND);
	if (fd < 0)
		fail(argv[1]);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		fail("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api) < 0)
		fail("UFFDIO_API");
	page = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		fail("mmap");
	reg.range.start = (unsigned long)page;
	reg.range.len = size;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		fail("UFFDIO_REGISTER");
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	/* Taken only in sigsuspend(), never by the writer. */
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (pthread_create(&thread, NULL, writer, NULL))
		fail("pthread_create");
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		fail("read userfaultfd");
	if (msg.event != UFFD_EVENT_PAGEFAULT) {
		fprintf(stderr, "holdlock: unexpected event %u\n", msg.event);
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	while (!let_go)
		sigsuspend(&old);
	zero.range.start = (unsigned long)page;
	zero.range.len = size;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero) < 0)
		fail("UFFDIO_ZEROPAGE");
	pthread_join(thread, NULL);
	if (written != 1) {
		errno = write_errno;
		fail("write");
	}
	printf("released\n");
	return 0;
}
