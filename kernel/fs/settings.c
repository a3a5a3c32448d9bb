// SPDX-License-Identifier: GPL-2.0
/*
 * Settings of utf8guard_fs.ko: fs/enabled, fs/fstypes,
 * fs/check_symlink_target, fs/mounts (its entries are scope.c's) and
 * fs/exempt (exempt.c's).
 *
 * The probe handlers read them locklessly: the two flags with READ_ONCE(),
 * the fstypes list under RCU (it is replaced whole and freed after a grace
 * period).  They are kit settings (hook_kit.h), with their module
 * parameters: the kit keeps the flags and their files, and stores
 * fstypes under fs_settings.lock, refusing it while utf8guard is locked;
 * a parse error changes nothing.  Whatever follows a setting registers with the kit's notifier
 * (idle.c); nothing here calls it.
 */

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "fs_hook.h"
#include "hook_kit.h"

/* count == 0 stands for "*": every filesystem type. */
struct fstype_list {
	struct rcu_head rcu;
	unsigned int count;
	char names[FS_FSTYPES_MAX][FS_FSTYPE_NAME_MAX + 1];
};

static struct fstype_list __rcu *fstypes;
/*
 * fs/fstypes is "*" (the default): every check reads this word, and only
 * a list of names takes the RCU read side.  Written after the list: a
 * check that reads either the word or the list of one setting is right.
 */
static bool fstypes_all;

static ssize_t fstypes_show(char *buf);
static int fstypes_parse(const char *text, size_t len, bool at_load,
			 void **parsed);
static void fstypes_apply(void *parsed, bool at_load);
static void fstypes_release(void *parsed);

/* The initialisers of .value and .param are the defaults. */
static struct utf8guard_kit_file files[FS_SETTING_COUNT] = {
	[FS_SETTING_ENABLED] = { .name = "enabled", .flag = true,
				 .value = true },
	[FS_SETTING_FSTYPES] = { .name = "fstypes", .show = fstypes_show,
				 .parse = fstypes_parse,
				 .apply = fstypes_apply,
				 .release = fstypes_release, .param = "*" },
	[FS_SETTING_CHECK_SYMLINK_TARGET] = { .name = "check_symlink_target",
					      .flag = true, .value = true },
	[FS_SETTING_MOUNTS] = { .name = "mounts", .show = fs_scope_show,
				.parse = fs_scope_parse,
				.apply = fs_scope_apply,
				.release = fs_scope_release },
	[FS_SETTING_EXEMPT] = { .name = "exempt", .show = fs_exempt_show,
				.parse = fs_exempt_parse,
				.apply = fs_exempt_apply,
				.release = fs_exempt_release },
};

UTF8GUARD_KIT_FILE_PARAM(enabled, files[FS_SETTING_ENABLED], bool,
			 "Check new names at load (default 1); later: fs/enabled");
UTF8GUARD_KIT_FILE_PARAM(fstypes, files[FS_SETTING_FSTYPES], charp,
			 "Filesystem types to check, separated by commas or quoted spaces, or * for all (default *); later: fs/fstypes");
UTF8GUARD_KIT_FILE_PARAM(check_symlink_target,
			 files[FS_SETTING_CHECK_SYMLINK_TARGET], bool,
			 "Check symlink targets too (default 1); later: fs/check_symlink_target");

UTF8GUARD_KIT_FILE_PARAM(mounts, files[FS_SETTING_MOUNTS], charp,
			 "Per-filesystem policies, \"PATH POLICY\" lines (default none); later: fs/mounts");
UTF8GUARD_KIT_FILE_PARAM(exempt, files[FS_SETTING_EXEMPT], charp,
			 "Exempt cgroups (v2 paths), one a line (default none); later: fs/exempt");

/*
 * fs/enabled, fs/fstypes, fs/check_symlink_target, fs/mounts, fs/exempt,
 * in order.
 */
struct utf8guard_kit_settings fs_settings = {
	.files = files,
	.count = FS_SETTING_COUNT,
};

bool fs_enabled(void)
{
	return utf8guard_kit_flag(&files[FS_SETTING_ENABLED]);
}

