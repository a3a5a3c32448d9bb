// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_fs.ko: refuse new file names that are ill-formed UTF-8 or path
 * tricks, on the running (stock) kernel, with -EILSEQ.
 *
 * The names are checked by utf8guard.ko under its mode and policy; this
 * module hooks the operations that create names (probes.c) and adds the
 * fs/ settings and counters to /sys/kernel/utf8guard.
 */

#include <linux/module.h>

#include "compat.h"
#include "fs_hook.h"
#include "hook_kit.h"
#include "utf8guard_version.h"

static int __init utf8guard_fs_init(void)
{
	char fstypes[FS_FSTYPES_TEXT_MAX];
	int ret;

	ret = utf8guard_kit_stats_init(&fs_stats);
	if (ret)
		return ret;
	ret = fs_scope_init();
	if (ret)
		goto counters_exit;
	/* A bad mounts= or exempt= comes after others: free what was applied. */
	ret = fs_settings_init();
	if (ret)
		goto settings_exit;
	fs_overlay_init();
	ret = fs_probes_init();
	if (ret)
		goto settings_exit;
	ret = fs_idle_init();
	if (ret)
		goto probes_exit;
	ret = utf8guard_kit_attach(&fs_kit, utf8guard_kobject(), THIS_MODULE);
	if (ret)
		goto idle_exit;
	fs_format_fstypes(fstypes, sizeof(fstypes));
	pr_info("%s hooked create mkdir mknod symlink link rename (%u %s); enabled %d, fstypes %s, check_symlink_target %d\n",
		UTF8GUARD_VERSION, fs_probes_count(), fs_probes_kind(),
		fs_enabled(), fstypes, fs_check_symlink_target());
	return 0;

idle_exit:
	fs_idle_exit();
probes_exit:
	fs_probes_exit();
settings_exit:
	fs_settings_exit();
	fs_exempt_exit();
	fs_scope_exit();
counters_exit:
	utf8guard_kit_stats_destroy(&fs_stats);
	return ret;
}

static void __exit utf8guard_fs_exit(void)
{
	utf8guard_kit_detach(&fs_kit, THIS_MODULE);
	fs_idle_exit();
	fs_probes_exit();
	fs_settings_exit();
	fs_exempt_exit();
	fs_scope_exit();
	utf8guard_kit_stats_destroy(&fs_stats);
	pr_info("unloaded: new names are no longer checked\n");
}

module_init(utf8guard_fs_init);
module_exit(utf8guard_fs_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(UTF8GUARD_VERSION);
MODULE_DESCRIPTION("Refuse new file names that are ill-formed UTF-8 or path tricks (EILSEQ)");
MODULE_AUTHOR("utf8guard developers");
