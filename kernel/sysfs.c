// SPDX-License-Identifier: GPL-2.0
/*
 * The /sys/kernel/utf8guard/ control interface (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard):
 *
 *	mode		off audit [enforce]
 *	policy		enabled classes; a full list or +class / -class edits
 *	locked		0, or 1 once mode and policy are frozen until reboot
 *	validator	the validator paths this CPU runs: scalar [avx2]
 *	version		the module version
 *	unicode_version	the Unicode version of the character classes
 *	stats/		checked, rejected, audited, one counter per reason,
 *			and reset
 *
 * Every store checks CAP_SYS_ADMIN in the initial user namespace itself,
 * whatever the file mode says, and a write that does not parse returns
 * -EINVAL and changes nothing.
 */
#include <linux/export.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "hook_kit.h"
#include "utf8guard_unicode.h"
#include "utf8guard_version.h"
#include "policy_state.h"
#include "stats.h"
#include "sysfs.h"
#include "utf8guard.h"
#include "validator_state.h"

static struct utf8guard_kit root;

/**
 * utf8guard_kobject() - the /sys/kernel/utf8guard directory
 *
 * Hook modules add their own directory under it (e.g. fs/).  It exists
 * as long as utf8guard.ko is loaded, so as long as any module that uses
 * this symbol is.
 *
 * Context: any context.
 * Return: the kobject of /sys/kernel/utf8guard.
 */
struct kobject *utf8guard_kobject(void)
{
	return root.kobj;
}
EXPORT_SYMBOL_GPL(utf8guard_kobject);

static ssize_t mode_show(char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	utf8guard_format_mode(utf8guard_policy_get().mode, text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t policy_show(char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	utf8guard_format_policy(utf8guard_policy_get().classes, text,
				sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t locked_show(char *buf)
{
	return sysfs_emit(buf, "%d\n", utf8guard_locked());
}

static int locked_store(const char *text, size_t len)
{
	struct utf8guard_parse_error error;
	bool lock;

	if (!utf8guard_parse_flag(text, len, &lock, &error))
		return -EINVAL;
	if (lock)
		return policy_state_lock();
	/* Unlocking is only possible by rebooting. */
	return utf8guard_locked() ? -EPERM : 0;
}

static ssize_t validator_show(char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	validator_state_format(text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t version_show(char *buf)
{
	return sysfs_emit(buf, "%s\n", UTF8GUARD_VERSION);
}

static ssize_t unicode_version_show(char *buf)
{
	return sysfs_emit(buf, "%s\n", utf8guard_unicode_version());
}

static struct utf8guard_kit_file control_files[] = {
	{ .name = "mode", .show = mode_show,
	  .store = policy_state_store_mode },
	{ .name = "policy", .show = policy_show,
	  .store = policy_state_store_policy },
	{ .name = "locked", .show = locked_show, .store = locked_store },
	{ .name = "validator", .show = validator_show,
	  .store = validator_state_store },
};

static struct utf8guard_kit_settings control = {
	.files = control_files,
	.count = ARRAY_SIZE(control_files),
};

static struct utf8guard_kit_file info_files[] = {
	{ .name = "version", .show = version_show },
	{ .name = "unicode_version", .show = unicode_version_show },
};

static struct utf8guard_kit root = {
	.name = "utf8guard",
	.settings = &control,
	.status = info_files,
	.status_count = ARRAY_SIZE(info_files),
	.stats = &core_stats,
};

int sysfs_interface_init(void)
{
	int ret = utf8guard_kit_settings_init(&control, "utf8guard");

	if (ret)
		return ret;
	return utf8guard_kit_add(&root, kernel_kobj);
}

void sysfs_interface_exit(void)
{
	utf8guard_kit_remove(&root);
}
