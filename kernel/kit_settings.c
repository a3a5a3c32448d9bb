// SPDX-License-Identifier: GPL-2.0
/*
 * Settings of the hook kit (hook_kit.h): 0/1 flags kept and stored here
 * (utf8guard_hook_store_flag(), for any module's own flags too), text
 * settings a module parses and applies under the kit's lock, which
 * refuses them while utf8guard is locked, their module parameters applied
 * at load, one writers' mutex, and a notifier chain told after every
 * store that took effect (and before a flag turns on), so that whatever
 * follows a setting (fs: the idle probes) re-arms itself without the
 * settings calling it.
 */
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "hook_kit.h"
#include "kit_settings.h"
#include "utf8guard.h"

/*
 * A text setting's store: under the settings' lock, parse, then refuse
 * while locked (after parsing: a write that does not parse is -EINVAL,
 * locked or not) or apply.  At load, before anyone can lock the module's
 * settings, the module parameter is applied whatever the lock says.
 */
static int store_text(struct utf8guard_kit_file *file, const char *text,
		      size_t len, bool at_load)
{
	struct mutex *lock = &file->settings->lock;
	void *parsed;
	int ret;

	mutex_lock(lock);
	ret = file->parse(text, len, at_load, &parsed);
	if (!ret && !at_load && utf8guard_locked()) {
		if (file->release)
			file->release(parsed);
		ret = -EPERM;
	} else if (!ret) {
		file->apply(parsed, at_load);
	}
	mutex_unlock(lock);
	return ret;
}

/**
 * utf8guard_kit_settings_init() - prepare a module's settings
 * @settings: @files and @count filled in
 * @dir: the directory name, e.g. "fs", for the log lines ("fs/enabled")
 *
 * Applies the text settings' @param in the order of @files, each parsed
 * and applied with at_load set.  Call before utf8guard_kit_add() and
 * before anything reads a setting; the flags' values are the module
 * parameters' already.
 *
 * Context: process context; may sleep.
 * Return: 0, or the error of the first @param that did not parse (or
 * -ENOMEM); the ones before it are applied then: the module frees them.
 */
int utf8guard_kit_settings_init(struct utf8guard_kit_settings *settings,
				const char *dir)
{
	unsigned int k;
	int ret;

	mutex_init(&settings->lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&settings->notifier);
	for (k = 0; k < settings->count; k++) {
		struct utf8guard_kit_file *file = &settings->files[k];

		file->settings = settings;
		snprintf(file->path, sizeof(file->path), "%s/%s", dir,
			 file->name);
	}
	for (k = 0; k < settings->count; k++) {
		struct utf8guard_kit_file *file = &settings->files[k];

		if (!file->parse || !file->param)
			continue;
		ret = store_text(file, file->param, strlen(file->param), true);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_settings_init);

/**
 * utf8guard_kit_notifier_register() - be told of every store of a setting
 * @settings: initialised settings
 * @nb: called in process context after each store that returned 0, with
 *	the index of the setting in @settings->files as the action and the
 *	struct utf8guard_kit_file as the data; for a 0/1 setting written 1,
 *	also before the store, with UTF8GUARD_KIT_TURNING_ON added to the
 *	action, and after it even if it was refused
 *
 * Context: process context.
 * Return: 0.
 */
int utf8guard_kit_notifier_register(struct utf8guard_kit_settings *settings,
				    struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&settings->notifier, nb);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_notifier_register);

/**
 * utf8guard_kit_notifier_unregister() - undo utf8guard_kit_notifier_register()
 * @settings: the settings given to utf8guard_kit_notifier_register()
 * @nb: the notifier block given to it
 *
 * Context: process context.
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int utf8guard_kit_notifier_unregister(struct utf8guard_kit_settings *settings,
				      struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&settings->notifier, nb);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_notifier_unregister);

/**
 * utf8guard_hook_store_flag() - a sysfs store of a hook module's 0/1 setting
 * @lock: the hook module's settings mutex
 * @flag: the setting (read elsewhere with READ_ONCE())
 * @name: its path under /sys/kernel/utf8guard, e.g. "fs/enabled"
 * @text: the written bytes
 * @len: their number
 *
 * Parses "0" or "1" (utf8guard_parse_flag()); a refused write changes
 * nothing and logs why (rate-limited).  Under @lock, refuses while the
 * policy is locked, and logs each change with the writer.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL if @text does not parse, -EPERM while locked.
 */
int utf8guard_hook_store_flag(struct mutex *lock, bool *flag,
			      const char *name, const char *text, size_t len)
{
	struct utf8guard_parse_error error;
	bool value;
	int ret = 0;

	if (!utf8guard_parse_flag(text, len, &value, &error)) {
		pr_info_ratelimited("%s write refused: %s\n", name,
				    error.message);
		return -EINVAL;
	}
	mutex_lock(lock);
	if (utf8guard_locked()) {
		ret = -EPERM;
	} else if (READ_ONCE(*flag) != value) {
		WRITE_ONCE(*flag, value);
		pr_notice("%s %d -> %d (by %s[%d])\n", name, !value, value,
			  current->comm, task_pid_nr(current));
	}
	mutex_unlock(lock);
	return ret;
}
EXPORT_SYMBOL_GPL(utf8guard_hook_store_flag);

/*
 * Apply a write to a setting, then tell the notifier chain; a 0/1 setting
 * written 1, also before (UTF8GUARD_KIT_TURNING_ON), so that what it turns
 * on is in effect before anyone reads 1 (issue 26, review round 6).
 */
int kit_settings_store(struct utf8guard_kit_file *file, const char *text,
		       size_t len)
{
	struct utf8guard_kit_settings *settings = file->settings;
	unsigned long index = file - settings->files;
	struct utf8guard_parse_error error;
	bool on = false;
	int ret;

	if (file->flag) {
		if (utf8guard_parse_flag(text, len, &on, &error) && on)
			blocking_notifier_call_chain(&settings->notifier,
						     index |
						     UTF8GUARD_KIT_TURNING_ON,
						     file);
		ret = utf8guard_hook_store_flag(&settings->lock, &file->value,
						file->path, text, len);
	} else if (file->parse) {
		ret = store_text(file, text, len, false);
	} else {
		ret = file->store(text, len);
	}
	/* After a refused 1 too: what was turned on may go again. */
	if (!ret || on)
		blocking_notifier_call_chain(&settings->notifier, index, file);
	return ret;
}
