// SPDX-License-Identifier: GPL-2.0
/*
 * Judging checks under the current policy: count, log, trace, and turn the
 * mode into a verdict.  This is where a refused name becomes -EILSEQ.
 */

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include "audit_record.h"
#include "stats.h"
#include "utf8guard.h"

#define CREATE_TRACE_POINTS
#include "judge_trace.h"

/*
 * @what: "refused", "audit: would refuse" or "exempt"; @setting and
 * @entry: what exempts it, written " (SETTING ENTRY)" at the end, @entry
 * escaped; @setting NULL for the others.
 */
static void log_violation(const char *what, const char *setting,
			  const char *entry,
			  const struct utf8guard_report *report,
			  const u8 *bytes, size_t len, const char *operation)
{
	size_t before, after;
	const u8 *window = utf8guard_context(report, bytes, len, &before,
					     &after);

	if (!window) {
		pr_warn_ratelimited("%s %s from %.*s[%d]: %s at offset %llu%s%s%s%*pEhp%s\n",
				    what, operation, TASK_COMM_LEN,
				    current->comm, task_pid_nr(current),
				    utf8guard_reason_name(report->reason),
				    report->offset, setting ? " (" : "",
				    setting ?: "", setting ? " " : "",
				    setting ? (int)strlen(entry) : 0,
				    setting ? entry : "", setting ? ")" : "");
		return;
	}
	/* comm is escaped: it is chosen by the process. */
	pr_warn_ratelimited("%s %s from \"%*pEhp\"[%d]: %s at offset %llu: %*ph%s[%*ph]%s%*ph%s%s%s%s%*pEhp%s\n",
			    what, operation,
			    (int)strnlen(current->comm, TASK_COMM_LEN),
			    current->comm, task_pid_nr(current),
			    utf8guard_reason_name(report->reason),
			    report->offset, (int)before, window,
			    before ? " " : "", (int)report->length,
			    window + before, after ? " " : "", (int)after,
			    window + before + report->length,
			    report->path_trick ? " (path trick)" : "",
			    setting ? " (" : "", setting ?: "",
			    setting ? " " : "",
			    setting ? (int)strlen(entry) : 0,
			    setting ? entry : "", setting ? ")" : "");
}

/**
 * utf8guard_judge() - count, log and decide one check
 * @policy: the snapshot the check was made under (utf8guard_policy_get())
 * @report: the first error @policy refuses, or NULL if there was none
 * @bytes: the checked bytes, for the log line; may be NULL
 * @len: number of bytes at @bytes
 * @operation: what was checked, for the log and trace (e.g. "mkdir")
 *
 * For callers that scan their own bytes (streams, packets): call once per
 * checked object.  Counts it in stats/checked and, for a violation, in
 * stats/<reason> and stats/rejected or stats/audited; logs one
 * rate-limited line with the bad span in hex; writes an AUDIT_ANOM_CREAT
 * audit record when auditing is enabled (at most 50 a second); fires the
 * utf8guard:utf8guard_violation tracepoint.  Does nothing in mode off.
 *
 * Context: any context.
 * Return: -EILSEQ if @report is a violation and the mode is enforce,
 * otherwise 0.
 */
