// SPDX-License-Identifier: GPL-2.0
/*
 * What one hooked operation checks: whether this filesystem and mode want
 * a check at all, then the bytes under the policy's classes, counted both
 * in utf8guard.ko's global stats (utf8guard_judge()) and per operation.
 *
 * Runs in the probe handlers: atomic context, no sleeping, no allocation.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/magic.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "fs_hook.h"

/*
 * With fs/mounts entries: the entry of @sb, if any, instead of
 * fs/fstypes and the policy's classes.
 */
static bool scope_wanted(const struct super_block *sb,
			 struct utf8guard_policy *policy)
{
	if (!fs_enabled())
		return false;
	switch (fs_scope_lookup(sb, policy)) {
	case FS_SCOPE_OFF:
		return false;
	case FS_SCOPE_POLICY:
		return true;
	default:
		return fs_watches(sb);
	}
}

/**
 * fs_check_wanted() - take the policy snapshot and decide whether to check
 * @sb: the superblock of the directory that gets the new name
 * @policy: filled with the snapshot to check under
 *
 * A filesystem with an fs/mounts entry is checked under the entry's
 * classes whatever fs/fstypes says, or not at all for an entry "off".
 *
 * Return: false in mode off, with fs/enabled 0, for an entry "off", or
 * for a filesystem type outside fs/fstypes without an entry; nothing is
 * counted then.
 */
bool fs_check_wanted(const struct super_block *sb,
		     struct utf8guard_policy *policy)
{
	*policy = utf8guard_policy_get();
	if (policy->mode == UTF8GUARD_MODE_OFF)
		return false;
	if (static_branch_unlikely(&fs_scope_used))
		return scope_wanted(sb, policy);
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

/*
 * Whether fs/exempt lets @violation through for the current task: then
 * counted as exempted and logged "exempt ...", if @count.  Only for a name
 * the policy refuses; without entries the static key skips it all.
 */
static bool exempted(enum fs_op op, const struct utf8guard_policy *policy,
		     const struct utf8guard_report *violation,
		     const u8 *bytes, size_t len, bool count)
{
	const char *entry;

	if (!static_branch_unlikely(&fs_exempt_used))
		return false;
	rcu_read_lock();
	entry = fs_exempt_current();
	if (entry && count) {
		fs_count_exempted(op);
		utf8guard_judge_exempt(policy, violation, bytes, len,
				       fs_op_name(op), "fs/exempt", entry);
	}
	rcu_read_unlock();
	return !!entry;
}

/*
 * Count, log and decide one check whose first refused error is @violation;
 * let it through, counted as exempted, for a task fs/exempt exempts.
 */
static int judge(enum fs_op op, const struct utf8guard_policy *policy,
		 const struct utf8guard_report *violation, const u8 *bytes,
		 size_t len)
{
	int verdict;

	if (violation && exempted(op, policy, violation, bytes, len, true))
		return 0;
	verdict = utf8guard_judge(policy, violation, bytes, len,
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
	bool bad = find_violation(op, policy, bytes, len, &report);

	if (FS_BENCH_STOP(FS_BENCH_BEFORE_COUNT))
		return bad ? -EILSEQ : 0;
	return judge(op, policy, bad ? &report : NULL, bytes, len);
}

/*
 * check_judged() - check a name the overlay's own hook has judged
 *
 * For FS_OVERLAY_JUDGED (overlay.c): the overlay's hook checked and
 * counted the user's name under the settings the upper check has now, so
 * the upper layer lets it through uncounted, unless @policy refuses it in
 * enforce: then the settings changed between the overlay's hook and the
 * operation, and it is refused, counted and logged as any refusal (unless
 * fs/exempt exempts the task: then it passes uncounted).
 *
 * @op: the operation, for counters and the log line
 * @policy: the snapshot from fs_check_wanted()
 * @bytes: the name (not NUL-terminated) or target
 * @len: its length
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
static int check_judged(enum fs_op op, const struct utf8guard_policy *policy,
			const u8 *bytes, size_t len)
{
	struct utf8guard_report report;

	if (policy->mode != UTF8GUARD_MODE_ENFORCE ||
	    !find_violation(op, policy, bytes, len, &report))
		return 0;
	/* Exempt: counted and logged by the first check already. */
	if (exempted(op, policy, &report, bytes, len, false))
		return 0;
	return judge(op, policy, &report, bytes, len);
}

typedef int (*fs_check_fn)(enum fs_op op,
			   const struct utf8guard_policy *policy,
			   const u8 *bytes, size_t len);

/*
 * How to check a new name @dentry (and a symlink's target with it):
 * fs_check_bytes() if @wanted (this filesystem, this mode, a name that
 * does not exist), NULL to let it through; but as overlay.c says for the
 * names overlayfs makes on a task's behalf: its own pass, the user's are
 * checked as on the overlay.  @recheck: judged again after a lock
 * (fs_recheck_new_name()), where a stack that tells nothing is not
 * taken for overlayfs's.
 */
static fs_check_fn new_name_check(enum fs_op op,
				  const struct utf8guard_policy *policy,
				  bool wanted, const struct dentry *dentry,
				  bool recheck)
{
	switch (fs_overlay_internal(dentry, op, policy)) {
	case FS_OVERLAY_OWN:
		return NULL;
	case FS_OVERLAY_JUDGED:
		return check_judged;
	case FS_OVERLAY_CHECK:
		return fs_check_bytes;
	case FS_OVERLAY_USER_NS:
		/* Checked here anyway, or else only if overlayfs makes it. */
		return wanted || fs_overlay_on_stack(!recheck) ?
		       fs_check_bytes : NULL;
	default:
		return wanted ? fs_check_bytes : NULL;
	}
}

/**
 * fs_check_new_name() - check the new name of a hooked operation
 * @op: FS_OP_CREATE, _MKDIR, _MKNOD, _SYMLINK, _LINK or _RENAME
 * @dir: the directory that gets the name
 * @dentry: the name's dentry
 * @makes_name: false for a rename that makes no name (an exchange, or onto
 *	an existing name: how editors save)
 * @target: a symlink's target, checked as a path after its name if
 *	fs/check_symlink_target is set; NULL for the other operations
 *
 * The whole of a hooked operation's check, in one direction: the policy
 * snapshot and whether this filesystem is watched (fs_check_wanted()); on
 * an overlay, that judgement kept for the overlay operation that follows
 * (overlay_seen.c); what overlay.c says of a name overlayfs makes on its
 * upper layer; then the name (and target) checked, counted and logged.
 * In enforce, a refused name ends the check; in audit a symlink's name
 * and target are both checked and counted.
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
int fs_check_new_name(enum fs_op op, const struct inode *dir,
		      const struct dentry *dentry, bool makes_name,
		      const char *target)
{
	struct utf8guard_policy policy;
	bool wanted = fs_check_wanted(dir->i_sb, &policy);
	fs_check_fn check;
	int verdict;

	if (dir->i_sb->s_magic == OVERLAYFS_SUPER_MAGIC)
		fs_overlay_seen_record(dentry, &policy, wanted);
	/* A temporary name's target, made over a whiteout, is the user's. */
	check = new_name_check(op, &policy, wanted && makes_name, dentry,
			       false);
	if (!check || FS_BENCH_STOP(FS_BENCH_BEFORE_SCAN))
		return 0;
	verdict = check(op, &policy, dentry->d_name.name, dentry->d_name.len);
	if (!verdict && target && fs_check_symlink_target())
		verdict = check(FS_OP_SYMLINK_TARGET, &policy,
				(const u8 *)target, strnlen(target, PATH_MAX));
	return verdict;
}

