// SPDX-License-Identifier: GPL-2.0
/*
 * The live policy of utf8guard.ko.
 *
 * Mode and classes are packed into one 32-bit word: readers (the hooks, in
 * any context) take a consistent snapshot with one READ_ONCE(), writers
 * replace the whole word with one WRITE_ONCE() under policy_mutex, which
 * only serialises writers (so that "+class" edits read-modify-write a
 * stable value).  No reader ever waits, and no grace period is needed
 * because nothing is freed.
 */

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <kunit/visibility.h>

#include "utf8guard.h"
#include "policy_state.h"

#define MODE_BITS	8
#define MODE_MASK	((1U << MODE_BITS) - 1)

static u32 policy_word;
static bool policy_locked;
static DEFINE_MUTEX(policy_mutex);
static BLOCKING_NOTIFIER_HEAD(mode_notifiers);

static u32 pack(u32 mode, u32 classes)
{
	return mode | classes << MODE_BITS;
}

/**
 * utf8guard_policy_get() - a snapshot of the current mode and classes
 *
 * This takes one load and no lock.  The snapshot is consistent (mode and classes were
 * set together), so a caller that checks several buffers for one decision
 * should take one snapshot and use it throughout.
 *
 * Context: any context.
 * Return: the current policy.
 */
struct utf8guard_policy utf8guard_policy_get(void)
{
	u32 word = READ_ONCE(policy_word);
	struct utf8guard_policy policy = {
		.mode = word & MODE_MASK,
		.classes = word >> MODE_BITS,
	};

	return policy;
}
EXPORT_SYMBOL_GPL(utf8guard_policy_get);

/**
 * policy_state_log_refusal() - log why a sysfs write did not parse
 * @what: the file, e.g. "mode"
 * @text: the written bytes
 * @len: their number
 * @error: what the parser said
 *
 * Context: any context; rate-limited.
 */
void policy_state_log_refusal(const char *what, const char *text, size_t len,
			      const struct utf8guard_parse_error *error)
{
	size_t shown = min_t(size_t, error->length, 32);

	if (error->length)
		pr_info_ratelimited("%s write refused: %s: \"%*pEhp\"\n", what,
				    error->message, (int)shown,
				    text + error->offset);
	else
		pr_info_ratelimited("%s write refused: %s\n", what,
				    error->message);
}

/* Called at load, before anything can read the policy. */
int policy_state_init(const char *mode_text, const char *policy_text)
{
	struct utf8guard_parse_error error;
	u32 mode = UTF8GUARD_MODE_ENFORCE;
	u32 classes = UTF8GUARD_CLASSES_DEFAULT;

	if (mode_text &&
	    !utf8guard_parse_mode(mode_text, strlen(mode_text), &mode,
				  &error)) {
		pr_err("module parameter mode=\"%s\": %s\n", mode_text,
		       error.message);
		return -EINVAL;
	}
	if (policy_text &&
	    !utf8guard_parse_policy(policy_text, strlen(policy_text), classes,
				    &classes, &error)) {
		pr_err("module parameter policy=\"%s\": %s\n", policy_text,
		       error.message);
		return -EINVAL;
	}
	WRITE_ONCE(policy_word, pack(mode, classes));
	return 0;
}

/**
 * policy_state_store_mode() - set the mode from a sysfs write
 * @text: the written bytes, not necessarily NUL-terminated
 * @len: their number
 *
 * Context: process context; takes policy_mutex.
 * Return: 0, -EINVAL if @text does not parse (nothing changes), or -EPERM
 * when locked.
 */
