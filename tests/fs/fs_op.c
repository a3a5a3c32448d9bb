// SPDX-License-Identifier: GPL-2.0
/*
 * fs_op - perform exactly one filesystem operation on names given in hex,
 * for the VM tests of utf8guard_fs.ko.
 *
 * Prints "ok" or the errno name (EILSEQ, EEXIST, ...) on stdout; readdir,
 * readlink and read print their result instead of "ok".  Exit status 0
 * whenever the operation was attempted, 1 if DIR cannot be entered (the
 * errno name is printed then too), 2 on a usage error.  Names are one DIR
 * (a plain path, entered first) and HEX components, so a test can use any
 * bytes but NUL; a HEX with 2f bytes is a path relative to DIR.  See
 * usage() for the operations.
 *
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE
 *        -I userspace tests/fs/fs_op.c tests/fs/uring.c userspace/hex.c
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/btrfs.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "hex.h"
#include "uring.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ERRNO(e) { e, #e }

static const struct {
	int value;
	const char *name;
} errno_names[] = {
	ERRNO(EILSEQ), ERRNO(EEXIST), ERRNO(ENOENT), ERRNO(EINVAL),
	ERRNO(EPERM), ERRNO(EACCES), ERRNO(ENOTDIR), ERRNO(EISDIR),
	ERRNO(ENOTEMPTY), ERRNO(EXDEV), ERRNO(ENAMETOOLONG), ERRNO(ELOOP),
	ERRNO(EOPNOTSUPP), ERRNO(ENOSYS), ERRNO(EBUSY), ERRNO(ENXIO),
	ERRNO(EMLINK), ERRNO(ENOSPC), ERRNO(EROFS), ERRNO(EIO),
	ERRNO(EBADF), ERRNO(EADDRINUSE), ERRNO(ETXTBSY), ERRNO(EFAULT),
	ERRNO(ENOMEM), ERRNO(EAGAIN), ERRNO(ESTALE), ERRNO(EPROTO),
};

static const char *errno_name(int e)
{
	static char unknown[32];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(errno_names); k++)
		if (errno_names[k].value == e)
			return errno_names[k].name;
	snprintf(unknown, sizeof(unknown), "errno-%d", e);
	return unknown;
}

/* An operation's result: 0 or an errno value. */
static int result(long ret)
{
	return ret < 0 ? errno : 0;
}

