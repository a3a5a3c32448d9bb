/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for differences between kernel versions and
 * configurations: every test of LINUX_VERSION_CODE or of a kernel feature
 * lives here, so that the logic files stay free of them.  Each module's
 * main.c includes it.
 *
 * Tested every run (tests/vm/kernels.conf): Debian 12's 6.1 and the
 * bookworm-backports 6.12, generic and PREEMPT_RT flavours.  Differences
 * met so far were solved without a version test, so nothing is keyed here
 * yet:
 * - 6.12 moved task_pid_nr() to <linux/pid.h>: included where used (the
 *   header exists on 6.1 too);
 * - 6.12 removed no_llseek: the test consumer's open() is
 *   nonseekable_open(), so it needs no .llseek at all.
 * PREEMPT_RT needs nothing either: the fs hook's kprobe handlers take no
 * lock and allocate nothing (Documentation/admin-guide.rst, "Supported
 * kernels").
 */
#ifndef UTF8GUARD_COMPAT_H
#define UTF8GUARD_COMPAT_H

#include <linux/version.h>

/*
 * Older kernels were never tested, and the fs hook's return stub relies
 * on assembler macros (ANNOTATE_NOENDBR, ASM_RET) that they may lack:
 * refuse to build, with a message, rather than fail somewhere below.
 */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "utf8guard needs Linux 6.1 or later (tested: 6.1, 6.12, 6.12-rt); see Documentation/admin-guide.rst, Supported kernels"
#endif

/*
 * The id-mapping argument of vfs_create() and friends for a mount that
 * maps nothing: struct mnt_idmap since 6.3, struct user_namespace before;
 * and the matching fields of struct renamedata.
 */
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define UTF8GUARD_NOP_IDMAP		(&nop_mnt_idmap)
#define UTF8GUARD_RENAME_IDMAPS(id)	.old_mnt_idmap = (id), .new_mnt_idmap = (id)
#else
#define UTF8GUARD_NOP_IDMAP		(&init_user_ns)
#define UTF8GUARD_RENAME_IDMAPS(id)	.old_mnt_userns = (id), .new_mnt_userns = (id)
#endif

#endif /* UTF8GUARD_COMPAT_H */
