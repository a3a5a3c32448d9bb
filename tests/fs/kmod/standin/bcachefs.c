// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for bcachefs.ko, for fs_bcachefs_test.sh.  Debian's bookworm
 * archive has no mkfs.bcachefs, so no real bcachefs can be made for the
 * tests.  This module has the same name, so utf8guard_fs.ko probes it as
 * it probes bcachefs.ko, and it makes a directory the way
 * bch2_ioctl_subvolume_create() (fs/bcachefs/fs-ioctl.c, 6.12) makes a
 * subvolume: user_path_create(), security_path_mkdir() called from its own
 * code, then the filesystem's mkdir with no security_inode_mkdir().
 *
 * Writing a path to /proc/utf8guard_subvolume makes that directory, on any
 * filesystem; the write fails with the error of either step.  The file is
 * root's; the test opens it to other users with chmod, as an ioctl on a
 * bcachefs directory is open to whoever may write there.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"

#define STANDIN_PATH_MAX 256

static int make_subvolume(const char *name)
{
	struct path parent;
	struct dentry *dentry;
	struct inode *dir;
	int err;

	dentry = kern_path_create(AT_FDCWD, name, &parent, 0);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	dir = d_inode(parent.dentry);
	err = security_path_mkdir(&parent, dentry, 0755);
	if (!err)
		err = dir->i_op->mkdir ?
		      dir->i_op->mkdir(UTF8GUARD_NOP_IDMAP, dir, dentry, 0755) :
		      -EPERM;
	done_path_create(&parent, dentry);
	return err;
}

static ssize_t subvolume_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char *name;
	int err;

	if (!len || len >= STANDIN_PATH_MAX)
		return -EINVAL;
	name = memdup_user_nul(ubuf, len);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = make_subvolume(name);
	kfree(name);
	return err ? err : len;
}

static const struct proc_ops subvolume_ops = {
	.proc_write = subvolume_write,
};

static struct proc_dir_entry *subvolume_entry;

static int __init standin_init(void)
{
	subvolume_entry = proc_create("utf8guard_subvolume", 0200, NULL,
				      &subvolume_ops);
	return subvolume_entry ? 0 : -ENOMEM;
}

static void __exit standin_exit(void)
{
	proc_remove(subvolume_entry);
}

module_init(standin_init);
module_exit(standin_exit);
MODULE_DESCRIPTION("utf8guard test: a stand-in for bcachefs subvolume creation");
MODULE_LICENSE("GPL");