int policy_state_store_mode(const char *text, size_t len)
{
	struct utf8guard_parse_error error;
	struct utf8guard_policy old;
	u32 mode;
	int ret = 0;

	if (!utf8guard_parse_mode(text, len, &mode, &error)) {
		policy_state_log_refusal("mode", text, len, &error);
		return -EINVAL;
	}
	mutex_lock(&policy_mutex);
	if (policy_locked) {
		ret = -EPERM;
	} else {
		old = utf8guard_policy_get();
		/*
		 * In order of the changes, before the write returns; a mode
		 * that checks, before it is in effect: no one reads a mode
		 * the hooks do not enforce yet (issue 26, review round 6).
		 */
		if (old.mode != mode && mode != UTF8GUARD_MODE_OFF)
			blocking_notifier_call_chain(&mode_notifiers, mode,
						     NULL);
		WRITE_ONCE(policy_word, pack(mode, old.classes));
		if (old.mode != mode) {
			pr_notice("mode %s -> %s (by %s[%d])\n",
				  utf8guard_mode_name(old.mode),
				  utf8guard_mode_name(mode), current->comm,
				  task_pid_nr(current));
			if (mode == UTF8GUARD_MODE_OFF)
				blocking_notifier_call_chain(&mode_notifiers,
							     mode, NULL);
		}
	}
	mutex_unlock(&policy_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(policy_state_store_mode);

/**
 * utf8guard_mode_notifier_register() - be told of every mode change
 * @nb: its notifier_call gets the new mode (enum utf8guard_mode) as action
 *
 * The call comes before a mode other than off is in effect, and after
 * mode off is (utf8guard_policy_get() returns it), always before the
 * sysfs write that changed it returns, from the writer's process context,
 * under the lock that orders mode changes: calls come in the order of the
 * changes, one at a time.  A hook module uses it to arm what mode off had
 * let it disarm before anyone can read the new mode, so it must take the
 * mode from @action, not from utf8guard_policy_get().  The callback may
 * sleep; it must not change the policy.
 *
 * Context: process context; may sleep.
 * Return: 0 (see blocking_notifier_chain_register()).
 */
int utf8guard_mode_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&mode_notifiers, nb);
}
EXPORT_SYMBOL_GPL(utf8guard_mode_notifier_register);

/**
 * utf8guard_mode_notifier_unregister() - undo utf8guard_mode_notifier_register()
 * @nb: the notifier block given to it
 *
 * On return no call to @nb is running or will start.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int utf8guard_mode_notifier_unregister(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&mode_notifiers, nb);
}
EXPORT_SYMBOL_GPL(utf8guard_mode_notifier_unregister);

/**
 * policy_state_store_policy() - set the classes from a sysfs write
 * @text: the written bytes: a class list or +/- edits
 * @len: their number
 *
 * Context: process context; takes policy_mutex.
 * Return: 0, -EINVAL if @text does not parse (nothing changes), or -EPERM
 * when locked.
 */