static int closed(int fd)
{
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int op_create(char **name)
{
	return closed(open(name[0], O_CREAT | O_EXCL | O_WRONLY, 0644));
}

static int op_open_creat(char **name)
{
	return closed(open(name[0], O_CREAT | O_WRONLY, 0644));
}

static int op_creat(char **name)
{
	return closed(creat(name[0], 0644));
}

static int op_mknod_reg(char **name)
{
	return result(mknod(name[0], S_IFREG | 0644, 0));
}

static int op_mknod_fifo(char **name)
{
	return result(mknod(name[0], S_IFIFO | 0644, 0));
}

static int op_mknod_chr(char **name)
{
	return result(mknod(name[0], S_IFCHR | 0644, makedev(1, 3)));
}

static int op_mknod_blk(char **name)
{
	return result(mknod(name[0], S_IFBLK | 0644, makedev(7, 0)));
}

static int op_mknod_sock(char **name)
{
	return result(mknod(name[0], S_IFSOCK | 0644, 0));
}

static int op_bind(char **name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(name[0]) >= sizeof(addr.sun_path))
		return ENAMETOOLONG;
	strcpy(addr.sun_path, name[0]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return errno;
	err = result(bind(fd, (struct sockaddr *)&addr, sizeof(addr)));
	close(fd);
	return err;
}

static int op_mkdir(char **name)
{
	return result(mkdir(name[0], 0755));
}

/* symlink NAME TARGET: NAME -> TARGET */
static int op_symlink(char **name)
{
	return result(symlink(name[1], name[0]));
}

static int op_link(char **name)
{
	return result(link(name[0], name[1]));
}

static int op_tmpfile_link(char **name)
{
	int fd = open(".", O_TMPFILE | O_WRONLY, 0644);
	int err;

	if (fd < 0)
		return errno;
	err = result(linkat(fd, "", AT_FDCWD, name[0], AT_EMPTY_PATH));
	close(fd);
	return err;
}

static int rename_flags(char **name, unsigned int flags)
{
	return result(syscall(SYS_renameat2, AT_FDCWD, name[0], AT_FDCWD,
			      name[1], flags));
}

static int op_rename(char **name)
{
	return rename_flags(name, 0);
}

static int op_rename_noreplace(char **name)
{
	return rename_flags(name, RENAME_NOREPLACE);
}

static int op_rename_whiteout(char **name)
{
	return rename_flags(name, RENAME_WHITEOUT);
}

static int op_rename_exchange(char **name)
{
	return rename_flags(name, RENAME_EXCHANGE);
}

/*
 * btrfs subvolumes and snapshots, by ioctl on DIR (".", the parent): the
 * new name in the ioctl's arguments, a snapshot's source by its fd.
 */
/*
 * --ioctl-pause MS: MS milliseconds between opening DIR and a btrfs
 * ioctl, for a test to lock DIR meanwhile (btrfs's open of a directory
 * takes its lock on 6.1: btrfs_get_dir_last_index()).
 */
static unsigned long ioctl_pause_ms;

static int btrfs_create(unsigned long request, int v2, const char *source,
			const char *new_name)
{
	struct btrfs_ioctl_vol_args args;
	struct btrfs_ioctl_vol_args_v2 args2;
	int dir, src = -1, err = 0;

	memset(&args, 0, sizeof(args));
	memset(&args2, 0, sizeof(args2));
	if (strlen(new_name) > (v2 ? BTRFS_SUBVOL_NAME_MAX : BTRFS_PATH_NAME_MAX))
		return ENAMETOOLONG;
	strcpy(v2 ? args2.name : args.name, new_name);
	dir = open(".", O_RDONLY | O_DIRECTORY);
	if (dir < 0)
		return errno;
	if (source) {
		src = open(source, O_RDONLY | O_DIRECTORY);
		if (src < 0) {
			err = errno;
			close(dir);
			return err;
		}
		args.fd = src;
		args2.fd = src;
	}
	if (ioctl_pause_ms)
		usleep(ioctl_pause_ms * 1000);
	if (ioctl(dir, request, v2 ? (void *)&args2 : (void *)&args) < 0)
		err = errno;
	if (src >= 0)
		close(src);
	close(dir);
	return err;
}

static int op_subvol(char **name)
{
	return btrfs_create(BTRFS_IOC_SUBVOL_CREATE, 0, NULL, name[0]);
}

static int op_subvol_v2(char **name)
{
	return btrfs_create(BTRFS_IOC_SUBVOL_CREATE_V2, 1, NULL, name[0]);
}

static int op_snapshot(char **name)
{
	return btrfs_create(BTRFS_IOC_SNAP_CREATE, 0, name[0], name[1]);
}

static int op_snapshot_v2(char **name)
{
	return btrfs_create(BTRFS_IOC_SNAP_CREATE_V2, 1, name[0], name[1]);
}

/*
 * ocfs2 OCFS2_IOC_REFLINK (fs/ocfs2/ocfs2_ioctl.h, not a UAPI header): a
 * reflink of OLD named NEW, both relative to DIR, by ioctl on DIR.
 */
struct ocfs2_reflink_arguments {
	uint64_t old_path;
	uint64_t new_path;
	uint64_t preserve;
};

#define OCFS2_IOC_REFLINK _IOW('o', 4, struct ocfs2_reflink_arguments)

static int op_reflink(char **name)
{
	struct ocfs2_reflink_arguments args = {
		.old_path = (uintptr_t)name[0],
		.new_path = (uintptr_t)name[1],
	};
	int dir, err = 0;

	dir = open(".", O_RDONLY | O_DIRECTORY);
	if (dir < 0)
		return errno;
	if (ioctl(dir, OCFS2_IOC_REFLINK, &args) < 0)
		err = errno;
	close(dir);
	return err;
}

/* Existing names.  O_NONBLOCK: opening a FIFO must not hang. */
static int op_open(char **name)
{
	return closed(open(name[0], O_RDONLY | O_NONBLOCK));
}

static int op_stat(char **name)
{
	struct stat st;

	return result(lstat(name[0], &st));
}

static int op_unlink(char **name)
{
	return result(unlink(name[0]));
}

static int op_rmdir(char **name)
{
	return result(rmdir(name[0]));
}

static void print_hex(const char *bytes, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		printf("%02x", (unsigned char)bytes[k]);
	putchar('\n');
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* readdir: every entry but . and .. as hex, one per line, sorted. */
static int op_readdir(char **name)
{
	DIR *dir = opendir(".");
	struct dirent *entry;
	char **hex = NULL, **more;
	size_t count = 0, k, n;

	(void)name;
	if (!dir)
		return errno;
	for (errno = 0; (entry = readdir(dir)); errno = 0) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		more = realloc(hex, (count + 1) * sizeof(*hex));
		if (!more) {
			perror("fs_op");
			exit(1);
		}
		hex = more;
		n = strlen(entry->d_name);
		hex[count] = malloc(2 * n + 1);
		if (!hex[count]) {
			perror("fs_op");
			exit(1);
		}
		for (k = 0; k < n; k++)
			sprintf(hex[count] + 2 * k, "%02x",
				(unsigned char)entry->d_name[k]);
		hex[count][2 * n] = '\0';
		count++;
	}
	if (errno) {
		int err = errno;

		closedir(dir);
		return err;
	}
	closedir(dir);
	qsort(hex, count, sizeof(*hex), compare_strings);
	for (k = 0; k < count; k++)
		printf("%s\n", hex[k]);
	return 0;
}

/* readlink: the target as hex. */
static int op_readlink(char **name)
{
	char target[4096];
	ssize_t len = readlink(name[0], target, sizeof(target));

	if (len < 0)
		return errno;
	print_hex(target, (size_t)len);
	return 0;
}

/* write NAME TEXT: replace the contents of an existing file. */
static int op_write(char **name)
{
	int fd = open(name[0], O_WRONLY | O_TRUNC);
	size_t len = strlen(name[1]);
	ssize_t done;

	if (fd < 0)
		return errno;
	done = write(fd, name[1], len);
	if (done < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	close(fd);
	return (size_t)done == len ? 0 : EIO;
}

/* append NAME TEXT: add to an existing file (overlayfs copies it up). */
static int op_append(char **name)
{
	int fd = open(name[0], O_WRONLY | O_APPEND);
	size_t len = strlen(name[1]);
	ssize_t done;

	if (fd < 0)
		return errno;
	done = write(fd, name[1], len);
	close(fd);
	if (done < 0)
		return errno;
	return (size_t)done == len ? 0 : EIO;
}

/* read NAME: print the contents (up to 64 KiB) as they are. */
static int op_read(char **name)
{
	static char buf[1 << 16];
	int fd = open(name[0], O_RDONLY | O_NONBLOCK);
	ssize_t len;

	if (fd < 0)
		return errno;
	len = read(fd, buf, sizeof(buf));
	if (len < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	close(fd);
	fwrite(buf, 1, (size_t)len, stdout);
	return 0;
}

/*
 * The same operations through io_uring (IORING_OP_OPENAT with O_CREAT,
 * _MKDIRAT, _SYMLINKAT, _LINKAT, _RENAMEAT), relative to DIR.
 */
static int uring_result(struct io_uring_sqe *sqe)
{
	int res = uring_run(sqe);

	if (res >= 0 && sqe->opcode == IORING_OP_OPENAT)
		close(res);
	return res < 0 ? -res : 0;
}

static int op_uring_create(char **name)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.fd = AT_FDCWD,
		.addr = (uintptr_t)name[0],
		.len = 0644,
		.open_flags = O_CREAT | O_EXCL | O_WRONLY,
	};

	return uring_result(&sqe);
}

static int op_uring_mkdir(char **name)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_MKDIRAT,
		.fd = AT_FDCWD,
		.addr = (uintptr_t)name[0],
		.len = 0755,
	};

	return uring_result(&sqe);
}

