// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs subvolumes and snapshots: btrfs_mksubvol() passes none of the
 * security_inode_*() hooks, and BTRFS_IOC_SUBVOL_CREATE, _SNAP_CREATE and
 * their _V2 forms, which all reach it, need no capability.  Probed while
 * btrfs.ko is loaded (module_probes.c).
 */
#include <linux/dcache.h>
#include <linux/fscrypt.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>

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

/* Probe handlers run with preemption off: a buffer per CPU is theirs. */
static DEFINE_PER_CPU(char [KSYM_SYMBOL_LEN], caller_symbol);

/* Whether @addr is in btrfs_mksubvol() (or a copy the compiler made). */
static bool in_mksubvol(unsigned long addr)
{
	char *symbol = this_cpu_ptr(caller_symbol);
	static const char mksubvol[] = "btrfs_mksubvol";

	sprint_symbol_no_offset(symbol, addr);
	return !strncmp(symbol, mksubvol, sizeof(mksubvol) - 1) &&
	       (symbol[sizeof(mksubvol) - 1] == '.' ||
		symbol[sizeof(mksubvol) - 1] == ' ' ||
		!symbol[sizeof(mksubvol) - 1]);
}

/*
 * int btrfs_check_dir_item_collision(struct btrfs_root *root, u64 dir,
 *				      const struct fscrypt_str *name);
 * (6.2, and Debian's 6.1.192; 6.1.0: const char *name, int name_len.)
 * btrfs_mksubvol() calls it once it holds its parent directory's lock,
 * which fs_btrfs_mksubvol() runs before: a subvolume or snapshot ioctl
 * judged under laxer settings could wait there for as long as another
 * task holds that directory (review round 12, finding 3) and make its
 * name after an admin tightened them.  So its name is judged again here,
 * in enforce, under the settings of the moment (counted as a subvolume's
 * if refused: the two cannot be told apart here).  btrfs_rename() and
 * btrfs_create_new_inode() call it too: the hooks judge those names.
 */
int fs_btrfs_collision(struct kprobe *p, struct pt_regs *regs)
{
	const void *arg = (const void *)regs_get_kernel_argument(regs, 2);
	const struct fscrypt_str *name = arg;
	unsigned long ret = regs_get_kernel_stack_nth(regs, 0);
	int len;

	/* A caller a return hook hides may be btrfs_mksubvol() (refuse.c). */
	if (!in_mksubvol(ret) && !fs_probe_caller_hidden(ret, p))
		return 0;
	/* btrfs_mksubvol() builds its struct fscrypt_str on its stack. */
	if (object_is_on_stack(arg))
		return fs_probe_refuse(regs,
				       fs_recheck_bytes(FS_OP_SUBVOL, "btrfs",
							name->name,
							name->len));
	len = (int)regs_get_kernel_argument(regs, 3);
	if (len < 0)
		return 0;
	return fs_probe_refuse(regs, fs_recheck_bytes(FS_OP_SUBVOL, "btrfs",
						      arg, len));
}
