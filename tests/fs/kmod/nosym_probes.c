// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_fs_nosym.ko: utf8guard_fs.ko whose last probe, on
 * security_inode_rename, names a symbol that no kernel has, as on a kernel
 * where that function is missing or was renamed.  The first five probes
 * register, the sixth fails with -ENOENT: the module must unregister the
 * five, refuse to load and say which symbol is missing.
 */
#define FS_PROBE_RENAME_SYMBOL "utf8guard_no_such_symbol"
#include "fs/probes.c"
