// SPDX-License-Identifier: GPL-2.0
/*
 * overlayfs's own operations on its upper layer.  Copying a lower-layer
 * file up (to write it, chmod it, link it, rename it) ends in a rename or
 * link that gives the upper copy the file's existing name; deleting a
 * lower-layer file ends in a rename of a whiteout onto its name.  Both
 * pass security_inode_rename/link on the upper filesystem, where the name
 * looks new: without this file, a container image's legacy file with a
 * name the policy refuses could be read but not written, renamed to a
 * good name or deleted through the merged view.
 *
 * Probes on overlay.ko (module_probes.c) mark the task while it does one
 * of these:
 * - ovl_copy_up_start() returned 0 (a kretprobe): the task is copying up
 *   the overlay dentry it was given, until ovl_copy_up_end(dentry);
 * - ovl_cleanup_and_whiteout(ofs, dir, upper): the task is about to
 *   rename a whiteout onto that upper dentry.
 * fs_overlay_internal() then lets through a rename or link by that task
 * that gives the copy the file's own name, or the whiteout rename.  Only
 * for overlays mounted in the initial user namespace: the mounter of an
 * overlay in a user namespace chooses its lower layers (a FUSE mount, a
 * filesystem outside fs/fstypes), and copying up would bring their names
 * onto the watched upper filesystem.
 *
 * And a user's new name on an overlay is checked by the overlay's hook,
 * then again on the upper layer when overlayfs creates it there: the
 * overlay's hook remembers what it let through (MARK_JUDGED), so that the
 * same bytes under the same policy are checked and counted once.
 *
 * Failing safe: a mark that cannot be recorded (table full, kretprobe
 * instance missed) only means the operation is checked as before, and
 * refused if the name is bad.  Marks are copies (task, dentry address,
 * name bytes): a stale one is never dereferenced.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/magic.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "fs_hook.h"

enum mark_kind {
	MARK_FREE,
	MARK_COPY_UP,		/* until ovl_copy_up_end(dentry) */
	MARK_WHITEOUT,		/* until the whiteout's rename */
	MARK_JUDGED,		/* until the upper layer's own operation */
};

struct mark {
	enum mark_kind kind;
	const struct task_struct *task;	/* compared, never dereferenced */
	const void *dentry;		/* likewise */
	u64 seq;			/* the oldest hint goes first */
	struct utf8guard_policy policy;	/* MARK_JUDGED: judged under */
	bool target;			/* MARK_JUDGED: symlink target too */
	unsigned int len;
	u8 name[NAME_MAX];
};

/* Concurrent overlay operations across all tasks; more fail safe. */
#define MARKS_MAX	64

/* raw: taken in probe handlers, also on PREEMPT_RT. */
static DEFINE_RAW_SPINLOCK(marks_lock);
static struct mark marks[MARKS_MAX];
static u64 marks_seq;
static atomic_t marks_used = ATOMIC_INIT(0);

static void mark_free(struct mark *m)
{
	lockdep_assert_held(&marks_lock);
	m->kind = MARK_FREE;
	m->task = NULL;
	m->dentry = NULL;
	atomic_dec(&marks_used);
}

/*
 * A free slot; else the oldest hint (a whiteout or judged mark whose
 * task never came back for it); never a copy-up in progress.
 */
static struct mark *mark_slot(void)
{
	struct mark *oldest = NULL;
	unsigned int k;

	lockdep_assert_held(&marks_lock);
	for (k = 0; k < MARKS_MAX; k++) {
		struct mark *m = &marks[k];

		if (m->kind == MARK_FREE)
			return m;
		if (m->kind != MARK_COPY_UP && (!oldest || m->seq < oldest->seq))
			oldest = m;
	}
	if (oldest)
		mark_free(oldest);
	return oldest;
}

