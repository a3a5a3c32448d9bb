// SPDX-License-Identifier: GPL-2.0
/*
 * overlayfs's own operations on its upper layer.  Copying a lower-layer
 * file up (to write it, chmod it, link it, rename it) ends in a rename or
 * link that gives the upper copy the file's existing name; deleting a
 * lower-layer file ends in a rename of a whiteout onto its name.  Both
 * pass security_inode_rename/link on the upper filesystem, where the name
 * looks new: without this file, a container image's legacy file with a
 * name the policy refuses could be read but not written, renamed to a
 * good name or deleted through the merged view.  And a user's new name on
 * an overlay is checked by the overlay's hook, then again on the upper
 * layer when overlayfs creates it there: counted twice.
 *
 * Probes on overlay.ko (module_probes.c) mark the task for exactly as long
 * as overlayfs works on its behalf, never longer:
 * - MARK_COPY_UP: from ovl_copy_up_start() returning 0 (a kretprobe) to
 *   ovl_copy_up_end() on the same dentry, or at the latest the return of
 *   ovl_copy_up_one() (a kretprobe, whose return handler runs even if
 *   kprobes were disarmed meanwhile): the link or rename that names the
 *   copy with the dentry's own name passes, and so does the target of a
 *   symlink copied up;
 * - MARK_OP: for the whole of ovl_create_object(), ovl_link(),
 *   ovl_rename() and ovl_do_remove() (kretprobes: entry and return),
 *   with the name the user's operation is about.  The upper layer's
 *   operation on that name passes when the overlay's own hook has judged
 *   it (the overlay is watched), so it is checked and counted once; for a
 *   remove, or a rename onto a name the merged view already has (which
 *   the overlay's hook does not judge), it passes as an existing name.
 * - either way, overlayfs's temporary names ("#" and hex, in its work
 *   directory) pass, but a temporary symlink's target only while copying
 *   up.
 * Only overlays mounted in the initial user namespace get marks: the
 * mounter of an overlay in a user namespace chooses its lower layers (a
 * FUSE mount, a filesystem outside fs/fstypes), and copying up would
 * bring their names onto the watched upper filesystem (a review found a
 * rootless overlay could rename onto a lower layer's bad name that way).
 * Every name they make on the upper layer is checked there as new, as
 * the overlays' hook would check it then, wherever that is
 * (user_ns_verdict()): the upper layer's rules alone let review round 8
 * make refused names on an upper layer outside fs/fstypes, with
 * operations stalled while an admin tightened the settings.
 *
 * These probes stay armed in mode off (module_probes.c): an operation
 * can enter in mode off and make its name after enforce (review round
 * 8), and its mark, which says the hook saw nothing, gets it checked.
 *
 * Failing safe: a mark that cannot be recorded (the pool full around the
 * task, a kretprobe instance missed: counted in fs/missed) only means the
 * operation is checked as before, and refused if the name is bad.  Marks
 * are copies (task, addresses, a keyed hash of the name) in a pool that
 * probe handlers use without locks (overlay_marks.c): a task's or
 * dentry's address is compared, never dereferenced.  A review found that
 * marks which outlived their operation could be reused by the same task,
 * in any directory (a symlink to a bad target, a bad name by
 * dentry-address reuse): hence marks that live exactly as long as the
 * overlay function that made them.
 */

#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>

#include "fs_hook.h"
#include "overlay_marks.h"

/*
 * An overlay mounted in a user namespace: its mounter chose its layers, so
 * nothing of its passes, and any user can stall its operations by the
 * thousand, so they take no kretprobe instance and no mark (review rounds
 * 4 and 5).
 */
static bool in_user_ns(const struct dentry *dentry)
{
	return dentry->d_sb->s_user_ns != &init_user_ns;
}

/* What fs_overlay_internal() asks of the current task's marks. */
struct upper_name {
	const struct qstr *name;
	u64 hash;
	enum fs_op op;
	bool temp;
	const struct utf8guard_policy *policy;	/* the upper check's */
	enum fs_overlay_name verdict;		/* the answer */
};

