// SPDX-License-Identifier: GPL-2.0
/*
 * What one hooked operation checks: whether this filesystem and mode want
 * a check at all, then the bytes under the policy's classes, counted both
 * in utf8guard.ko's global stats (utf8guard_judge()) and per operation.
 *
 * Runs in the probe handlers: atomic context, no sleeping, no allocation.
 */
#include <linux/fs.h>

#include "fs_hook.h"

/**
 * fs_check_wanted() - take the policy snapshot and decide whether to check
 * @sb: the superblock of the directory that gets the new name
 * @policy: filled with the snapshot to check under
 *
 * Return: false in mode off, with fs/enabled 0, or for a filesystem type
 * outside fs/fstypes; nothing is counted then.
 */
bool fs_check_wanted(const struct super_block *sb,
		     struct utf8guard_policy *policy)
{
	*policy = utf8guard_policy_get();
	if (policy->mode == UTF8GUARD_MODE_OFF)
		return false;
	return fs_enabled() && fs_watches(sb);
}

/* A symlink target is a path; everything else is a new name. */
static bool find_violation(enum fs_op op,
			   const struct utf8guard_policy *policy,
			   const u8 *bytes, size_t len,
			   struct utf8guard_report *report)
{
	return op == FS_OP_SYMLINK_TARGET ?
	       utf8guard_first_violation(policy->classes, bytes, len, report) :
	       utf8guard_name_violation(policy->classes, bytes, len, report);
}

/* Count, log and decide one check whose first refused error is @violation. */
static int judge(enum fs_op op, const struct utf8guard_policy *policy,
		 const struct utf8guard_report *violation, const u8 *bytes,
		 size_t len)
{
	int verdict = utf8guard_judge(policy, violation, bytes, len,
				      fs_op_name(op));

	fs_count(op, violation, verdict != 0);
	return verdict;
}

/**
 * fs_check_bytes() - check a name or symlink target, count, log, decide
 *
 * A new name is checked as a filename component (utf8guard_name_violation():
 * the component rules, then the classes), a symlink target as a path
 * (utf8guard_first_violation()).
 *
 * @op: the operation, for counters and the log line
 * @policy: the snapshot from fs_check_wanted()
 * @bytes: the name (not NUL-terminated) or target
 * @len: its length
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
int fs_check_bytes(enum fs_op op, const struct utf8guard_policy *policy,
		   const u8 *bytes, size_t len)
{
	struct utf8guard_report report;

	return judge(op, policy,
		     find_violation(op, policy, bytes, len, &report) ?
		     &report : NULL, bytes, len);
}

/**
 * fs_check_judged() - check a name the overlay's own hook has judged
 *
 * For FS_OVERLAY_JUDGED (overlay.c): the overlay's hook checked and
 * counted the user's name under the settings the upper check has now, so
 * the upper layer lets it through uncounted, unless @policy refuses it in
 * enforce: then the settings changed between the overlay's hook and the
 * operation, and it is refused, counted and logged as any refusal.
 *
 * @op: the operation, for counters and the log line
 * @policy: the snapshot from fs_check_wanted()
 * @bytes: the name (not NUL-terminated) or target
 * @len: its length
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
int fs_check_judged(enum fs_op op, const struct utf8guard_policy *policy,
		    const u8 *bytes, size_t len)
{
	struct utf8guard_report report;

	if (policy->mode != UTF8GUARD_MODE_ENFORCE ||
	    !find_violation(op, policy, bytes, len, &report))
		return 0;
	return judge(op, policy, &report, bytes, len);
}
