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
 *   kprobes were disarmed meanwhile; not for a user namespace's overlay,
 *   whose marks pass nothing and only tell waiters of the copy-up, see
 *   copied_up_by_other()): the link or rename that names the
 *   copy with the dentry's own name passes, and so does the target of a
 *   symlink copied up;
 * - MARK_OP: for the whole of ovl_create_object(), ovl_link(),
 *   ovl_rename() and ovl_do_remove() (kretprobes: entry and return),
 *   with the name the user's operation is about.  The upper layer's
 *   operation on that name passes when the overlay's own hook has judged
 *   it (the overlay is watched), so it is checked and counted once; for a
 *   remove, or a rename onto a name the merged view already has (which
 *   the overlay's hook does not judge), it passes as an existing name, for
 *   root-mounted overlays only (a review found a rootless overlay could
 *   otherwise rename onto a lower layer's bad name on the upper fs).
 * - either way, overlayfs's temporary names ("#" and hex, in its work
 *   directory) pass, but a temporary symlink's target only while copying
 *   up.
 * Copy-ups and whiteouts pass only for overlays mounted in the initial
 * user namespace: the mounter of an overlay in a user namespace chooses
 * its lower layers (a FUSE mount, a filesystem outside fs/fstypes), and
 * copying up would bring their names onto the watched upper filesystem.
 *
 * Failing safe: a mark that cannot be recorded (no memory, a kretprobe
 * instance missed: counted in fs/missed) only means the operation is
 * checked as before, and refused if the name is bad.  Marks are copies
 * (task, addresses, name bytes): a task's or dentry's address is compared,
 * never dereferenced.  A review found that marks which outlived their
 * operation could be reused by the same task, in any directory (a symlink
 * to a bad target, a bad name by dentry-address reuse): hence marks that
 * live exactly as long as the overlay function that made them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/ptrace.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "fs_hook.h"

enum mark_kind {
	MARK_COPY_UP,		/* until ovl_copy_up_end(dentry) */
	MARK_OP,		/* until the overlay operation returns */
};

/* What a MARK_OP's overlay operation does with its name. */
enum mark_op {
	MARK_OP_CREATE,		/* create, mkdir, mknod, symlink */
	MARK_OP_LINK,
	MARK_OP_RENAME,
	MARK_OP_REMOVE,		/* unlink, rmdir: a whiteout */
};

struct mark {
	struct hlist_node node;
	enum mark_kind kind;
	enum mark_op op;
	const struct task_struct *task;	/* compared, never dereferenced */
	const void *key;	/* the dentry (copy-up), the instance (op) */
	const void *inode;	/* the dentry's inode (copy-up) */
	const struct super_block *sb;	/* MARK_OP: the overlay's */
	bool init_ns;		/* the overlay's user namespace is the initial */
	bool judged;		/* MARK_OP: its hook judged the name */
	unsigned int len;
	u8 name[];
};

#define MARKS_HASH_BITS	6

/* raw: taken in probe handlers, also on PREEMPT_RT. */
static DEFINE_RAW_SPINLOCK(marks_lock);
static struct hlist_head marks[1 << MARKS_HASH_BITS];
static atomic_t marks_used = ATOMIC_INIT(0);

/*
 * An overlay mounted in a user namespace: its mounter chose its layers, so
 * its marks pass nothing, and any user can stall its operations by the
 * thousand, so they take no kretprobe instance (review round 5).
 */
static bool in_user_ns(const struct dentry *dentry)
{
	return dentry->d_sb->s_user_ns != &init_user_ns;
}

static struct hlist_head *task_marks(const struct task_struct *task)
{
	return &marks[hash_ptr(task, MARKS_HASH_BITS)];
}

/* Records a mark of the current task; NULL when there is no memory. */
static struct mark *mark_add(enum mark_kind kind, enum mark_op op,
			     const void *key, const struct dentry *dentry,
			     bool judged)
{
	unsigned int len = min_t(unsigned int, dentry->d_name.len, NAME_MAX);
	unsigned long flags;
	struct mark *m;

	m = kmalloc(struct_size(m, name, len),
		    GFP_ATOMIC | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (!m)
		return NULL;
	m->kind = kind;
	m->op = op;
	m->task = current;
	m->key = key;
	m->inode = d_inode(dentry);
	m->sb = dentry->d_sb;
	m->init_ns = !in_user_ns(dentry);
	m->judged = judged;
	m->len = len;
	/* The caller holds the dentry, and overlayfs locks it for the op. */
	memcpy(m->name, dentry->d_name.name, len);
	raw_spin_lock_irqsave(&marks_lock, flags);
	hlist_add_head(&m->node, task_marks(current));
	atomic_inc(&marks_used);
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	return m;
}

/* Drops the current task's mark of @kind and @key, if there is one. */
static void mark_drop(enum mark_kind kind, const void *key)
{
	struct mark *m, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&marks_lock, flags);
	hlist_for_each_entry(m, task_marks(current), node) {
		if (m->task == current && m->kind == kind && m->key == key) {
			hlist_del(&m->node);
			atomic_dec(&marks_used);
			found = m;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	kfree(found);
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

/* Whether a MARK_OP's operation makes an upper @op of its name. */
static bool op_makes(const struct mark *m, enum fs_op op)
{
	switch (m->op) {
	case MARK_OP_CREATE:
		return op == FS_OP_CREATE || op == FS_OP_MKDIR ||
		       op == FS_OP_MKNOD || op == FS_OP_SYMLINK;
	case MARK_OP_LINK:
		return op == FS_OP_LINK;
	case MARK_OP_RENAME:
	case MARK_OP_REMOVE:
		return op == FS_OP_RENAME;
	}
	return false;
}

/* Whether the overlay's own hook checked MARK_OP @m's name (and target). */
static bool judged_on_overlay(const struct mark *m)
{
	return m->judged && fs_enabled() && fs_watches(m->sb);
}

/* Under marks_lock: whether mark @m lets @op of @name through. */
static bool mark_passes(const struct mark *m, const struct qstr *name,
			enum fs_op op, bool temp)
{
	if (m->kind == MARK_COPY_UP)
		return m->init_ns &&
		       (temp || ((op == FS_OP_LINK || op == FS_OP_RENAME) &&
				 same_name(m, name)));
	/*
	 * A temporary symlink's target is new: it passes only as the
	 * user's own symlink, made over a whiteout, judged on the overlay.
	 */
	if (temp)
		return op != FS_OP_SYMLINK ||
		       (m->op == MARK_OP_CREATE && judged_on_overlay(m));
	if (!op_makes(m, op) || !same_name(m, name))
		return false;
	/*
	 * A whiteout, or a rename onto a name the merged view has (which the
	 * overlay's hook does not judge: it exists): an existing name made
	 * again on the upper layer, if the mounter is trusted.
	 */
	if (m->op == MARK_OP_REMOVE || !m->judged)
		return m->init_ns;
	/* Judged by the overlay's own hook, if it watches the overlay. */
	return judged_on_overlay(m);
}

/**
 * fs_overlay_internal() - is this a name overlayfs makes on its own?
 * @new_dentry: the name to be created (on the upper filesystem)
 * @op: the operation
 *
 * Context: probe handler (atomic).
 *
 * Return: true, to let it through unchecked and uncounted, when the
 * current task is in an overlay operation (see the top of this file) that
 * makes this name: the copy of a file copied up, the whiteout of a file
 * deleted, the name the overlay's own hook has just judged, or a
 * temporary name.
 */
bool fs_overlay_internal(const struct dentry *new_dentry, enum fs_op op)
{
	const struct qstr *name = &new_dentry->d_name;
	bool temp, internal = false;
	const struct mark *m;
	unsigned long flags;

	if (likely(!atomic_read(&marks_used)))
		return false;
	temp = is_temp_name(name);
	raw_spin_lock_irqsave(&marks_lock, flags);
	hlist_for_each_entry(m, task_marks(current), node) {
		if (m->task == current && mark_passes(m, name, op, temp)) {
			internal = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	return internal;
}

/*
 * Forget every mark: at unload, once no probe can run, and when the
 * probes are armed or disarmed (a disarmed ovl_copy_up_end() probe would
 * leave its copy-up's mark behind).  A copy-up in flight then has its
 * legacy name checked as new: failing safe.
 */
void fs_overlay_forget(void)
{
	struct hlist_node *tmp;
	unsigned long flags;
	struct mark *m;
	HLIST_HEAD(dead);
	unsigned int k;

	raw_spin_lock_irqsave(&marks_lock, flags);
	for (k = 0; k < ARRAY_SIZE(marks); k++) {
		hlist_for_each_entry_safe(m, tmp, &marks[k], node) {
			hlist_del(&m->node);
			hlist_add_head(&m->node, &dead);
			atomic_dec(&marks_used);
		}
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	hlist_for_each_entry_safe(m, tmp, &dead, node)
		kfree(m);
}

/*
 * Whether another task is copying @dentry's inode up (it holds a copy-up
 * mark for it, so it has the overlay inode's copy-up lock; hard links with
 * index=on are other dentries of that inode).  This task will wait in
 * ovl_copy_up_start() and then, as a rule, find the file copied up: it
 * takes no kretprobe instance for that.  Review round 3 had 1100 tasks
 * waiting behind one copy-up that a lease on the lower file stalled: they
 * held all 1024 instances, and every other copy-up on the system was
 * missed; round 4 did it again through a hard link and through an overlay
 * in a user namespace (which now gets marks too, that pass nothing).
 * Should the copy-up it waited for fail, this task copies up unmarked, and
 * a legacy name is refused once (failing safe).
 */
static bool copied_up_by_other(const struct dentry *dentry)
{
	const struct inode *inode = d_inode(dentry);
	const struct mark *m;
	unsigned long flags;
	bool other = false;
	unsigned int k;

	if (likely(!atomic_read(&marks_used)))
		return false;
	raw_spin_lock_irqsave(&marks_lock, flags);
	for (k = 0; k < ARRAY_SIZE(marks) && !other; k++) {
		hlist_for_each_entry(m, &marks[k], node) {
			if (m->kind == MARK_COPY_UP && m->inode == inode &&
			    m->task != current) {
				other = true;
				break;
			}
		}
	}
	raw_spin_unlock_irqrestore(&marks_lock, flags);
	return other;
}

/*
 * int ovl_copy_up_start(struct dentry *dentry, int flags); entry.  Like
 * every entry handler, returning 1 gives the instance back at once and
 * skips the return handler.
 */
int fs_overlay_copy_up_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);

	if (copied_up_by_other(dentry))
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
	 * Held by the caller, and locked against rename by copy-up.  In a
	 * user namespace's overlay the mark passes nothing (mark_passes()):
	 * it only tells waiters that this copy-up is under way.
	 */
	mark_add(MARK_COPY_UP, MARK_OP_CREATE, dentry, dentry, false);
	return 0;
}

/* void ovl_copy_up_end(struct dentry *dentry); */
int fs_overlay_copy_up_end(struct kprobe *p, struct pt_regs *regs)
{
	mark_drop(MARK_COPY_UP, (void *)regs_get_kernel_argument(regs, 0));
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

	/* A user namespace's marks, which pass nothing: ovl_copy_up_end(). */
	if (in_user_ns(dentry) || copied_up_by_other(dentry))
		return 1;
	*(struct dentry **)ri->data = dentry;
	return 0;
}

int fs_overlay_copy_up_one_return(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	mark_drop(MARK_COPY_UP, *(struct dentry **)ri->data);
	return 0;
}

/*
 * Entry of an overlay operation on the dentry in argument @arg; @judged:
 * the overlay's hook checked that name (a new one).
 */
static int op_entry(struct kretprobe_instance *ri, struct pt_regs *regs,
		    enum mark_op op, unsigned int arg, bool judged)
{
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, arg);

	/*
	 * No instance, so no mark (returning 1 gives it back at once): review
	 * round 5 blocked 1060 such operations and emptied the 512 instances,
	 * and root-mounted overlays could no longer delete legacy files.  The
	 * cost: a new name made through a user namespace's overlay is checked
	 * and counted twice, on the overlay and on the upper filesystem.
	 */
	if (in_user_ns(dentry))
		return 1;
	*(struct mark **)ri->data = mark_add(MARK_OP, op, ri, dentry, judged);
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
	if (*(struct mark **)ri->data)
		mark_drop(MARK_OP, ri);
	return 0;
}