/* IORING_OP_BIND, from 6.11: not in Debian 12's uapi headers. */
#define FS_OP_IORING_OP_BIND 56

static int op_uring_bind(char **name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct io_uring_sqe sqe = {
		.opcode = FS_OP_IORING_OP_BIND,
		.addr = (uintptr_t)&addr,
		.addr2 = sizeof(addr),
	};
	int err;

	if (strlen(name[0]) >= sizeof(addr.sun_path))
		return ENAMETOOLONG;
	strcpy(addr.sun_path, name[0]);
	sqe.fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (sqe.fd < 0)
		return errno;
	err = uring_result(&sqe);
	close(sqe.fd);
	return err;
}

static int op_uring_symlink(char **name)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_SYMLINKAT,
		.fd = AT_FDCWD,
		.addr = (uintptr_t)name[1],
		.addr2 = (uintptr_t)name[0],
	};

	return uring_result(&sqe);
}

static int op_uring_link(char **name)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_LINKAT,
		.fd = AT_FDCWD,
		.addr = (uintptr_t)name[0],
		.len = (uint32_t)AT_FDCWD,
		.addr2 = (uintptr_t)name[1],
	};

	return uring_result(&sqe);
}

static int op_uring_rename(char **name)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_RENAMEAT,
		.fd = AT_FDCWD,
		.addr = (uintptr_t)name[0],
		.len = (uint32_t)AT_FDCWD,
		.addr2 = (uintptr_t)name[1],
	};

	return uring_result(&sqe);
}

