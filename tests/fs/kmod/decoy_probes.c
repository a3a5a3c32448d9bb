// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_fs_decoy.ko: utf8guard_fs.ko whose mkdir probe sits on a
 * function of its own that nothing calls, as when a kernel built with LTO
 * inlines security_inode_mkdir() into vfs_mkdir(): the probe registers
 * and is armed, yet mkdir(2) never reaches it.  The self-test's
 * vfs_mkdir() gets through, so the module must refuse to load and say
 * that mkdir is not in effect.
 */
#define FS_PROBE_MKDIR_SYMBOL "utf8guard_fs_decoy_mkdir"
#include "fs/probes.c"

noinline int utf8guard_fs_decoy_mkdir(struct inode *dir, struct dentry *dentry,
				      umode_t mode);
noinline int utf8guard_fs_decoy_mkdir(struct inode *dir, struct dentry *dentry,
				      umode_t mode)
{
	return 0;
}