/*
 * How the overlay's own hook judges a new name under @policy, as one
 * word (a MARK_OP's judged_under): bit 0 set, bit 1 if it checks the
 * name at all (@watched), the mode, and the policy's classes.  A mark
 * made under other settings than the upper check's does not vouch for
 * its name (review round 6: a rename stalled by a lease under mode audit
 * made its refused name after an admin set enforce).  VIEW_UNSEEN: the
 * operation's entry found no judgement of its name (overlay_seen.c), so
 * the mark vouches for nothing.
 */
#define VIEW_JUDGED	BIT_ULL(0)
#define VIEW_WATCHED	BIT_ULL(1)
#define VIEW_UNSEEN	BIT_ULL(4)

static u64 view_of(const struct utf8guard_policy *policy, bool watched)
{
	return VIEW_JUDGED | (watched ? VIEW_WATCHED : 0) |
	       (u64)(policy->mode & 3) << 2 | (u64)policy->classes << 32;
}

/*
 * Whether the overlays' own hook checks new names now (the mode,
 * fs/enabled, fs/fstypes): what fs_check_wanted() asks of an overlay.
 */
static bool overlays_checked(const struct utf8guard_policy *policy)
{
	return policy->mode != UTF8GUARD_MODE_OFF && fs_enabled() &&
	       fs_watches_type("overlay");
}

/* How the overlays' hook would judge a name now. */
static u64 hook_view(const struct utf8guard_policy *policy)
{
	return view_of(policy, overlays_checked(policy));
}

/*
 * How the overlay's hook judged the name @dentry of the operation just
 * entered: as the hook recorded it (overlay_seen.c), not as the settings
 * are at the entry: a task can wait between the two (review round 7).
 */
static u64 judged_view(const struct dentry *dentry)
{
	struct utf8guard_policy policy;
	bool watched;

	if (!fs_overlay_seen_take(dentry, &policy, &watched))
		return VIEW_JUDGED | VIEW_UNSEEN;
	return view_of(&policy, watched);
}

static bool same_name(const struct mark *m, const struct upper_name *u)
{
	return m->len == u->name->len && m->name_hash == u->hash;
}

/* overlayfs's temporary names in its work directory: "#" and hex. */
static bool is_temp_name(const struct qstr *name)
{
	unsigned int k;

	if (name->len < 2 || name->len > 17 || name->name[0] != '#')
		return false;
	for (k = 1; k < name->len; k++)
		if (!isxdigit(name->name[k]))
			return false;
	return true;
}

/* Whether a MARK_OP's operation makes an upper @op of its name. */
static bool op_makes(const struct mark *m, enum fs_op op)
{
	/*
	 * Over a whiteout, a create or link makes a temporary name, then
	 * exchanges it with the whiteout: a rename of the user's name.
	 */
	switch (m->op) {
	case MARK_OP_CREATE:
		return op == FS_OP_CREATE || op == FS_OP_MKDIR ||
		       op == FS_OP_MKNOD || op == FS_OP_SYMLINK ||
		       op == FS_OP_RENAME;
	case MARK_OP_LINK:
		return op == FS_OP_LINK || op == FS_OP_RENAME;
	case MARK_OP_RENAME:
	case MARK_OP_REMOVE:
		return op == FS_OP_RENAME;
	}
	return false;
}

/*
 * What becomes of the user's new name of MARK_OP @m on the upper layer,
 * under @policy and the settings as they are now: checked as the
 * overlay's own hook would check it now, wherever it is made (also on an
 * upper filesystem outside fs/fstypes, and by an exchange with a
 * whiteout, which the upper layer's rules let through): review round 7
 * held a judged operation back on the source's inode lock while an admin
 * tightened a setting, and made refused names that way.  Quietly, when
 * the overlay's hook judged it under these same settings (as the hook
 * recorded them: settings read at the operation's entry, after that
 * wait, hid the audit of a name the hook had passed under laxer ones).  By the upper layer's
 * rules only if the overlay is not checked now.
 */
static enum fs_overlay_name judged_verdict(const struct mark *m,
					   const struct utf8guard_policy *policy)
{
	u64 now = hook_view(policy);

	if (!(now & VIEW_WATCHED))
		return FS_OVERLAY_NOT_OWN;
	return m->judged_under == now ? FS_OVERLAY_JUDGED : FS_OVERLAY_CHECK;
}

