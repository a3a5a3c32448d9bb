/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking a directory tree for `utf8guardctl scan`: never follows a
 * symlink, optionally never crosses a mount point, and holds one open
 * directory and one small read buffer per level: memory and file
 * descriptors grow with the depth of the tree, never with the number of
 * entries.  Paths of any length (openat() from the parent, not a path).
 */
#ifndef UTF8GUARDCTL_TREE_WALK_H
#define UTF8GUARDCTL_TREE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct walk_entry {
	const char *path;		/* ROOT/.../NAME, NUL-terminated */
	size_t path_len;
	const unsigned char *name;	/* the last component */
	size_t name_len;
	unsigned char type;		/* DT_DIR, DT_LNK, DT_REG, ... */
	int dir_fd;			/* the directory holding NAME */
	dev_t dir_dev;			/* its st_dev: its filesystem */
};

struct walk_options {
	bool xdev;		/* stay on the root's mount */
	/* Called for every entry below the root (not the root itself). */
	void (*entry)(const struct walk_entry *entry, void *arg);
	/* Called when a directory cannot be read (@err a positive errno). */
	void (*warning)(const char *path, size_t len, const char *what,
			int err, void *arg);
	/* Called for a mount point not crossed (may be NULL). */
	void (*mount_skipped)(const char *path, size_t len, void *arg);
	void *arg;
};

/*
 * Walk the tree under @root (a symlink given as the root is followed).
 * Returns 0, or a negative errno if @root itself cannot be opened.
 */
int tree_walk(const char *root, const struct walk_options *options);

#endif /* UTF8GUARDCTL_TREE_WALK_H */