/* sleep MS: let time pass in a chain (RCU frees dentries after a while). */
static int op_sleep(char **arg)
{
	usleep((useconds_t)strtoul(arg[0], NULL, 10) * 1000);
	return 0;
}

/*
 * lease HEX: take a write lease on an existing file (its owner may), print
 * "ok", and hold it until killed: whoever opens the file meanwhile waits
 * in break_lease() for /proc/sys/fs/lease-break-time.
 */
/* A core dump named by the process name (core_pattern %e): @name. */
static int op_crash(char **name)
{
	prctl(PR_SET_NAME, name[0], 0, 0, 0);
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return errno ? errno : EINVAL;
}

static int op_lease(char **name)
{
	int fd;

	signal(SIGIO, SIG_IGN);	/* a lease break's signal: stay */
	fd = open(name[0], O_RDONLY);
	if (fd < 0)
		return errno;
	if (fcntl(fd, F_SETLEASE, F_WRLCK) < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	printf("ok\n");
	fflush(stdout);
	for (;;)
		pause();
}

enum { HEX, TEXT };

static const struct operation {
	const char *name;
	int (*run)(char **name);
	int nargs;		/* arguments after DIR */
	int args[2];		/* HEX or TEXT, for each */
	int prints;		/* prints its result instead of "ok" */
	const char *help;
} operations[] = {
	{ "create", op_create, 1, { HEX }, 0, "HEX  open(O_CREAT|O_EXCL)" },
	{ "open-creat", op_open_creat, 1, { HEX }, 0, "HEX  open(O_CREAT)" },
	{ "creat", op_creat, 1, { HEX }, 0, "HEX  creat()" },
	{ "mknod-reg", op_mknod_reg, 1, { HEX }, 0, "HEX  mknod(S_IFREG)" },
	{ "mknod-fifo", op_mknod_fifo, 1, { HEX }, 0, "HEX  mknod(S_IFIFO)" },
	{ "mknod-chr", op_mknod_chr, 1, { HEX }, 0, "HEX  mknod(S_IFCHR, 1:3)" },
	{ "mknod-blk", op_mknod_blk, 1, { HEX }, 0, "HEX  mknod(S_IFBLK, 7:0)" },
	{ "mknod-sock", op_mknod_sock, 1, { HEX }, 0, "HEX  mknod(S_IFSOCK)" },
	{ "bind", op_bind, 1, { HEX }, 0, "HEX  bind() an AF_UNIX socket" },
	{ "mkdir", op_mkdir, 1, { HEX }, 0, "HEX" },
	{ "symlink", op_symlink, 2, { HEX, HEX }, 0, "HEX TARGETHEX" },
	{ "link", op_link, 2, { HEX, HEX }, 0, "OLDHEX NEWHEX" },
	{ "tmpfile-link", op_tmpfile_link, 1, { HEX }, 0,
	  "NEWHEX  open(O_TMPFILE), linkat(AT_EMPTY_PATH)" },
	{ "rename", op_rename, 2, { HEX, HEX }, 0, "OLDHEX NEWHEX" },
	{ "rename-noreplace", op_rename_noreplace, 2, { HEX, HEX }, 0,
	  "OLDHEX NEWHEX" },
	{ "rename-whiteout", op_rename_whiteout, 2, { HEX, HEX }, 0,
	  "OLDHEX NEWHEX" },
	{ "rename-exchange", op_rename_exchange, 2, { HEX, HEX }, 0,
	  "HEX1 HEX2" },
	{ "uring-create", op_uring_create, 1, { HEX }, 0,
	  "HEX  io_uring IORING_OP_OPENAT, O_CREAT|O_EXCL" },
	{ "uring-mkdir", op_uring_mkdir, 1, { HEX }, 0,
	  "HEX  io_uring IORING_OP_MKDIRAT" },
	{ "uring-bind", op_uring_bind, 1, { HEX }, 0,
	  "HEX  io_uring IORING_OP_BIND of an AF_UNIX socket (6.11+)" },
	{ "uring-symlink", op_uring_symlink, 2, { HEX, HEX }, 0,
	  "HEX TARGETHEX  io_uring IORING_OP_SYMLINKAT" },
	{ "uring-link", op_uring_link, 2, { HEX, HEX }, 0,
	  "OLDHEX NEWHEX  io_uring IORING_OP_LINKAT" },
	{ "uring-rename", op_uring_rename, 2, { HEX, HEX }, 0,
	  "OLDHEX NEWHEX  io_uring IORING_OP_RENAMEAT" },
	{ "subvol", op_subvol, 1, { HEX }, 0,
	  "HEX  btrfs BTRFS_IOC_SUBVOL_CREATE in DIR" },
	{ "subvol-v2", op_subvol_v2, 1, { HEX }, 0,
	  "HEX  btrfs BTRFS_IOC_SUBVOL_CREATE_V2" },
	{ "snapshot", op_snapshot, 2, { HEX, HEX }, 0,
	  "SRCHEX NEWHEX  btrfs BTRFS_IOC_SNAP_CREATE of subvolume SRC" },
	{ "snapshot-v2", op_snapshot_v2, 2, { HEX, HEX }, 0,
	  "SRCHEX NEWHEX  btrfs BTRFS_IOC_SNAP_CREATE_V2" },
	{ "reflink", op_reflink, 2, { HEX, HEX }, 0,
	  "OLDHEX NEWHEX  ocfs2 OCFS2_IOC_REFLINK" },
	{ "open", op_open, 1, { HEX }, 0, "HEX  open(O_RDONLY) an existing name" },
	{ "stat", op_stat, 1, { HEX }, 0, "HEX  lstat()" },
	{ "readdir", op_readdir, 0, { 0 }, 1,
	  "     prints each entry as hex, sorted" },
	{ "readlink", op_readlink, 1, { HEX }, 1, "HEX  prints the target as hex" },
	{ "unlink", op_unlink, 1, { HEX }, 0, "HEX" },
	{ "rmdir", op_rmdir, 1, { HEX }, 0, "HEX" },
	{ "write", op_write, 2, { HEX, TEXT }, 0,
	  "HEX TEXT  replace the contents of an existing file" },
	{ "append", op_append, 2, { HEX, TEXT }, 0,
	  "HEX TEXT  add to the end of an existing file" },
	{ "read", op_read, 1, { HEX }, 1, "HEX  prints the contents" },
	{ "sleep", op_sleep, 1, { TEXT }, 0, "MS  sleep MS milliseconds" },
	{ "crash", op_crash, 1, { HEX }, 0,
	  "HEX  take that process name (15 bytes at most), dump core" },
	{ "lease", op_lease, 1, { HEX }, 0,
	  "HEX  hold a write lease on an existing file until killed" },
};

static void usage(const char *why)
{
	size_t k;

	if (why)
		fprintf(stderr, "fs_op: %s\n", why);
	fprintf(stderr, "usage: fs_op [--as-uid UID] [--uring-personality] [--ioctl-pause MS] OPERATION DIR [ARG...] [-- OPERATION DIR [ARG...]]...\n");
	for (k = 0; k < ARRAY_SIZE(operations); k++)
		fprintf(stderr, "  fs_op %-16s DIR %s\n", operations[k].name,
			operations[k].help);
	fprintf(stderr,
		"HEX: the bytes of a name (no 00), e.g. c0ae2e; DIR is entered first.\n"
		"Prints \"ok\" or the errno name; exit 0 if the operation was attempted.\n"
		"--as-uid: drop to that uid and gid, with no groups, first.\n"
		"--uring-personality: io_uring operations run under a registered\n"
		"  personality (their credentials overridden by the kernel).\n"
		"Operations separated by -- run in order in one process, a line each.\n");
	exit(2);
}

/*
 * One operation: argv[0] is its name, argv[1] DIR, then its arguments;
 * argc counts them.  Returns main()'s exit status.
 */
static int run_one(int argc, char **argv)
{
	const struct operation *op = NULL;
	char *arg[2];
	unsigned char *bytes;
	const char *error;
	size_t k, len, where;
	int err;

	if (argc < 2)
		usage(NULL);
	for (k = 0; k < ARRAY_SIZE(operations); k++)
		if (!strcmp(argv[0], operations[k].name))
			op = &operations[k];
	if (!op)
		usage("unknown operation");
	if (argc != 2 + op->nargs)
		usage("wrong number of arguments");
	for (k = 0; k < (size_t)op->nargs; k++) {
		const char *text = argv[2 + k];

		if (op->args[k] == TEXT) {
			arg[k] = argv[2 + k];
			continue;
		}
		bytes = hex_parse(text, &len, &error, &where);
		if (!bytes) {
			fprintf(stderr, "fs_op: %s: %s at %zu\n", text, error,
				where);
			usage(NULL);
		}
		if (memchr(bytes, '\0', len))
			usage("a name cannot hold a 00 byte");
		arg[k] = calloc(1, len + 1);
		if (!arg[k]) {
			perror("fs_op");
			return 1;
		}
		memcpy(arg[k], bytes, len);
		free(bytes);
	}
	if (chdir(argv[1]) < 0) {
		/* On stdout too: an empty listing must not look like this. */
		printf("%s\n", errno_name(errno));
		fprintf(stderr, "fs_op: cannot enter %s\n", argv[1]);
		return 1;
	}
	err = op->run(arg);
	if (err)
		printf("%s\n", errno_name(err));
	else if (!op->prints)
		printf("ok\n");
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	int first, k, status = 0;

	if (argc > 2 && !strcmp(argv[1], "--as-uid")) {
		uid_t uid = (uid_t)strtoul(argv[2], NULL, 10);

		if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
			perror("fs_op: --as-uid");
			return 1;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strcmp(argv[1], "--uring-personality")) {
		uring_personality = 1;
		argv++;
		argc--;
	}
	if (argc > 2 && !strcmp(argv[1], "--ioctl-pause")) {
		ioctl_pause_ms = strtoul(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	/* OP DIR ARG... [-- OP DIR ARG...]...: one process, in order. */
	for (first = k = 1; k <= argc && !status; k++) {
		if (k < argc && strcmp(argv[k], "--"))
			continue;
		status = run_one(k - first, argv + first);
		first = k + 1;
	}
	return status;
}