/*
 * A new name on the upper layer that no mark answers for.  A task whose
 * credentials are overridden by credentials of a user namespace works
 * for an overlay mounted in one: overlayfs makes every upper operation
 * with its mounter's credentials, and kernel services that override
 * credentials (knfsd, ksmbd, cachefiles) use the initial namespace's;
 * two that use the task's own (an io_uring personality, a core dump) are
 * told apart by the task's stack where that matters, on a filesystem
 * outside fs/fstypes (overlay_stack.c, FS_OVERLAY_USER_NS).
 * Such an overlay's names are all checked as new, as the overlays' own
 * hook would check them now (fs/fstypes "overlay"), wherever they are
 * made: its mounter chose its layers and can stall its operations while
 * the settings change (review round 8).  Not a rename onto a name the
 * upper layer has (an exchange, a save by rename, a whiteout put in
 * place): it makes no name; but onto a whiteout, or exchanged with one,
 * it makes a name the merged view did not have (review round 10: a
 * whiteout named 61 FF 62, which anyone can make on an upper layer
 * outside fs/fstypes, let a stalled rename make that name after
 * enforce).  Else the upper layer's rules.
 */
static enum fs_overlay_name user_ns_verdict(const struct dentry *dentry,
					    enum fs_op op,
					    const struct utf8guard_policy *policy)
{
	const struct cred *cred = current_cred();

	if (likely(cred == current_real_cred()) ||
	    cred->user_ns == &init_user_ns ||
	    (op == FS_OP_RENAME && d_is_positive(dentry) &&
	     !IS_WHITEOUT(d_inode(dentry))))
		return FS_OVERLAY_NOT_OWN;
	return overlays_checked(policy) ? FS_OVERLAY_USER_NS :
					  FS_OVERLAY_NOT_OWN;
}

/* What the current task's mark @m says of the upper operation @u. */
static enum fs_overlay_name mark_verdict(const struct mark *m,
					 const struct upper_name *u)
{
	if (m->kind == MARK_COPY_UP)
		return u->temp ||
		       ((u->op == FS_OP_LINK || u->op == FS_OP_RENAME) &&
			same_name(m, u)) ? FS_OVERLAY_OWN : FS_OVERLAY_NOT_OWN;
	/*
	 * A temporary symlink's target is new: it passes only as the
	 * user's own symlink, made over a whiteout, judged on the overlay.
	 */
	if (u->temp) {
		if (u->op != FS_OP_SYMLINK)
			return FS_OVERLAY_OWN;
		return m->op == MARK_OP_CREATE && m->judged_under ?
		       judged_verdict(m, u->policy) : FS_OVERLAY_NOT_OWN;
	}
	if (!op_makes(m, u->op) || !same_name(m, u))
		return FS_OVERLAY_NOT_OWN;
	/*
	 * A whiteout, or a rename onto a name the merged view has (which the
	 * overlay's hook does not judge: it exists): an existing name made
	 * again on the upper layer.
	 */
	if (m->op == MARK_OP_REMOVE || !m->judged_under)
		return FS_OVERLAY_OWN;
	return judged_verdict(m, u->policy);
}

static bool mark_answers(const struct mark *m, void *arg)
{
	struct upper_name *u = arg;

	u->verdict = mark_verdict(m, u);
	return u->verdict != FS_OVERLAY_NOT_OWN;
}

/**
 * fs_overlay_internal() - is this a name overlayfs makes on its own?
 * @new_dentry: the name to be created (on the upper filesystem)
 * @op: the operation
 * @policy: the snapshot the upper check is made under
 *
 * Context: probe handler (any context, NMI included).
 *
 * Return: what the current task's overlay operation (see the top of this
 * file) says of this name: FS_OVERLAY_OWN for an existing name made again
 * (the copy of a file copied up, the whiteout of a file deleted) or a
 * temporary name: let it through unchecked and uncounted;
 * FS_OVERLAY_JUDGED for the user's new name that the overlay's own hook
 * judged under the settings the upper check has now: refuse it only if
 * @policy refuses it in enforce (the settings changed since the hook and
 * back), else let it through uncounted;
 * FS_OVERLAY_CHECK for the user's new name judged under other settings:
 * check and count it.  Both whatever the upper filesystem and the kind
 * of rename.  FS_OVERLAY_USER_NS for a name that no mark answers for,
 * made with a user namespace's credentials while overlays are checked:
 * checked as FS_OVERLAY_CHECK if overlayfs makes it (the caller asks
 * fs_overlay_on_stack() where the answer matters).
 * FS_OVERLAY_NOT_OWN otherwise: the upper layer's rules.
 */
