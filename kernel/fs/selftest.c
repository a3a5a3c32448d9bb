// SPDX-License-Identifier: GPL-2.0
/*
 * The end-to-end self-test: each hooked operation run for real, through
 * vfs_create(), vfs_mkdir(), vfs_mknod(), vfs_symlink(), vfs_link() and
 * vfs_rename(), on a private tmpfs instance (kern_mount(): in no mount
 * namespace, so no process can reach it).  The new name is a canary
 * dentry the probe handlers recognise: with the hook in effect, the call
 * returns FS_CANARY_RESULT and nothing is created.  A hook that the
 * kernel skips (a probed function inlined into its caller by LTO, a
 * caller that no longer calls it, kprobes disarmed) lets the call create
 * the name: that operation counts as unhooked, and the instance is
 * replaced before the next test.
 *
 * Runs in a kworker (kernel credentials, no user's filesystem context),
 * under probes.c's health_mutex.
 */

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "compat.h"
#include "fs_hook.h"

#define CANARY_NAME	"utf8guard-canary"
#define SOURCE_NAME	"utf8guard-source"

static struct vfsmount *private_mnt;
/* The source of link and rename, a regular file in private_mnt. */
static struct dentry *source;
/* An operation got through: replace the instance before the next test. */
static bool spoiled;

/* The canary: set while an operation on it runs (probes.c reads it). */
struct fs_canary fs_canary;

static int mount_private(void)
{
	struct file_system_type *tmpfs = get_fs_type("tmpfs");
	struct dentry *root;
	int ret;

	if (!tmpfs)
		return -ENODEV;
	private_mnt = kern_mount(tmpfs);
	module_put(tmpfs->owner);
	if (IS_ERR(private_mnt)) {
		ret = PTR_ERR(private_mnt);
		private_mnt = NULL;
		return ret;
	}
	/* Made by this task, which the handlers let through unchecked. */
	root = private_mnt->mnt_root;
	WRITE_ONCE(fs_canary.task, current);
	inode_lock_nested(d_inode(root), I_MUTEX_PARENT);
	source = lookup_one_len(SOURCE_NAME, root, strlen(SOURCE_NAME));
	ret = PTR_ERR_OR_ZERO(source);
	if (!ret)
		ret = vfs_create(UTF8GUARD_NOP_IDMAP, d_inode(root),
				 source, S_IFREG | 0600, true);
	inode_unlock(d_inode(root));
	WRITE_ONCE(fs_canary.task, NULL);
	if (ret) {
		if (!IS_ERR(source))
			dput(source);
		source = NULL;
		kern_unmount(private_mnt);
		private_mnt = NULL;
	}
	spoiled = false;
	return ret;
}

static void unmount_private(void)
{
	if (!private_mnt)
		return;
	dput(source);
	source = NULL;
	kern_unmount(private_mnt);
	private_mnt = NULL;
}

/* One operation on the canary; FS_CANARY_RESULT if the hook stopped it. */
static int run_op(enum fs_probe probe)
{
	struct dentry *root = private_mnt->mnt_root;
	struct inode *dir = d_inode(root);
	struct dentry *canary;
	int ret;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	canary = lookup_one_len(CANARY_NAME, root, strlen(CANARY_NAME));
	if (IS_ERR(canary)) {
		inode_unlock(dir);
		return PTR_ERR(canary);
	}
	WRITE_ONCE(fs_canary.dentry, canary);
	switch (probe) {
	case FS_PROBE_CREATE:
		ret = vfs_create(UTF8GUARD_NOP_IDMAP, dir, canary,
				 S_IFREG | 0600, true);
		break;
	case FS_PROBE_MKDIR:
		ret = vfs_mkdir(UTF8GUARD_NOP_IDMAP, dir, canary, 0700);
		break;
	case FS_PROBE_MKNOD:
		ret = vfs_mknod(UTF8GUARD_NOP_IDMAP, dir, canary,
				S_IFIFO | 0600, 0);
		break;
	case FS_PROBE_SYMLINK:
		ret = vfs_symlink(UTF8GUARD_NOP_IDMAP, dir, canary, "t");
		break;
	case FS_PROBE_LINK:
		ret = vfs_link(source, UTF8GUARD_NOP_IDMAP, dir, canary, NULL);
		break;
	case FS_PROBE_RENAME: {
		/* The parent's lock is lock_rename() for one directory. */
		struct renamedata rd = {
			UTF8GUARD_RENAME_IDMAPS(UTF8GUARD_NOP_IDMAP),
			.old_dir = dir,
			.old_dentry = source,
			.new_dir = dir,
			.new_dentry = canary,
		};

		ret = vfs_rename(&rd);
		break;
	}
	default:
		ret = -EINVAL;
		break;
	}
	WRITE_ONCE(fs_canary.dentry, NULL);
	if (ret != FS_CANARY_RESULT)
		spoiled = true;
	dput(canary);
	inode_unlock(dir);
	return ret;
}

/**
 * fs_selftest_vfs() - run each hooked operation through the VFS
 * @through: set to the operations (bits of enum fs_probe) the hook did
 *	not stop
 *
 * Context: process context, kernel credentials; may sleep.
 *
 * Return: 0, or an error if the private instance cannot be mounted (then
 * @unhooked is every operation).
 */
int fs_selftest_vfs(unsigned long *through)
{
	unsigned int k;
	int ret = 0;

	*through = 0;
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		/* A name that got through: a fresh instance for the next. */
		if (spoiled)
			unmount_private();
		if (!private_mnt)
			ret = mount_private();
		if (ret) {
			*through = BIT(FS_PROBE_COUNT) - 1;
			return ret;
		}
		WRITE_ONCE(fs_canary.task, current);
		if (run_op(k) != FS_CANARY_RESULT)
			*through |= BIT(k);
		WRITE_ONCE(fs_canary.task, NULL);
	}
	return 0;
}

/* At unload, after the probes are gone. */
void fs_selftest_exit(void)
{
	unmount_private();
}