int utf8guard_judge(const struct utf8guard_policy *policy,
		    const struct utf8guard_report *report, const u8 *bytes,
		    size_t len, const char *operation)
{
	int ret = utf8guard_account(policy, report, operation);

	if (policy->mode != UTF8GUARD_MODE_OFF && report) {
		log_violation(policy->mode == UTF8GUARD_MODE_ENFORCE ?
			      "refused" : "audit: would refuse", NULL, NULL,
			      report, bytes, len, operation);
		audit_record_name(policy, report, bytes, len, operation);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(utf8guard_judge);

/**
 * utf8guard_judge_exempt() - count and log a violation an exemption lets through
 * @policy: the snapshot the check was made under (utf8guard_policy_get())
 * @report: the first error @policy refuses
 * @bytes: the checked bytes, for the log line; may be NULL
 * @len: number of bytes at @bytes
 * @operation: what was checked, for the log (e.g. "mkdir")
 * @setting: the setting that exempts it, e.g. "fs/exempt"
 * @entry: its entry that does, e.g. "/system.slice/restore.service"
 *
 * For a hook module whose settings exempt the task from the policy
 * (utf8guard_fs.ko's fs/exempt): in mode audit or enforce, counts the
 * check in stats/checked only (neither a reason nor rejected nor
 * audited: the name is let through, by choice) and logs one
 * rate-limited line as utf8guard_judge() would, beginning with "exempt"
 * instead of "refused" and ending with " (@setting @entry)", @entry
 * escaped.  No audit record, no tracepoint.  Does nothing in
 * mode off.
 *
 * Context: any context; does not sleep.
 */
void utf8guard_judge_exempt(const struct utf8guard_policy *policy,
			    const struct utf8guard_report *report,
			    const u8 *bytes, size_t len, const char *operation,
			    const char *setting, const char *entry)
{
	if (policy->mode == UTF8GUARD_MODE_OFF)
		return;
	stats_add(STAT_CHECKED);
	log_violation("exempt", setting, entry, report, bytes, len,
		      operation);
}
EXPORT_SYMBOL_GPL(utf8guard_judge_exempt);

/**
 * utf8guard_account() - count and decide one check, without a log line
 * @policy: the snapshot the check was made under (utf8guard_policy_get())
 * @report: the first error @policy refuses, or NULL if there was none
 * @operation: what was checked, for the trace (e.g. "udp")
 *
 * utf8guard_judge() for callers that write their own log line, such as
 * the netfilter hook (addresses and ports, where utf8guard_judge() would
 * name the task that happens to run the softirq).  Counts and traces
 * exactly as utf8guard_judge(); outside task context the trace names no
 * task (comm "(softirq)" or "(irq)", pid 0).
 *
 * Context: any context.
 * Return: -EILSEQ if @report is a violation and the mode is enforce,
 * otherwise 0.
 */
int utf8guard_account(const struct utf8guard_policy *policy,
		      const struct utf8guard_report *report,
		      const char *operation)
{
	if (policy->mode == UTF8GUARD_MODE_OFF)
		return 0;
	stats_add(STAT_CHECKED);
	if (!report)
		return 0;
	if (report->reason < UTF8GUARD_REASON_COUNT)
		stats_add(STAT_REASON_FIRST + report->reason);
	trace_utf8guard_violation(operation, policy->mode, report);
	if (policy->mode == UTF8GUARD_MODE_AUDIT) {
		stats_add(STAT_AUDITED);
		return 0;
	}
	stats_add(STAT_REJECTED);
	return -EILSEQ;
}
EXPORT_SYMBOL_GPL(utf8guard_account);

static int check_bytes(const char *text, size_t len, bool is_name,
		       const char *operation)
{
	struct utf8guard_policy policy = utf8guard_policy_get();
	struct utf8guard_report report;
	bool refused;

	if (policy.mode == UTF8GUARD_MODE_OFF)
		return 0;
	if (is_name)
		refused = utf8guard_name_violation(policy.classes,
						   (const u8 *)text, len,
						   &report);
	else
		refused = utf8guard_first_violation(policy.classes,
						    (const u8 *)text, len,
						    &report);
	return utf8guard_judge(&policy, refused ? &report : NULL,
			       (const u8 *)text, len, operation);
}

/**
 * utf8guard_check_name() - check one new filename component
 * @name: the component (not NUL-terminated necessarily)
 * @len: its length in bytes
 * @operation: what creates it, for the log and trace (e.g. "mkdir")
 *
 * Checks @name as a filename component under the current policy
 * (utf8guard_name_violation(): not empty, not "." or "..", no '/' or NUL,
 * at most 255 bytes, then the classes), then counts, logs and decides as
 * utf8guard_judge().
 *
 * Context: any context; does not sleep.
 * Return: -EILSEQ to refuse (mode enforce), otherwise 0.
 */
int utf8guard_check_name(const char *name, size_t len, const char *operation)
{
	return check_bytes(name, len, true, operation);
}
EXPORT_SYMBOL_GPL(utf8guard_check_name);

/**
 * utf8guard_check_path() - check a path or other text: a symlink target,
 *	a payload
 * @path: the bytes
 * @len: their number
 * @operation: what carries them, for the log and trace (e.g. "symlink")
 *
 * Like utf8guard_check_name() for a whole path: the classes only
 * (utf8guard_first_violation()), no component rules.
 *
 * Context: any context; does not sleep.
 * Return: -EILSEQ to refuse (mode enforce), otherwise 0.
 */
int utf8guard_check_path(const char *path, size_t len, const char *operation)
{
	return check_bytes(path, len, false, operation);
}
EXPORT_SYMBOL_GPL(utf8guard_check_path);
