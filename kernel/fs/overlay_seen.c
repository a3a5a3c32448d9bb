// SPDX-License-Identifier: GPL-2.0
/*
 * What the overlay's own hook saw: the settings under which it judged a
 * task's new name on an overlay, kept from the hook until the entry of
 * the overlay operation (overlay.c), whose mark records them.  Between
 * the two a task can wait: vfs_link() and vfs_rename() take the source's
 * inode lock after the hook (review round 7), and an admin can change a
 * setting meanwhile.  A mark that recorded the settings at the entry
 * instead would vouch, under the new settings, for a name the hook judged
 * under the old: quiet in audit for a name the new settings refuse.
 *
 * A slot per task, chosen by its pid, of one word: the pid, a part of
 * the name's keyed hash and the settings.  The hook writes it and the
 * entry takes it, both probe handlers (any context, NMI included with
 * int3 kprobes), so without a lock.  When the entry finds nothing (the
 * slot was taken by another task meanwhile, or the probes were disarmed
 * at the hook), its mark says so, and the upper layer checks the name
 * again: counted twice in audit, never passed unjudged.
 */

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/user_namespace.h>

#include "fs_hook.h"
#include "overlay_marks.h"

#define SEEN_BITS	10
#define PID_SHIFT	42		/* bits 63..42: the pid (22 bits) */
#define HASH_SHIFT	14		/* bits 41..14: 28 bits of the name's hash */
#define HASH_MASK	GENMASK_ULL(27, 0)
#define WATCHED		BIT_ULL(0)	/* bit 0: the hook checked the name */
#define MODE_SHIFT	1		/* bits 2..1: the mode */
#define CLASSES_SHIFT	3		/* bits 13..3: the policy's classes */
#define CLASSES_MASK	GENMASK_ULL(10, 0)

static u64 seen[1 << SEEN_BITS];

static u64 seen_key(const struct dentry *dentry)
{
	return (u64)task_pid_nr(current) << PID_SHIFT |
	       (fs_overlay_name_hash(&dentry->d_name) & HASH_MASK) << HASH_SHIFT;
}

static u64 *seen_slot(void)
{
	return &seen[hash_32(task_pid_nr(current), SEEN_BITS)];
}

/**
 * fs_overlay_seen_record() - remember how the hook judged a name
 * @dentry: the new name, on an overlay
 * @policy: the snapshot the hook took
 * @watched: whether the hook checks it (the mode, fs/enabled, fs/fstypes)
 *
 * Context: probe handler (any context, NMI included).
 */
void fs_overlay_seen_record(const struct dentry *dentry,
			    const struct utf8guard_policy *policy, bool watched)
{
	BUILD_BUG_ON(PID_MAX_LIMIT > 1 << (64 - PID_SHIFT));
	BUILD_BUG_ON(UTF8GUARD_CLASS_BIT_COUNT > 11);

	/* Overlays in a user namespace get no mark (overlay.c). */
	if (dentry->d_sb->s_user_ns != &init_user_ns)
		return;
	WRITE_ONCE(*seen_slot(),
		   seen_key(dentry) | (watched ? WATCHED : 0) |
		   (u64)(policy->mode & 3) << MODE_SHIFT |
		   ((u64)policy->classes & CLASSES_MASK) << CLASSES_SHIFT);
}

/**
 * fs_overlay_seen_take() - how the hook judged the current task's name
 * @dentry: the name of the overlay operation just entered
 * @policy: set to the hook's mode and classes
 * @watched: set to whether the hook checked the name
 *
 * Context: probe handler (any context, NMI included).
 * Return: false if no hook of this task judged this name since its last
 * overlay operation (or its slot was taken by another task).
 */
bool fs_overlay_seen_take(const struct dentry *dentry,
			  struct utf8guard_policy *policy, bool *watched)
{
	u64 *slot = seen_slot();
	u64 word = READ_ONCE(*slot);

	if ((word & ~GENMASK_ULL(HASH_SHIFT - 1, 0)) != seen_key(dentry))
		return false;
	cmpxchg64(slot, word, 0);
	*watched = word & WATCHED;
	policy->mode = (word >> MODE_SHIFT) & 3;
	policy->classes = (word >> CLASSES_SHIFT) & CLASSES_MASK;
	return true;
}

/*
 * Forget every slot: with the marks at unload, and when the hook's probes
 * are armed or disarmed (fs_module_probes_set_armed()).
 */
void fs_overlay_seen_forget(void)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(seen); k++)
		WRITE_ONCE(seen[k], 0);
}
