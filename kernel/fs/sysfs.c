// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/utf8guard/fs/ (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard-fs):
 *
 *	enabled			0 or 1
 *	fstypes			"*" or filesystem type names
 *	check_symlink_target	0 or 1
 *	mounts			"PATH POLICY" entries, one a line (scope.c)
 *	mounts_gone		entries removed because their filesystem went
 *	missed			hooked operations the kernel did not check
 *	unhooked		hooks not in effect right now (a self-test)
 *	stats/			checked, rejected, audited, one file per
 *				reason, reset, and <op>/{checked,rejected,
 *				audited} per operation
 *
 * The hook kit (hook_kit.h) makes them from the settings (settings.c),
 * the two status files here and the counters (counters.c).  Every store
 * checks CAP_SYS_ADMIN itself; a write that does not parse returns
 * -EINVAL and changes nothing; while utf8guard is locked, writes return
 * -EPERM.
 */
#include <linux/sysfs.h>

#include "fs_hook.h"
#include "hook_kit.h"

static ssize_t missed_show(char *buf)
{
	return sysfs_emit(buf, "%llu\n", fs_probes_missed());
}

static ssize_t unhooked_show(char *buf)
{
	return sysfs_emit(buf, "%u\n", fs_probes_unhooked());
}

static ssize_t mounts_gone_show(char *buf)
{
	return sysfs_emit(buf, "%llu\n", fs_scope_gone());
}

static struct utf8guard_kit_file status_files[] = {
	{ .name = "missed", .show = missed_show },
	{ .name = "mounts_gone", .show = mounts_gone_show },
	{ .name = "unhooked", .show = unhooked_show },
};

struct utf8guard_kit fs_kit = {
	.name = "fs",
	.settings = &fs_settings,
	.status = status_files,
	.status_count = ARRAY_SIZE(status_files),
	.stats = &fs_stats,
};