enum fs_overlay_name fs_overlay_internal(const struct dentry *new_dentry,
					 enum fs_op op,
					 const struct utf8guard_policy *policy)
{
	struct upper_name u = { .name = &new_dentry->d_name, .op = op,
				.policy = policy };

	if (!fs_overlay_marks_any())
		return user_ns_verdict(new_dentry, op, policy);
	u.temp = is_temp_name(u.name);
	u.hash = fs_overlay_name_hash(u.name);
	if (!fs_overlay_marks_find(mark_answers, &u))
		return user_ns_verdict(new_dentry, op, policy);
	return u.verdict;
}

/* Forget every mark and what the hook saw: at unload, once no probe can run. */
void fs_overlay_forget(void)
{
	fs_overlay_marks_forget();
	fs_overlay_seen_forget();
}

/* At load, before any probe is registered. */
void fs_overlay_init(void)
{
	fs_overlay_marks_init();
}

/*
 * Misses, in fs/missed: operations whose mark could not be recorded (a
 * full window of the pool), and copy-ups that ended without a mark of
 * their task (the same, or a task that waited for another's copy-up of
 * the file, which then failed, and copied it up itself; or marks
 * forgotten as the probes were armed): their names were checked as new.
 */
static atomic64_t ops_unmarked = ATOMIC64_INIT(0);
static atomic64_t copy_ups_unmarked = ATOMIC64_INIT(0);

u64 fs_overlay_missed(void)
{
	return atomic64_read(&ops_unmarked) +
	       atomic64_read(&copy_ups_unmarked);
}

/*
 * Whether another task is copying @dentry's inode up (it holds a copy-up
 * mark for it, so it has the overlay inode's copy-up lock; hard links with
 * index=on are other dentries of that inode).  This task will wait in
 * ovl_copy_up_start() and then, as a rule, find the file copied up: it
 * takes no kretprobe instance for that.  Review round 3 had 1100 tasks
 * waiting behind one copy-up that a lease on the lower file stalled: they
 * held all 1024 instances, and every other copy-up on the system was
 * missed; round 4 did it again through a hard link (hence the inode).
 * Should the copy-up it waited for fail, this task copies up unmarked, and
 * a legacy name is refused once (failing safe).
 */
static bool copied_up_by_other(const struct dentry *dentry)
{
	return fs_overlay_copying_up(d_inode(dentry));
}

/*
 * int ovl_copy_up_start(struct dentry *dentry, int flags); entry.  Like
 * every entry handler, returning 1 gives the instance back at once and
 * skips the return handler.  A user namespace's overlay takes none, and
 * makes no mark (round 4 had its waiters hold every instance).
 */
int fs_overlay_copy_up_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);

	if (in_user_ns(dentry) || copied_up_by_other(dentry))
		return 1;
	*(struct dentry **)ri->data = dentry;
	return 0;
}

/* ... and return: 0 means the copy-up goes ahead. */
int fs_overlay_copy_up_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct dentry *dentry = *(struct dentry **)ri->data;

	if (regs_return_value(regs) != 0)
		return 0;
	/*
	 * Held by the caller, and locked against rename by copy-up.  A mark
	 * not recorded is counted when the copy-up ends without one.
	 */
	fs_overlay_mark_add(MARK_COPY_UP, MARK_OP_CREATE, dentry, dentry, 0);
	return 0;
}

/*
 * void ovl_copy_up_end(struct dentry *dentry); the end of every copy-up
 * whose ovl_copy_up_start() returned 0.
 */
int fs_overlay_copy_up_end(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);

	if (!fs_overlay_mark_drop(MARK_COPY_UP, dentry) && !in_user_ns(dentry))
		atomic64_inc(&copy_ups_unmarked);
	return 0;
}