bool fs_check_symlink_target(void)
{
	return utf8guard_kit_flag(&files[FS_SETTING_CHECK_SYMLINK_TARGET]);
}

/* Whether names created on @sb are checked.  Atomic context. */
bool fs_watches(const struct super_block *sb)
{
	return fs_watches_type(sb->s_type->name);
}

/**
 * fs_watches_type() - whether fs/fstypes has this filesystem type
 * @type: a filesystem type's name, as in /proc/filesystems
 *
 * Context: any, NMI included (a probe handler).
 * Return: true for a type in fs/fstypes, or any type with "*".
 */
bool fs_watches_type(const char *type)
{
	const struct fstype_list *list;
	bool watched = false;
	unsigned int k;

	if (READ_ONCE(fstypes_all))
		return true;
	rcu_read_lock();
	list = rcu_dereference(fstypes);
	if (!list->count)
		watched = true;
	for (k = 0; k < list->count && !watched; k++)
		watched = !strcmp(list->names[k], type);
	rcu_read_unlock();
	return watched;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '_' || c == '-';
}

/*
 * Parse "*" or filesystem type names separated by spaces or commas, with
 * one optional trailing newline.  Return NULL on success, else why not.
 */
static const char *parse_fstypes(const char *text, size_t len,
				 struct fstype_list *list)
{
	size_t pos = 0, start, length, k;
	bool star = false;

	list->count = 0;
	while (utf8guard_next_word(text, len, UTF8GUARD_WORDS_TRAILING_NEWLINE,
				   &pos, &start, &length)) {
		if (length == 1 && text[start] == '*') {
			star = true;
			continue;
		}
		if (length > FS_FSTYPE_NAME_MAX)
			return "filesystem type name longer than 31 bytes";
		for (k = start; k < start + length; k++)
			if (!is_name_char(text[k]))
				return "filesystem type names are made of a-z 0-9 . _ -";
		if (list->count == FS_FSTYPES_MAX)
			return "more than 16 filesystem types";
		memcpy(list->names[list->count], text + start, length);
		list->count++;
	}
	if (star && list->count)
		return "\"*\" stands alone";
	if (!star && !list->count)
		return "no filesystem type (\"*\" for all)";
	return NULL;
}

size_t fs_format_fstypes(char *buf, size_t size)
{
	const struct fstype_list *list;
	size_t n = 0;
	unsigned int k;

	rcu_read_lock();
	list = rcu_dereference(fstypes);
	if (!list->count)
		n = scnprintf(buf, size, "*");
	for (k = 0; k < list->count; k++)
		n += scnprintf(buf + n, size - n, "%s%s", k ? " " : "",
			       list->names[k]);
	rcu_read_unlock();
	return n;
}

/* Under fs_settings.lock (the kit's store and init). */
static int fstypes_parse(const char *text, size_t len, bool at_load,
			 void **parsed)
{
	struct fstype_list *list;
	const char *error;

	list = kzalloc(sizeof(*list), GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	error = parse_fstypes(text, len, list);
	if (error) {
		if (at_load)
			pr_err("module parameter fstypes=\"%s\": %s\n", text,
			       error);
		else
			pr_info_ratelimited("fs/fstypes write refused: %s\n",
					    error);
		kfree(list);
		return -EINVAL;
	}
	*parsed = list;
	return 0;
}

static void fstypes_apply(void *parsed, bool at_load)
{
	struct fstype_list *list = parsed, *old;

	old = rcu_replace_pointer(fstypes, list,
				  lockdep_is_held(&fs_settings.lock));
	WRITE_ONCE(fstypes_all, !list->count);
	if (old)
		kfree_rcu(old, rcu);
}

static void fstypes_release(void *parsed)
{
	kfree(parsed);
}

static ssize_t fstypes_show(char *buf)
{
	char text[FS_FSTYPES_TEXT_MAX];

	fs_format_fstypes(text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

/* At load, before the probes exist. */
int fs_settings_init(void)
{
	return utf8guard_kit_settings_init(&fs_settings, "fs");
}

/* At unload, once no probe handler can run. */
void fs_settings_exit(void)
{
	kfree(rcu_dereference_protected(fstypes, true));
	RCU_INIT_POINTER(fstypes, NULL);
}