int policy_state_store_policy(const char *text, size_t len)
{
	char before[UTF8GUARD_POLICY_TEXT_MAX], after[UTF8GUARD_POLICY_TEXT_MAX];
	struct utf8guard_parse_error error;
	struct utf8guard_policy old;
	u32 classes;
	int ret = 0;

	mutex_lock(&policy_mutex);
	old = utf8guard_policy_get();
	if (!utf8guard_parse_policy(text, len, old.classes, &classes,
				    &error)) {
		policy_state_log_refusal("policy", text, len, &error);
		ret = -EINVAL;
	} else if (policy_locked) {
		ret = -EPERM;
	} else {
		WRITE_ONCE(policy_word, pack(old.mode, classes));
		if (old.classes != classes) {
			utf8guard_format_policy(old.classes, before,
						sizeof(before));
			utf8guard_format_policy(classes, after, sizeof(after));
			pr_notice("policy \"%s\" -> \"%s\" (by %s[%d])\n",
				  before, after, current->comm,
				  task_pid_nr(current));
		}
	}
	mutex_unlock(&policy_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(policy_state_store_policy);

/*
 * Hook modules (utf8guard_fs.ko, ...) attached with utf8guard_hook_attach():
 * pinned with this module when the policy is locked, so that unloading a
 * hook cannot undo the lock.  Protected by policy_mutex.
 */
#define MAX_HOOK_MODULES 8
static struct module *hook_modules[MAX_HOOK_MODULES];

/* Drop the references pin_modules() took on hook_modules[0..@count). */
static void unpin_modules(unsigned int count)
{
	unsigned int k;

	for (k = 0; k < count; k++)
		if (hook_modules[k])
			module_put(hook_modules[k]);
	module_put(THIS_MODULE);
}

/*
 * Under policy_mutex: take a reference on this module and every attached
 * hook module.  try_module_get() fails for a module whose removal has
 * begun (its exit has not detached it yet): pinning it would not keep it,
 * so nothing is pinned and the lock is refused.
 */
static int pin_modules(void)
{
	unsigned int k;

	if (!try_module_get(THIS_MODULE))
		return -EBUSY;
	for (k = 0; k < MAX_HOOK_MODULES; k++) {
		if (!hook_modules[k] || try_module_get(hook_modules[k]))
			continue;
		pr_notice("lock refused: %s is being removed (by %s[%d])\n",
			  module_name(hook_modules[k]), current->comm,
			  task_pid_nr(current));
		unpin_modules(k);
		return -EBUSY;
	}
	return 0;
}

/*
 * Freeze mode and policy and pin the modules until reboot.
 * Return: 0, or -EBUSY while a module to pin is being removed.
 */
int policy_state_lock(void)
{
	int ret = 0;

	mutex_lock(&policy_mutex);
	if (!policy_locked) {
		ret = pin_modules();
		if (!ret) {
			WRITE_ONCE(policy_locked, true);
			pr_notice("locked: mode and policy frozen and modules pinned until reboot (by %s[%d])\n",
				  current->comm, task_pid_nr(current));
		}
	}
	mutex_unlock(&policy_mutex);
	return ret;
}

/**
 * utf8guard_locked() - whether mode and policy are locked until reboot
 *
 * Hook modules refuse changes to their own settings while this is true.
 *
 * Context: any context.
 * Return: true once /sys/kernel/utf8guard/locked was set to 1.
 */
bool utf8guard_locked(void)
{
	return READ_ONCE(policy_locked);
}
EXPORT_SYMBOL_GPL(utf8guard_locked);

/**
 * utf8guard_hook_attach() - register a hook module with the lock
 * @owner: the hook module (THIS_MODULE)
 *
 * From then on, locking the policy also pins @owner until reboot, and
 * attaching while locked pins it at once: a locked system cannot lose a
 * hook by rmmod.  Call it from the hook module's init, once its hooks
 * are in place; call utf8guard_hook_detach() from its exit.
 *
 * Context: process context; may sleep.
 * Return: 0, -ENOSPC if too many modules are attached, or -EBUSY if
 * locked and @owner cannot be pinned (its removal has begun).
 */
int utf8guard_hook_attach(struct module *owner)
{
	unsigned int k;
	int ret = -ENOSPC;

	mutex_lock(&policy_mutex);
	for (k = 0; k < MAX_HOOK_MODULES; k++) {
		if (hook_modules[k])
			continue;
		if (policy_locked && !try_module_get(owner)) {
			ret = -EBUSY;
			break;
		}
		hook_modules[k] = owner;
		ret = 0;
		break;
	}
	mutex_unlock(&policy_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(utf8guard_hook_attach);

/**
 * utf8guard_hook_detach() - undo utf8guard_hook_attach()
 * @owner: the module given to utf8guard_hook_attach()
 *
 * Context: process context (module exit); may sleep.
 */
void utf8guard_hook_detach(struct module *owner)
{
	unsigned int k;

	mutex_lock(&policy_mutex);
	for (k = 0; k < MAX_HOOK_MODULES; k++)
		if (hook_modules[k] == owner)
			hook_modules[k] = NULL;
	mutex_unlock(&policy_mutex);
}
EXPORT_SYMBOL_GPL(utf8guard_hook_detach);
