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
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <kunit/visibility.h>

#include "utf8guard.h"
#include "policy_state.h"

#define MODE_BITS	8
#define MODE_MASK	((1U << MODE_BITS) - 1)

static u32 policy_word;
static bool policy_locked;
static DEFINE_MUTEX(policy_mutex);

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

static void log_parse_error(const char *what, const char *text, size_t len,
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
		log_parse_error("mode", text, len, &error);
		return -EINVAL;
	}
	mutex_lock(&policy_mutex);
	if (policy_locked) {
		ret = -EPERM;
	} else {
		old = utf8guard_policy_get();
		WRITE_ONCE(policy_word, pack(mode, old.classes));
		if (old.mode != mode)
			pr_notice("mode %s -> %s (by %s[%d])\n",
				  utf8guard_mode_name(old.mode),
				  utf8guard_mode_name(mode), current->comm,
				  task_pid_nr(current));
	}
	mutex_unlock(&policy_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(policy_state_store_mode);

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
		log_parse_error("policy", text, len, &error);
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

/* Freeze mode and policy and pin the module until reboot. */
int policy_state_lock(void)
{
	mutex_lock(&policy_mutex);
	if (!policy_locked) {
		__module_get(THIS_MODULE);
		WRITE_ONCE(policy_locked, true);
		pr_notice("locked: mode and policy frozen and module pinned until reboot (by %s[%d])\n",
			  current->comm, task_pid_nr(current));
	}
	mutex_unlock(&policy_mutex);
	return 0;
}

bool policy_state_locked(void)
{
	return READ_ONCE(policy_locked);
}
