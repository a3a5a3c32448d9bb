// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a directory tree with an explicit stack of open directories
 * (openat + getdents64), one frame per level.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include "compiler.h"
#include "tree_walk.h"

/* getdents64() buffer per level: about 100 short names per call. */
#define FRAME_BUFFER 4096

struct frame {
	struct frame *parent;
	int fd;
	dev_t dev;		/* its st_dev */
	size_t path_len;	/* length of this directory's path */
	size_t pos, len;	/* unread entries in buf */
	union {
		struct dirent64 first;
		char bytes[FRAME_BUFFER];
	} buf;
};

struct walk {
	const struct walk_options *options;
	char *path;
	size_t path_capacity;
	dev_t dev;
	uint64_t mnt_id;
	bool have_mnt_id;
};

static int path_set_length(struct walk *walk, size_t len)
{
	if (len + 1 > walk->path_capacity) {
		size_t capacity = 2 * (len + 1) + 256;
		char *more = realloc(walk->path, capacity);

		if (!more)
			return -ENOMEM;
		walk->path = more;
		walk->path_capacity = capacity;
	}
	return 0;
}

static int path_append(struct walk *walk, size_t at, const char *name,
		       size_t len)
{
	int err = path_set_length(walk, at + 1 + len);

	if (err)
		return err;
	walk->path[at] = '/';
	memcpy(walk->path + at + 1, name, len);
	walk->path[at + 1 + len] = '\0';
	return 0;
}

/*
 * The mount of @fd: st_dev (unless @dev is NULL), and the mount id where
 * the kernel has it.
 */
static void mount_of(int fd, dev_t *dev, uint64_t *mnt_id, bool *have)
{
	struct statx stx;
	struct stat st;

	*have = false;
	if (dev && fstat(fd, &st) == 0)
		*dev = st.st_dev;
#ifdef STATX_MNT_ID
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 &&
	    (stx.stx_mask & STATX_MNT_ID)) {
		*mnt_id = stx.stx_mnt_id;
		*have = true;
	}
#else
	(void)stx;
#endif
}

/* Whether @fd, on the filesystem @dev, is on another mount than the root. */
static bool other_mount(struct walk *walk, int fd, dev_t dev)
{
	uint64_t mnt_id = 0;
	bool have;

	if (dev != walk->dev)
		return true;
	mount_of(fd, NULL, &mnt_id, &have);
	return have && walk->have_mnt_id && mnt_id != walk->mnt_id;
}

static struct frame *push(struct frame *parent, int fd, dev_t dev,
			  size_t path_len)
{
	struct frame *frame = malloc(sizeof(*frame));

	if (!frame)
		return NULL;
	frame->parent = parent;
	frame->fd = fd;
	frame->dev = dev;
	frame->path_len = path_len;
	frame->pos = 0;
	frame->len = 0;
	return frame;
}

static struct frame *pop(struct frame *frame)
{
	struct frame *parent = frame->parent;

	close(frame->fd);
	free(frame);
	return parent;
}

/* Enough descriptors for deep trees: one per level. */
static void raise_fd_limit(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
	    limit.rlim_cur < limit.rlim_max) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
}

static void descend(struct walk *walk, struct frame **top,
		    const struct walk_entry *entry)
{
	const struct walk_options *options = walk->options;
	struct frame *frame;
	struct stat st;
	dev_t dev;
	int fd;

	fd = openat(entry->dir_fd, (const char *)entry->name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* ENOTDIR/ELOOP: replaced meanwhile; not a directory now. */
		if (errno != ENOTDIR && errno != ELOOP && errno != ENOENT)
			options->warning(entry->path, entry->path_len,
					 "cannot open directory", errno,
					 options->arg);
		return;
	}
	/* Its filesystem: a mount point's is not its parent's. */
	dev = fstat(fd, &st) == 0 ? st.st_dev : (*top)->dev;
	if (options->xdev && other_mount(walk, fd, dev)) {
		if (options->mount_skipped)
			options->mount_skipped(entry->path, entry->path_len,
					       options->arg);
		close(fd);
		return;
	}
	frame = push(*top, fd, dev, entry->path_len);
	if (!frame) {
		options->warning(entry->path, entry->path_len,
				 "out of memory entering directory", ENOMEM,
				 options->arg);
		close(fd);
		return;
	}
	*top = frame;
}

/* Handle the next entry of @top's directory; false when it is done. */
static bool next_entry(struct walk *walk, struct frame **top)
{
	const struct walk_options *options = walk->options;
	struct frame *frame = *top;
	struct walk_entry entry;
	struct dirent64 *dirent;
	struct stat st;
	size_t len;
	long got;

	if (frame->pos >= frame->len) {
		got = getdents64(frame->fd, frame->buf.bytes, FRAME_BUFFER);
		if (got < 0 && errno == EINTR)
			return true;
		if (got < 0) {
			walk->path[frame->path_len] = '\0';
			options->warning(walk->path, frame->path_len,
					 "cannot read directory", errno,
					 options->arg);
			return false;
		}
		if (got == 0)
			return false;
		frame->len = (size_t)got;
		frame->pos = 0;
	}
	dirent = (struct dirent64 *)(frame->buf.bytes + frame->pos);
	frame->pos += dirent->d_reclen;
	len = strlen(dirent->d_name);
	if ((len == 1 && dirent->d_name[0] == '.') ||
	    (len == 2 && dirent->d_name[0] == '.' && dirent->d_name[1] == '.'))
		return true;
	if (path_append(walk, frame->path_len, dirent->d_name, len)) {
		options->warning(walk->path, frame->path_len,
				 "path too long for memory", ENOMEM,
				 options->arg);
		return true;
	}
	entry.path = walk->path;
	entry.path_len = frame->path_len + 1 + len;
	entry.name = (const unsigned char *)dirent->d_name;
	entry.name_len = len;
	entry.type = dirent->d_type;
	entry.dir_fd = frame->fd;
	entry.dir_dev = frame->dev;
	if (entry.type == DT_UNKNOWN &&
	    fstatat(frame->fd, dirent->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		entry.type = S_ISDIR(st.st_mode) ? DT_DIR :
			     S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
	options->entry(&entry, options->arg);
	if (entry.type == DT_DIR)
		descend(walk, top, &entry);
	return true;
}

int tree_walk(const char *root, const struct walk_options *options)
{
	struct walk walk = { .options = options };
	struct frame *top;
	size_t len = strlen(root);
	int fd, err;

	raise_fd_limit();
	while (len > 1 && root[len - 1] == '/')
		len--;
	err = path_set_length(&walk, len);
	if (err)
		return err;
	memcpy(walk.path, root, len);
	walk.path[len] = '\0';
	if (len == 1 && root[0] == '/')
		len = 0;	/* children are "/NAME" */
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(walk.path);
		return err;
	}
	mount_of(fd, &walk.dev, &walk.mnt_id, &walk.have_mnt_id);
	top = push(NULL, fd, walk.dev, len);
	if (!top) {
		close(fd);
		free(walk.path);
		return -ENOMEM;
	}
	while (top) {
		if (!next_entry(&walk, &top))
			top = pop(top);
	}
	free(walk.path);
	return 0;
}