static bool copy_up_of(const struct mark *m, void *dentry)
{
	return m->kind == MARK_COPY_UP && m->key == dentry;
}

/*
 * int ovl_set_nlink_lower(struct dentry *dentry); called only by copy-up's
 * ovl_link_up(), under the overlay inode's copy-up lock, just before it
 * links the file copied up to @dentry's name: with index=on, another hard
 * link of an inode that a task copied up.  A task that waited for that
 * copy-up took no mark (copied_up_by_other()), and its link-up of a
 * legacy name was refused (review round 6: appending to a legacy hard
 * link while another task copied up the other name failed with EILSEQ).
 * It takes one now, without a kretprobe instance; its ovl_copy_up_end()
 * gives it back.
 */
int fs_overlay_link_up(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);

	if (in_user_ns(dentry) || fs_overlay_marks_find(copy_up_of, dentry))
		return 0;
	fs_overlay_mark_add(MARK_COPY_UP, MARK_OP_CREATE, dentry, dentry, 0);
	return 0;
}

/*
 * static int ovl_copy_up_one(struct dentry *parent, struct dentry *dentry,
 *			      int flags);
 * its return ends the copy-up whatever happened: a mark that
 * ovl_copy_up_end() could not drop (its probe disarmed meanwhile) goes.
 */
int fs_overlay_copy_up_one_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 1);

	if (in_user_ns(dentry) || copied_up_by_other(dentry))
		return 1;
	*(struct dentry **)ri->data = dentry;
	return 0;
}

int fs_overlay_copy_up_one_return(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	fs_overlay_mark_drop(MARK_COPY_UP, *(struct dentry **)ri->data);
	return 0;
}

/*
 * Entry of an overlay operation on the dentry in argument @arg; @judged:
 * the overlay's hook judged that name (a new one), under the settings
 * the mark records.
 */
static int op_entry(struct kretprobe_instance *ri, struct pt_regs *regs,
		    enum mark_op op, unsigned int arg, bool judged)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, arg);
	bool marked;

	/*
	 * No instance, so no mark (returning 1 gives it back at once): review
	 * round 5 blocked 1060 such operations and emptied the 512 instances,
	 * and root-mounted overlays could no longer delete legacy files.  The
	 * cost: a new name made through a user namespace's overlay is checked
	 * and counted twice, on the overlay and on the upper filesystem, under
	 * the overlays' settings there (user_ns_verdict()).
	 */
	if (in_user_ns(dentry))
		return 1;
	marked = fs_overlay_mark_add(MARK_OP, op, ri, dentry,
				     judged ? judged_view(dentry) : 0);
	if (!marked)
		atomic64_inc(&ops_unmarked);
	*(bool *)ri->data = marked;
	return 0;
}

/* static int ovl_create_object(struct dentry *dentry, int mode, ...); */
int fs_overlay_create_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return op_entry(ri, regs, MARK_OP_CREATE, 0, true);
}

/* static int ovl_link(struct dentry *old, struct inode *newdir,
 *		       struct dentry *new);
 */
int fs_overlay_link_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return op_entry(ri, regs, MARK_OP_LINK, 2, true);
}

/* static int ovl_rename(idmap, struct inode *olddir, struct dentry *old,
 *			 struct inode *newdir, struct dentry *new, flags);
 * Onto a name the merged view has, or an exchange, the overlay's hook
 * judges nothing (security_inode_rename() of an existing name).
 */
int fs_overlay_rename_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct dentry *new = (struct dentry *)regs_get_kernel_argument(regs, 4);
	unsigned int flags = regs_get_kernel_argument(regs, 5);

	return op_entry(ri, regs, MARK_OP_RENAME, 4,
			d_is_negative(new) && !(flags & RENAME_EXCHANGE));
}

/* static int ovl_do_remove(struct dentry *dentry, bool is_dir); */
int fs_overlay_remove_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return op_entry(ri, regs, MARK_OP_REMOVE, 0, false);
}

/* The return of each of them: the mark goes. */
int fs_overlay_op_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (*(bool *)ri->data)
		fs_overlay_mark_drop(MARK_OP, ri);
	return 0;
}
