// SPDX-License-Identifier: GPL-2.0
/*
 * The marks of overlay.c, NMI-safe.  Every user is a kprobe handler, and
 * with int3 kprobes (a kernel without ftrace-based kprobes, or a probe
 * off a function's entry) handlers run in NMI context: no lock may be
 * taken there that normal context takes too, and no memory allocated (on
 * PREEMPT_RT slab takes a sleeping lock).  The debug kernel's lockdep
 * found the first version, a list under a raw spinlock with kmalloc()ed
 * marks, doing both.
 *
 * So the marks are a pool of MARKS_MAX slots in the module's memory.  A
 * slot's owner word (kept apart, in owners[]) says whose it is: 0 (free),
 * MARK_BUSY (being written or given back), or the task that holds it.  A
 * task takes a slot by cmpxchg() within MARKS_WINDOW slots of its home (a
 * hash of its address), so it looks only there for its own; it writes
 * the slot while MARK_BUSY, and publishes it with a release store of its
 * address.
 *
 * Only the owner gives its slots back, except fs_overlay_marks_forget(),
 * which can take any published slot from under its owner: so a reader
 * checks the owner again after reading a slot, and a slot given back and
 * reused meanwhile counts as not found (failing safe).  Copy-up marks are
 * also in a bitmap, for fs_overlay_copying_up() to find other tasks'
 * without reading every slot.
 *
 * A full window is a miss: no mark, so the operation's names are checked
 * as new (a legacy name refused), counted by overlay.c in fs/missed and
 * logged.  A task holds a mark or two at a time (an operation, and a
 * copy-up within it), and operations hold at most the 4 x 512 kretprobe instances of
 * their probes (module_probes.c): the pool has twice that.  Filling it
 * takes thousands of copy-ups stalled at once, each on a lower file of
 * the attacker's that a root-mounted overlay copies up.
 *
 * Names are kept as a SipHash of their bytes, under a key drawn at load:
 * a task can tell nothing of the key, so it cannot make another name with
 * a mark's hash.
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/siphash.h>

#include "overlay_marks.h"

#define MARKS_BITS	12
#define MARKS_MAX	(1U << MARKS_BITS)
#define MARKS_WINDOW	64
#define MARK_BUSY	1L

/* Whose each slot is, apart: a task's window is 8 cache lines. */
static atomic_long_t owners[MARKS_MAX];
static struct mark pool[MARKS_MAX];
static DECLARE_BITMAP(copy_up_slots, MARKS_MAX);
static atomic_t marks_used = ATOMIC_INIT(0);
static siphash_key_t name_key;

/* At load, before any probe: the key of the name hashes. */
void fs_overlay_marks_init(void)
{
	get_random_bytes(&name_key, sizeof(name_key));
}

u64 fs_overlay_name_hash(const struct qstr *name)
{
	return siphash(name->name, name->len, &name_key);
}

/* The @k-th slot of the current task's window. */
static unsigned int window_slot(unsigned int k)
{
	return (hash_ptr(current, MARKS_BITS) + k) & (MARKS_MAX - 1);
}

static bool is_task(long owner)
{
	return owner != 0 && owner != MARK_BUSY;
}

/* Gives back slot @s, which the caller has made MARK_BUSY. */
static void give_back(unsigned int s)
{
	clear_bit(s, copy_up_slots);
	atomic_dec(&marks_used);
	atomic_long_set_release(&owners[s], 0);
}

/**
 * fs_overlay_mark_add() - mark the current task as in an overlay operation
 * @kind: a copy-up, or an operation
 * @op: the operation (MARK_OP)
 * @key: what ends the mark: the dentry (copy-up), the kretprobe instance
 * @dentry: the overlay dentry whose name the operation makes
 * @judged_under: how the overlay's own hook judged that name (MARK_OP;
 *	0: it judged none), compared by overlay.c only
 *
 * Context: probe handler (any context, NMI included).  @dentry is held by
 * the caller and locked against rename.
 *
 * Return: false when no slot was free in the task's window (the caller
 * counts it).
 */