/**
 * fs_recheck_bytes() - judge again a name a filesystem makes after a lock
 * @op: the operation, for counters and the log line
 * @type: the filesystem type's name
 * @bytes: the name (not NUL-terminated)
 * @len: its length
 *
 * For a probe past the lock an operation judged at its entry then waited
 * for (btrfs.c): in enforce, on a watched filesystem type, the name is
 * judged under the settings of the moment, and a refusal counted and
 * logged; a name let through is not counted again.  Not while an
 * fs/mounts entry names a filesystem of that type: which one the name is
 * made on is not known here.
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
int fs_recheck_bytes(enum fs_op op, const char *type, const u8 *bytes,
		     size_t len)
{
	struct utf8guard_policy policy = utf8guard_policy_get();

	/* Which of its filesystems, and so which entry, is not known here. */
	if (policy.mode != UTF8GUARD_MODE_ENFORCE || !fs_enabled() ||
	    !fs_watches_type(type) || fs_scope_has_type(type))
		return 0;
	return check_judged(op, &policy, bytes, len);
}

/**
 * fs_rename_makes_name() - whether a rename makes a new name
 * @new_dentry: its target
 * @flags: its RENAME_* flags
 *
 * A target that does not exist, unless it is exchanged (both names
 * exist); and a whiteout, replaced or exchanged: its name comes back in
 * an overlay's merged view.  overlayfs makes a name over a whiteout that
 * way, and with the overlay outside fs/fstypes its upper filesystem's
 * check is the only one (review round 12).  Any other existing target
 * keeps its name (how editors save).
 *
 * Context: the caller holds the parents' locks: the target is stable.
 * Return: true if the rename makes a name.
 */
bool fs_rename_makes_name(const struct dentry *new_dentry, unsigned int flags)
{
	if (d_is_negative(new_dentry))
		return !(flags & RENAME_EXCHANGE);
	return IS_WHITEOUT(d_inode(new_dentry));
}

/**
 * fs_recheck_new_name() - judge again a name made after an inode lock
 * @op: FS_OP_LINK or FS_OP_RENAME
 * @dir: the directory that gets the name
 * @dentry: the name's dentry
 * @makes_name: false for a rename that makes no name
 *
 * For the probes on a filesystem's ->rename() and ->link() (after_lock.c):
 * the hook judged the name before the lock the operation then waited for.
 * In enforce, the name is judged as the hook would judge it now; if that
 * refuses it, the settings changed while the operation waited, and the
 * refusal is counted and logged as any.  A name let through is not
 * counted again.
 *
 * Return: -EILSEQ to refuse, otherwise 0.
 */
int fs_recheck_new_name(enum fs_op op, const struct inode *dir,
			const struct dentry *dentry, bool makes_name)
{
	struct utf8guard_policy policy;
	bool wanted = fs_check_wanted(dir->i_sb, &policy);

	if (policy.mode != UTF8GUARD_MODE_ENFORCE ||
	    !new_name_check(op, &policy, wanted && makes_name, dentry, true))
		return 0;
	return check_judged(op, &policy, dentry->d_name.name,
			    dentry->d_name.len);
}
