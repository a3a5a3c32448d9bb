// SPDX-License-Identifier: GPL-2.0
/*
 * The validator path of utf8guard.ko, chosen by the administrator.
 *
 * Every path (scalar, sse4.1, avx2, avx512) gives the same reports, so
 * the choice changes speed, never a verdict; it is not frozen by "locked".  It is
 * there to measure (make bench-nf), and to keep vector code out of
 * softirqs on a machine where that costs more than it saves.
 */

#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "policy_state.h"
#include "utf8guard_policy.h"
#include "utf8guard_vector.h"
#include "validator_state.h"

/* Serializes writers, so that each log line names the path it replaced. */
static DEFINE_MUTEX(validator_mutex);

/*
 * @isa from utf8guard_parse_validator(): "auto" becomes the best path.
 * Returns false for a path this CPU (or this kernel) cannot run.
 */
static bool resolve(unsigned int *isa)
{
	if (*isa == UTF8GUARD_VECTOR_AUTO)
		*isa = utf8guard_vector_best();
	return utf8guard_vector_available(*isa);
}

/**
 * validator_state_init() - apply the validator= module parameter
 * @param: its text, or NULL for the default (auto)
 *
 * Context: module init.
 * Return: 0, or -EINVAL (logged) if @param does not name a path this CPU
 * can run.
 */
int validator_state_init(const char *param)
{
	struct utf8guard_parse_error error;
	unsigned int isa;

	if (!param)
		return 0;
	if (!utf8guard_parse_validator(param, strlen(param), &isa, &error)) {
		pr_err("module parameter validator=\"%s\": %s\n", param,
		       error.message);
		return -EINVAL;
	}
	if (!resolve(&isa)) {
		pr_err("module parameter validator=\"%s\": this CPU does not offer %s\n",
		       param, utf8guard_vector_isa_name(isa));
		return -EINVAL;
	}
	utf8guard_vector_use(isa);
	return 0;
}

/**
 * validator_state_store() - choose the path from a sysfs write
 * @text: the written bytes: auto, scalar, sse4.1, avx2 or avx512
 * @len: their number
 *
 * Context: process context; takes validator_mutex.
 * Return: 0, or -EINVAL if @text does not parse or names a path this CPU
 * cannot run (nothing changes; the reason is logged).
 */
int validator_state_store(const char *text, size_t len)
{
	struct utf8guard_parse_error error;
	unsigned int isa, old;

	if (!utf8guard_parse_validator(text, len, &isa, &error)) {
		policy_state_log_refusal("validator", text, len, &error);
		return -EINVAL;
	}
	if (!resolve(&isa)) {
		pr_info_ratelimited("validator write refused: this CPU does not offer %s\n",
				    utf8guard_vector_isa_name(isa));
		return -EINVAL;
	}
	mutex_lock(&validator_mutex);
	old = utf8guard_vector_selected();
	utf8guard_vector_use(isa);
	if (old != isa)
		pr_notice("validator %s -> %s (by %s[%d])\n",
			  utf8guard_vector_isa_name(old),
			  utf8guard_vector_isa_name(isa), current->comm,
			  task_pid_nr(current));
	mutex_unlock(&validator_mutex);
	return 0;
}

/**
 * validator_state_format() - the paths this CPU runs, the chosen one in
 *	brackets, e.g. "scalar sse4.1 [avx2]"
 * @buf: where to write, NUL-terminated
 * @size: size of @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t validator_state_format(char *buf, size_t size)
{
	return utf8guard_format_validator(utf8guard_vector_selected(), buf,
					  size);
}
