// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs subvolumes and snapshots: btrfs_mksubvol() passes none of the
 * security_inode_*() hooks, and BTRFS_IOC_SUBVOL_CREATE, _SNAP_CREATE and
 * their _V2 forms, which all reach it, need no capability.  Probed while
 * btrfs.ko is loaded (module_probes.c).
 */
#include <linux/dcache.h>
#include <linux/kprobes.h>
#include <linux/path.h>
#include <linux/ptrace.h>

#include "fs_hook.h"

/*
 * static noinline int btrfs_mksubvol(const struct path *parent,
 *				      struct mnt_idmap *idmap,
 *				      const char *name, int namelen,
 *				      struct btrfs_root *snap_src,
 *				      bool readonly);
 * (6.1: struct user_namespace *mnt_userns.)  name is a kernel copy;
 * snap_src is NULL for a new subvolume.  Nothing is locked or allocated
 * yet at its entry, so a refusal there only unwinds the ioctl.
 */
int fs_btrfs_mksubvol(struct kprobe *p, struct pt_regs *regs)
{
	const struct path *parent =
		(const struct path *)regs_get_kernel_argument(regs, 0);
	const u8 *name = (const u8 *)regs_get_kernel_argument(regs, 2);
	int namelen = (int)regs_get_kernel_argument(regs, 3);
	bool snapshot = regs_get_kernel_argument(regs, 4) != 0;

	if (namelen < 0)
		return 0;
	return fs_probe_check_name(regs,
				   snapshot ? FS_OP_SNAPSHOT : FS_OP_SUBVOL,
				   parent->dentry->d_sb, name, namelen);
}