/* Drops the current task's marks of @kind (and @dentry, if not NULL). */
static void mark_drop_locked(enum mark_kind kind, const void *dentry)
{
	unsigned int k;

	lockdep_assert_held(&marks_lock);
	for (k = 0; k < MARKS_MAX; k++) {
		struct mark *m = &marks[k];

		if (m->kind == kind && m->task == current &&
		    (!dentry || m->dentry == dentry))
			mark_free(m);
	}
}

static void mark_drop(enum mark_kind kind, const void *dentry)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&marks_lock, flags);
	mark_drop_locked(kind, dentry);
	raw_spin_unlock_irqrestore(&marks_lock, flags);
}

/* Records a mark; a task has at most one whiteout and one judged mark. */
static void mark_add(enum mark_kind kind, const void *dentry,
		     const struct qstr *name,
		     const struct utf8guard_policy *policy, bool target)
{
	unsigned long flags;
	struct mark *m;

	raw_spin_lock_irqsave(&marks_lock, flags);
	if (kind != MARK_COPY_UP)
		mark_drop_locked(kind, NULL);
	m = mark_slot();
	if (m) {
		m->kind = kind;
		m->task = current;
		m->dentry = dentry;
		m->seq = ++marks_seq;
		if (policy)
			m->policy = *policy;
		m->target = target;
		m->len = min_t(unsigned int, name->len, NAME_MAX);
		memcpy(m->name, name->name, m->len);
		atomic_inc(&marks_used);
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	if (!m)
		pr_warn_ratelimited("more than %u overlayfs copy-ups at once: the next is checked as a new name\n",
				    MARKS_MAX);
}

static bool same_name(const struct mark *m, const struct qstr *name)
{
	return m->len == name->len && !memcmp(m->name, name->name, m->len);
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

/**
 * fs_overlay_internal() - is this a name overlayfs makes on its own?
 * @new_dentry: the name to be created (on the upper filesystem)
 * @op: the operation
 * @policy: the snapshot the name would be checked under
 *
 * True, for the current task, when
 * - it is copying up a file of this very name, and this is the link or
 *   rename that names the copy (MARK_COPY_UP);
 * - it is deleting a lower-layer file, and this is the rename of the
 *   whiteout onto that very dentry (MARK_WHITEOUT, then dropped);
 * - this is the upper layer's operation for a name the overlay's own
 *   hook has just judged and let through, under the same policy
 *   (MARK_JUDGED, then dropped): checked and counted once;
 * - it is doing any of these, and the name is a temporary one (but a
 *   temporary symlink only while copying up: its target is checked).
 * None of these lets a name through that was not an existing name or
 * judged acceptable under the very same policy.
 *
 * Context: probe handler (atomic).
 *
 * Return: true to let the operation through unchecked and uncounted.
 */
bool fs_overlay_internal(const struct dentry *new_dentry, enum fs_op op,
			 const struct utf8guard_policy *policy)
{
	const struct qstr *name = &new_dentry->d_name;
	bool temp, internal = false;
	unsigned long flags;
	unsigned int k;

	if (likely(!atomic_read(&marks_used)))
		return false;
	temp = is_temp_name(name);
	raw_spin_lock_irqsave(&marks_lock, flags);
	for (k = 0; k < MARKS_MAX && !internal; k++) {
		struct mark *m = &marks[k];

		if (m->kind == MARK_FREE || m->task != current)
			continue;
		/* A temporary symlink's target is new, unless copied up. */
		internal = temp && (op != FS_OP_SYMLINK ||
				    m->kind == MARK_COPY_UP);
		switch (m->kind) {
		case MARK_COPY_UP:
			internal |= (op == FS_OP_LINK || op == FS_OP_RENAME) &&
				    same_name(m, name);
			break;
		case MARK_WHITEOUT:
			if (op == FS_OP_RENAME && m->dentry == new_dentry &&
			    same_name(m, name)) {
				internal = true;
				mark_free(m);
			}
			break;
		case MARK_JUDGED:
			if (same_name(m, name) &&
			    m->policy.mode == policy->mode &&
			    m->policy.classes == policy->classes &&
			    (op != FS_OP_SYMLINK || m->target ||
			     !fs_check_symlink_target())) {
				internal = true;
				mark_free(m);
			}
			break;
		default:
			break;
		}
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	return internal;
}

/**
 * fs_overlay_judged() - the overlay's own hook let a name through
 * @sb: the superblock of the directory the name is created in
 * @dentry: the name
 * @policy: the snapshot it was judged under
 *
 * On an overlay, remembers the name for the upper layer's operation
 * that follows (fs_overlay_internal()), so that one user operation is
 * checked and counted once.
 *
 * Context: probe handler (atomic).
 */
void fs_overlay_judged(const struct super_block *sb,
		       const struct dentry *dentry,
		       const struct utf8guard_policy *policy)
{
	if (sb->s_magic != OVERLAYFS_SUPER_MAGIC)
		return;
	mark_add(MARK_JUDGED, dentry, &dentry->d_name, policy,
		 fs_check_symlink_target());
}

/**
 * fs_overlay_copying_up() - is the current task copying a file up?
 *
 * A symlink copied up is made in the work directory with the lower
 * symlink's target, which is an existing target, not a new one.
 *
 * Context: probe handler (atomic).
 *
 * Return: true while the task is between ovl_copy_up_start() and
 * ovl_copy_up_end().
 */
bool fs_overlay_copying_up(void)
{
	unsigned long flags;
	bool copying = false;
	unsigned int k;

	if (likely(!atomic_read(&marks_used)))
		return false;
	raw_spin_lock_irqsave(&marks_lock, flags);
	for (k = 0; k < MARKS_MAX; k++)
		copying |= marks[k].kind == MARK_COPY_UP &&
			   marks[k].task == current;
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	return copying;
}

/* Forget every mark: after the probes were disarmed, and at unload. */
void fs_overlay_forget(void)
{
	unsigned long flags;
	unsigned int k;

	raw_spin_lock_irqsave(&marks_lock, flags);
	for (k = 0; k < MARKS_MAX; k++)
		if (marks[k].kind != MARK_FREE)
			mark_free(&marks[k]);
	raw_spin_unlock_irqrestore(&marks_lock, flags);
}

/* int ovl_copy_up_start(struct dentry *dentry, int flags); entry. */
int fs_overlay_copy_up_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	*(struct dentry **)ri->data =
		(struct dentry *)regs_get_kernel_argument(regs, 0);
	return 0;
}

/* ... and return: 0 means the copy-up goes ahead. */
int fs_overlay_copy_up_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct dentry *dentry = *(struct dentry **)ri->data;

	if (regs_return_value(regs) != 0 ||
	    dentry->d_sb->s_user_ns != &init_user_ns)
		return 0;
	/* Held by the caller, and locked against rename by copy-up. */
	mark_add(MARK_COPY_UP, dentry, &dentry->d_name, NULL, false);
	return 0;
}

/* void ovl_copy_up_end(struct dentry *dentry); */
int fs_overlay_copy_up_end(struct kprobe *p, struct pt_regs *regs)
{
	mark_drop(MARK_COPY_UP, (void *)regs_get_kernel_argument(regs, 0));
	return 0;
}

/*
 * int ovl_cleanup_and_whiteout(struct ovl_fs *ofs, struct inode *dir,
 *				struct dentry *dentry);
 * Runs under the overlay's creator credentials (ovl_override_creds()):
 * their user namespace is the mounter's.
 */
int fs_overlay_whiteout(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *upper = (struct dentry *)regs_get_kernel_argument(regs, 2);

	if (current_cred()->user_ns != &init_user_ns)
		return 0;
	/* The caller holds the upper directory's lock: the name is stable. */
	mark_add(MARK_WHITEOUT, upper, &upper->d_name, NULL, false);
	return 0;
}