bool fs_overlay_mark_add(enum mark_kind kind, enum mark_op op,
			 const void *key, const struct dentry *dentry,
			 u64 judged_under)
{
	unsigned int k, s;
	struct mark *m;

	for (k = 0; k < MARKS_WINDOW; k++) {
		s = window_slot(k);
		if (atomic_long_read(&owners[s]) ||
		    atomic_long_cmpxchg(&owners[s], 0, MARK_BUSY))
			continue;
		m = &pool[s];
		WRITE_ONCE(m->kind, kind);
		m->op = op;
		m->judged_under = judged_under;
		m->len = dentry->d_name.len;
		m->name_hash = fs_overlay_name_hash(&dentry->d_name);
		m->key = key;
		WRITE_ONCE(m->inode, d_inode(dentry));
		if (kind == MARK_COPY_UP)
			set_bit(s, copy_up_slots);
		atomic_inc(&marks_used);
		atomic_long_set_release(&owners[s], (long)current);
		return true;
	}
	return false;
}

/**
 * fs_overlay_mark_drop() - end the current task's mark of @kind and @key
 * @kind: as given to fs_overlay_mark_add()
 * @key: as given to fs_overlay_mark_add()
 *
 * Context: probe handler (any context).  Nothing if there is no such mark.
 *
 * Return: whether the task held such a mark (even if
 * fs_overlay_marks_forget() took it just now).
 */
bool fs_overlay_mark_drop(enum mark_kind kind, const void *key)
{
	const long me = (long)current;
	unsigned int k, s;

	for (k = 0; k < MARKS_WINDOW; k++) {
		s = window_slot(k);
		if (atomic_long_read_acquire(&owners[s]) != me ||
		    pool[s].kind != kind || pool[s].key != key)
			continue;
		/* Unless fs_overlay_marks_forget() took it just now. */
		if (atomic_long_cmpxchg(&owners[s], me, MARK_BUSY) == me)
			give_back(s);
		return true;
	}
	return false;
}

/* Whether any task holds a mark: the hooks' fast way out. */
bool fs_overlay_marks_any(void)
{
	return atomic_read(&marks_used) != 0;
}

/**
 * fs_overlay_marks_find() - whether one of the current task's marks passes
 * @passes: the test, which reads the mark and nothing it points to but
 *	its super block, and may write to @arg
 * @arg: for @passes
 *
 * Context: probe handler (any context).
 *
 * Return: true if @passes said so of a mark that was the current task's
 * from before the test until after it.
 */
bool fs_overlay_marks_find(bool (*passes)(const struct mark *m, void *arg),
			   void *arg)
{
	const long me = (long)current;
	unsigned int k, s;

	for (k = 0; k < MARKS_WINDOW; k++) {
		s = window_slot(k);
		if (atomic_long_read_acquire(&owners[s]) != me ||
		    !passes(&pool[s], arg))
			continue;
		smp_rmb();	/* the test's reads, before the owner again */
		if (atomic_long_read(&owners[s]) == me)
			return true;
	}
	return false;
}

/**
 * fs_overlay_copying_up() - whether another task is copying @inode up
 * @inode: an overlay inode
 *
 * Context: probe handler (any context).
 *
 * Return: true if another task holds a copy-up mark of @inode.  A mark
 * given back and reused while this looks may give a wrong answer either
 * way; both fail safe (overlay.c, copied_up_by_other()).
 */
bool fs_overlay_copying_up(const void *inode)
{
	unsigned int s;
	long owner;

	if (!fs_overlay_marks_any())
		return false;
	for_each_set_bit(s, copy_up_slots, MARKS_MAX) {
		owner = atomic_long_read_acquire(&owners[s]);
		if (!is_task(owner) || owner == (long)current ||
		    READ_ONCE(pool[s].kind) != MARK_COPY_UP ||
		    READ_ONCE(pool[s].inode) != inode)
			continue;
		smp_rmb();	/* the mark's reads, before the owner again */
		if (atomic_long_read(&owners[s]) == owner)
			return true;
	}
	return false;
}

/*
 * Forget every mark, from process context: at unload once no probe can
 * run, and when the probes are armed or disarmed.
 */
void fs_overlay_marks_forget(void)
{
	unsigned int s;
	long owner;

	for (s = 0; s < MARKS_MAX; s++) {
		owner = atomic_long_read(&owners[s]);
		if (is_task(owner) &&
		    atomic_long_cmpxchg(&owners[s], owner, MARK_BUSY) == owner)
			give_back(s);
	}
}
