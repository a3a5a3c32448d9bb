// SPDX-License-Identifier: GPL-2.0
/*
 * bcachefs subvolumes and snapshots (6.12 builds bcachefs.ko):
 * BCH_IOCTL_SUBVOLUME_CREATE passes security_path_mkdir() and then makes
 * the directory itself, with none of the security_inode_*() hooks, and
 * needs no capability.  bch2_ioctl_subvolume_create() is inlined into
 * bch2_fs_file_ioctl(), and __bch2_create() takes a structure by value, so
 * the probe sits on security_path_mkdir() and module_probes.c hands it
 * only the calls made from bcachefs.ko's own code: the one such call is
 * this ioctl's.  Probed while bcachefs.ko is loaded.
 */
#include <linux/dcache.h>
#include <linux/kprobes.h>
#include <linux/path.h>
#include <linux/ptrace.h>

#include "fs_hook.h"

/*
 * int security_path_mkdir(const struct path *dir, struct dentry *dentry,
 *			   umode_t mode);
 * The caller holds the parent's inode lock from user_path_create(); given
 * an error, it drops it (done_path_create()) with nothing created.  A
 * snapshot takes the same call as a subvolume and is counted with them.
 */
int fs_bcachefs_subvolume(struct kprobe *p, struct pt_regs *regs)
{
	const struct path *dir =
		(const struct path *)regs_get_kernel_argument(regs, 0);
	const struct dentry *dentry =
		(const struct dentry *)regs_get_kernel_argument(regs, 1);

	return fs_probe_check_name(regs, FS_OP_SUBVOL, dir->dentry->d_sb,
				   dentry->d_name.name, dentry->d_name.len);
}
