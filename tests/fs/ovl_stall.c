// SPDX-License-Identifier: GPL-2.0
/*
 * ovl_stall - review round 5's attack on utf8guard_fs.ko's overlayfs
 * probes, for fs_overlay_test.sh (make check-long).
 *
 *	ovl_stall UID DIR NDEL NREN
 *
 * As UID, with no privilege: a user and mount namespace, a tmpfs on DIR
 * and an overlay on DIR/m whose lower layer has NDEL files l/dK/f and NREN
 * files l/rK/f, each in its own directory and each under a write lease
 * (one child holds them all).  For each dK, an opener for writing (its
 * copy-up stalls in break_lease(), holding the overlay inode's lock) and
 * an unlinker (waits for that lock inside ovl_do_remove()); for each rK, a
 * renamer (its own copy-up stalls inside ovl_rename()).  Prints what it
 * has done, one line a step, and waits to be killed with its children.
 * The leases last /proc/sys/fs/lease-break-time.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what)
{
	printf("ovl_stall: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		die(path);
	close(fd);
}

/* l/dK/f or l/rK/f (under DIR), or the same under m/ */
static void file_name(char *buf, size_t size, const char *layer, int k,
		      int ndel, const char *leaf)
{
	snprintf(buf, size, "%s/%c%d/%s", layer, k < ndel ? 'd' : 'r',
		 k < ndel ? k : k - ndel, leaf);
}

static void enter_namespace(uid_t uid, const char *dir)
{
	char map[64];

	if (setgid(uid) || setuid(uid))
		die("setuid");
	prctl(PR_SET_DUMPABLE, 1);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		die("unshare");
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/gid_map", map);
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("mount --make-rprivate /");
	if (mount("tmpfs", dir, "tmpfs", 0, NULL))
		die("mount tmpfs");
	if (chdir(dir))
		die(dir);
}

static void make_overlay(const char *dir, int ndel, int nren)
{
	char path[512], opts[1024];
	int k, fd;

	if (mkdir("l", 0755) || mkdir("u", 0755) || mkdir("w", 0755) ||
	    mkdir("m", 0755))
		die("mkdir");
	for (k = 0; k < ndel + nren; k++) {
		file_name(path, sizeof(path), "l", k, ndel, "");
		if (mkdir(path, 0755))
			die(path);
		file_name(path, sizeof(path), "l", k, ndel, "f");
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || write(fd, "data\n", 5) != 5)
			die(path);
		close(fd);
	}
	snprintf(opts, sizeof(opts), "lowerdir=%s/l,upperdir=%s/u,workdir=%s/w",
		 dir, dir, dir);
	if (mount("overlay", "m", "overlay", 0, opts))
		die("mount overlay");
	printf("ovl_stall: overlay mounted in a user namespace\n");
}

/* A child that leases every lower file, then waits to be killed. */
static void hold_leases(int count, int ndel, int ready)
{
	char path[512];
	struct rlimit nofile;
	int k, fd;

	if (fork())
		return;
	getrlimit(RLIMIT_NOFILE, &nofile);
	nofile.rlim_cur = nofile.rlim_max;
	setrlimit(RLIMIT_NOFILE, &nofile);
	signal(SIGIO, SIG_IGN);	/* a lease break's signal: stay */
	for (k = 0; k < count; k++) {
		file_name(path, sizeof(path), "l", k, ndel, "f");
		fd = open(path, O_RDONLY);
		if (fd < 0 || fcntl(fd, F_SETLEASE, F_WRLCK))
			die(path);
	}
	printf("ovl_stall: %d leases held\n", count);
	fflush(stdout);
	if (write(ready, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	char path[512], target[512];
	int ndel, nren, k, ready[2];

	if (argc != 5) {
		fprintf(stderr, "usage: ovl_stall UID DIR NDEL NREN\n");
		return 2;
	}
	ndel = atoi(argv[3]);
	nren = atoi(argv[4]);
	enter_namespace((uid_t)atoi(argv[1]), argv[2]);
	make_overlay(argv[2], ndel, nren);
	if (pipe(ready))
		die("pipe");
	hold_leases(ndel + nren, ndel, ready[1]);
	close(ready[1]);
	if (read(ready[0], path, 1) != 1)
		die("lease holder");
	for (k = 0; k < ndel; k++) {
		file_name(path, sizeof(path), "m", k, ndel, "f");
		if (!fork())
			_exit(open(path, O_WRONLY) < 0 ? 2 : 0);
	}
	printf("ovl_stall: %d openers\n", ndel);
	fflush(stdout);
	sleep(ndel / 10 + 5);
	for (k = 0; k < ndel; k++) {
		file_name(path, sizeof(path), "m", k, ndel, "f");
		if (!fork())
			_exit(unlink(path) ? 2 : 0);
	}
	printf("ovl_stall: %d unlinkers\n", ndel);
	for (k = ndel; k < ndel + nren; k++) {
		file_name(path, sizeof(path), "m", k, ndel, "f");
		file_name(target, sizeof(target), "m", k, ndel, "g");
		if (!fork())
			_exit(rename(path, target) ? 2 : 0);
	}
	printf("ovl_stall: %d renamers\n", nren);
	fflush(stdout);
	for (;;)
		pause();
}
