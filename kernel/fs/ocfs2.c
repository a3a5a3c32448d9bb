// SPDX-License-Identifier: GPL-2.0
/*
 * ocfs2 reflinks: OCFS2_IOC_REFLINK makes a new name with none of the
 * security_inode_*() hooks (ocfs2_vfs_reflink() checks permissions with its
 * own copy of may_create()) and needs no capability.  Probed while ocfs2.ko
 * is loaded (module_probes.c).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>

#include "fs_hook.h"

/*
 * static int ocfs2_reflink(struct dentry *old_dentry, struct inode *dir,
 *			    struct dentry *new_dentry, bool preserve);
 * Its only caller, ocfs2_vfs_reflink(), holds the source's inode lock and
 * has only initialised quotas; given an error, it unlocks and returns it,
 * with nothing created and nothing to undo.
 */
int fs_ocfs2_reflink(struct kprobe *p, struct pt_regs *regs)
{
	const struct inode *dir =
		(const struct inode *)regs_get_kernel_argument(regs, 1);
	const struct dentry *new_dentry =
		(const struct dentry *)regs_get_kernel_argument(regs, 2);

	return fs_probe_check_name(regs, FS_OP_REFLINK, dir->i_sb,
				   new_dentry->d_name.name,
				   new_dentry->d_name.len);
}
