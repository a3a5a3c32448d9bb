// SPDX-License-Identifier: GPL-2.0
/*
 * A rename or link judged before a lock, made after it.
 *
 * vfs_rename() and vfs_link() call security_inode_rename() and
 * security_inode_link(), where probes.c checks the new name, before they
 * take the lock of the inode that moves or gets the link.  A task can be
 * held on that lock for as long as another holds it (a write from a FUSE
 * mapping holds it indefinitely), so a name checked under laxer settings
 * (mode audit or off, fs/enabled 0, a filesystem outside fs/fstypes, a
 * laxer policy) was made after an admin tightened them: unchecked and
 * uncounted (review round 11, finding 1).  A module reloaded meanwhile
 * (finding 2) had forgotten what it had judged.
 *
 * So the filesystem's own ->rename() and ->link(), which vfs_rename() and
 * vfs_link() call right after that lock, are probed too: in mode enforce
 * their pre-handler judges the new name again under the settings of the
 * moment, and refuses it if they refuse it (counted and logged as any
 * refusal); a name they let through is not counted again.
 *
 * Which functions: each directory's inode operations name them.  At load
 * every mounted filesystem's root directory is looked at
 * (/proc/filesystems, then each type's superblocks, from a work item);
 * then every filesystem mounted, from a probe on the mount's
 * security_sb_set_mnt_opts(), armed even in mode off; and the hook's
 * rename and link probes note the directory of every operation they see.
 * Noted from atomic context into a fixed table, registered from by a work
 * item.  A change of the mode or of an fs/ setting waits for that work
 * first (fs_after_lock_flush(), from idle.c's notifiers), so an operation
 * seen before the change is probed after it.
 * A full table, or a function that cannot be probed, is counted in
 * fs/missed and logged.
 */
#include <linux/completion.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "fs_hook.h"

/* Two per filesystem type (rename and link), and room for more. */
#define AFTER_LOCK_SLOTS 64

struct after_lock_slot {
	unsigned long addr;	/* claimed with cmpxchg(); 0: free */
	enum fs_op op;		/* FS_OP_RENAME or FS_OP_LINK */
	bool noted;		/* addr and op whole: registrable */
	bool registered;	/* under slots_mutex */
	struct kprobe kp;
};

static struct after_lock_slot slots[AFTER_LOCK_SLOTS];
static DEFINE_MUTEX(slots_mutex);
/* Under slots_mutex: whether the probes are armed (idle.c). */
static bool armed = true;
/* Functions not probed: a full table, or a failed registration. */
static atomic64_t not_probed = ATOMIC64_INIT(0);
static void register_slots(struct work_struct *work);
static DECLARE_WORK(register_work, register_slots);

/*
 * A note comes from a probe handler, which lockdep and the kernel treat
 * as NMI (an int3 kprobe): no workqueue locks there, but an irq_work,
 * which queues the registration from interrupt context.
 */
static void queue_register(struct irq_work *work)
{
	queue_work(system_wq, &register_work);
}

static struct irq_work register_irq_work = IRQ_WORK_INIT(queue_register);

/*
 * int (*rename)(struct mnt_idmap * or struct user_namespace *,
 *		 struct inode *old_dir, struct dentry *old_dentry,
 *		 struct inode *new_dir, struct dentry *new_dentry,
 *		 unsigned int flags);
 * The caller holds both parents' locks and the inodes': the target's
 * state is stable.  As at security_inode_rename(): only a name that does
 * not exist yet, or a whiteout, is new (fs_rename_makes_name()).
 */
static int pre_fs_rename(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *old_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 2);
	struct inode *new_dir =
		(struct inode *)regs_get_kernel_argument(regs, 3);
	struct dentry *new_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 4);
	unsigned int flags = regs_get_kernel_argument(regs, 5);

	if (unlikely(READ_ONCE(fs_canary.task) == current ||
		     IS_PRIVATE(d_backing_inode(old_dentry)) ||
		     (d_is_positive(new_dentry) &&
		      IS_PRIVATE(d_backing_inode(new_dentry)))))
		return 0;
	return fs_probe_refuse(regs,
			       fs_recheck_new_name(FS_OP_RENAME, new_dir,
						   new_dentry,
						   fs_rename_makes_name(new_dentry,
									flags)));
}

/*
 * int (*link)(struct dentry *old_dentry, struct inode *dir,
 *	       struct dentry *new_dentry);
 */
static int pre_fs_link(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *old_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);
	struct inode *dir = (struct inode *)regs_get_kernel_argument(regs, 1);
	struct dentry *new_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 2);

	if (unlikely(READ_ONCE(fs_canary.task) == current ||
		     IS_PRIVATE(d_backing_inode(old_dentry))))
		return 0;
	return fs_probe_refuse(regs, fs_recheck_new_name(FS_OP_LINK, dir,
							 new_dentry, true));
}

/* Whether @slot probes @addr now (not a function of a module gone since). */
static bool slot_holds(struct after_lock_slot *slot, unsigned long addr)
{
	if (READ_ONCE(slot->addr) != addr)
		return false;
	/* Registered and gone: its module went, and may be back there. */
	return !(smp_load_acquire(&slot->registered) && kprobe_gone(&slot->kp));
}

/*
 * Nothing, but a test build (tests/fs/kmod/slownote_after_lock.c) waits
 * there, to show that the registration never takes a half-written slot.
 */
#ifndef AFTER_LOCK_NOTE_PAUSE
#define AFTER_LOCK_NOTE_PAUSE()
#endif

static void note(unsigned long addr, enum fs_op op)
{
	unsigned int k;

	for (k = 0; k < AFTER_LOCK_SLOTS; k++)
		if (slot_holds(&slots[k], addr))
			return;
	for (k = 0; k < AFTER_LOCK_SLOTS; k++) {
		if (READ_ONCE(slots[k].addr) || cmpxchg(&slots[k].addr, 0, addr))
			continue;
		/*
		 * The registration runs meanwhile, perhaps: it takes only a
		 * slot whose op is written (review round 13: a ->rename
		 * given pre_fs_link oopsed).
		 */
		AFTER_LOCK_NOTE_PAUSE();
		slots[k].op = op;
		/* Pairs with the acquire in register_slots(). */
		smp_store_release(&slots[k].noted, true);
		irq_work_queue(&register_irq_work);
		return;
	}
	atomic64_inc(&not_probed);
	pr_warn_ratelimited("no room to probe %ps: a %s waiting for an inode lock across a change of the settings is not judged again\n",
			    (void *)addr, fs_op_name(op));
}

/**
 * fs_after_lock_note() - probe a directory's rename and link functions
 * @dir: a directory whose operations a name is made with
 *
 * Context: any context (probe handlers): no sleeping, no allocation; the
 * registration is left to a work item.
 */
void fs_after_lock_note(const struct inode *dir)
{
	const struct inode_operations *iop = READ_ONCE(dir->i_op);

	if (!iop)
		return;
	if (iop->rename)
		note((unsigned long)iop->rename, FS_OP_RENAME);
	if (iop->link)
		note((unsigned long)iop->link, FS_OP_LINK);
}

/* Whether an earlier slot already probes @slot's function. */
static bool duplicate(const struct after_lock_slot *slot)
{
	struct after_lock_slot *s;

	for (s = slots; s < slot; s++)
		if (s->registered && s->addr == slot->addr &&
		    !kprobe_gone(&s->kp))
			return true;
	return false;
}

static int register_probe(struct after_lock_slot *slot)
{
	int ret;

	memset(&slot->kp, 0, sizeof(slot->kp));
	slot->kp.addr = (kprobe_opcode_t *)slot->addr;
	slot->kp.pre_handler = slot->op == FS_OP_RENAME ? pre_fs_rename :
							  pre_fs_link;
	slot->kp.flags = KPROBE_FLAG_DISABLED;
	/* A post_handler only on an int3 kprobe (fs_register_kprobe()). */
	ret = fs_register_kprobe(&slot->kp);
	if (ret || !armed)
		return ret;
	ret = enable_kprobe(&slot->kp);
	if (ret)
		unregister_kprobe(&slot->kp);
	return ret;
}

static void register_slot(struct after_lock_slot *slot)
{
	int ret = register_probe(slot);

	if (ret) {
		atomic64_inc(&not_probed);
		pr_err("cannot probe %ps (a filesystem's %s): error %d; a %s waiting for an inode lock across a change of the settings is not judged again\n",
		       (void *)slot->addr, fs_op_name(slot->op), ret,
		       fs_op_name(slot->op));
		return;
	}
	/* Pairs with the acquires of the readers without slots_mutex. */
	smp_store_release(&slot->registered, true);
}

static void register_slots(struct work_struct *work)
{
	struct after_lock_slot *slot;

	mutex_lock(&slots_mutex);
	for (slot = slots; slot < slots + AFTER_LOCK_SLOTS; slot++) {
		/*
		 * A slot whose registration failed keeps its address.  The
		 * acquire pairs with note()'s release: op is written.
		 */
		if (!smp_load_acquire(&slot->noted) || slot->registered ||
		    slot->kp.addr)
			continue;
		if (duplicate(slot)) {
			slot->kp.addr = (kprobe_opcode_t *)slot->addr;
			continue;
		}
		register_slot(slot);
	}
	mutex_unlock(&slots_mutex);
}

/*
 * A filesystem module going: its functions' probes go with it, and their
 * slots are free again.  Left registered, they would stay in kprobes'
 * table, gone, and a probe registered again where the module loads next
 * (often the same address) would join them.
 */
static int module_going(struct notifier_block *nb, unsigned long state,
			void *data)
{
	struct after_lock_slot *slot;
	struct module *mod = data;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&slots_mutex);
	for (slot = slots; slot < slots + AFTER_LOCK_SLOTS; slot++) {
		if (!READ_ONCE(slot->addr) || !within_module(slot->addr, mod))
			continue;
		if (slot->registered)
			unregister_kprobe(&slot->kp);
		WRITE_ONCE(slot->registered, false);
		slot->kp.addr = NULL;
		WRITE_ONCE(slot->noted, false);
		/* Free for a claim only once the rest is cleared. */
		smp_store_release(&slot->addr, 0);
	}
	mutex_unlock(&slots_mutex);
	return NOTIFY_DONE;
}

/* Before kprobes' own notifier (priority 0) marks the probes gone. */
static struct notifier_block module_notifier = {
	.notifier_call = module_going,
	.priority = 1,
};

/*
 * int security_sb_set_mnt_opts(struct super_block *sb, ...): vfs_get_tree()
 * calls it for every filesystem mounted, its root in place.  Noted there
 * whether the hook's probes are armed or not (mode off), so that a
 * filesystem mounted meanwhile is probed before names are checked again,
 * without a scan on arming, which waited on a mount held in progress by
 * a FUSE server in a user namespace (review round 12).  Never refuses;
 * always armed: mounts are rare.
 */
static int pre_mount(struct kprobe *p, struct pt_regs *regs)
{
	struct super_block *sb =
		(struct super_block *)regs_get_kernel_argument(regs, 0);
	struct dentry *root = READ_ONCE(sb->s_root);

	if (root && d_really_is_positive(root))
		fs_after_lock_note(d_inode(root));
	return 0;
}

static struct kprobe mount_probe = {
	.symbol_name = "security_sb_set_mnt_opts",
	.pre_handler = pre_mount,
};
static bool mount_probed;

/* iterate_supers_type()'s callback: the root directory's functions. */
static void note_super(struct super_block *sb, void *unused)
{
	if (sb->s_root && d_really_is_positive(sb->s_root))
		fs_after_lock_note(d_inode(sb->s_root));
}

static void note_type(const char *name)
{
	struct file_system_type *type = get_fs_type(name);

	if (!type)
		return;
	iterate_supers_type(type, note_super, NULL);
	module_put(type->owner);
}

/*
 * Every mounted filesystem's root directory, by the types the kernel has
 * (/proc/filesystems: "nodev\tNAME" or "\tNAME" lines).
 */
static void note_mounted(void)
{
	char *buf, *line, *name;
	struct file *file;
	loff_t pos = 0;
	ssize_t len;

	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		goto fail;
	file = filp_open("/proc/filesystems", O_RDONLY, 0);
	if (IS_ERR(file)) {
		kfree(buf);
		goto fail;
	}
	len = kernel_read(file, buf, PAGE_SIZE - 1, &pos);
	filp_close(file, NULL);
	if (len <= 0) {
		kfree(buf);
		goto fail;
	}
	buf[len] = 0;
	for (line = buf; (name = strsep(&line, "\n"));) {
		name = strchr(name, '\t');
		if (name && name[1])
			note_type(name + 1);
	}
	kfree(buf);
	return;
fail:
	atomic64_inc(&not_probed);
	pr_err("cannot read /proc/filesystems: the mounted filesystems' rename and link functions are probed only once an operation is seen\n");
}

/*
 * The mounted filesystems are looked at once, at load, from a work item
 * the load waits for at most SCAN_WAIT: a mount held in progress (a FUSE
 * server) holds its superblock's s_umount, which iterate_supers_type()
 * waits for; the load goes on without it, counted in fs/missed, and that
 * filesystem is noted at its mount's end (pre_mount()).
 */
static void scan_mounted(struct work_struct *work);
static DECLARE_WORK(scan_work, scan_mounted);
static DECLARE_COMPLETION(scan_done);
#define SCAN_WAIT (10 * HZ)

static void scan_mounted(struct work_struct *work)
{
	note_mounted();
	complete(&scan_done);
}

/* At load only. */
static void scan(void)
{
	reinit_completion(&scan_done);
	queue_work(system_unbound_wq, &scan_work);
	if (!wait_for_completion_timeout(&scan_done, SCAN_WAIT)) {
		atomic64_inc(&not_probed);
		pr_err("the mounted filesystems not looked at within %d s: their rename and link functions are probed once an operation is seen\n",
		       SCAN_WAIT / HZ);
	}
}

/**
 * fs_after_lock_flush() - register every function noted so far
 *
 * Called before a change of the settings is in effect.
 *
 * Context: process context; may sleep.
 */
void fs_after_lock_flush(void)
{
	/*
	 * Only when queued: on PREEMPT_RT irq_work_sync() always waits for
	 * an RCU grace period, and every write of the mode comes here (a
	 * mode write took 31 ms instead of 0.6 ms on 6.12-rt).
	 */
	if (irq_work_is_busy(&register_irq_work))
		irq_work_sync(&register_irq_work);
	flush_work(&register_work);
}

/**
 * fs_after_lock_set_armed() - arm or disarm the probes, with probes.c's
 * @arm: true to arm them, once every function noted is registered
 *
 * Context: process context; may sleep.
 * Return: 0, or the first error of enable_kprobe()/disable_kprobe().
 */
int fs_after_lock_set_armed(bool arm)
{
	struct after_lock_slot *slot;
	int err, ret = 0;

	fs_after_lock_flush();
	mutex_lock(&slots_mutex);
	for (slot = slots; slot < slots + AFTER_LOCK_SLOTS; slot++) {
		if (!slot->registered || kprobe_gone(&slot->kp))
			continue;
		err = arm ? enable_kprobe(&slot->kp) :
			    disable_kprobe(&slot->kp);
		if (err && !ret)
			ret = err;
	}
	armed = arm;
	mutex_unlock(&slots_mutex);
	return ret;
}

/**
 * fs_after_lock_rearm() - disable and enable again every probe armed now
 *
 * For probes.c's rearm(): a probe enabled while kprobes were off as a
 * whole stays disabled when they are back.
 *
 * Context: process context; may sleep.
 */
void fs_after_lock_rearm(void)
{
	struct after_lock_slot *slot;

	mutex_lock(&slots_mutex);
	for (slot = slots; slot < slots + AFTER_LOCK_SLOTS; slot++) {
		if (!armed || !slot->registered || kprobe_gone(&slot->kp))
			continue;
		disable_kprobe(&slot->kp);
		enable_kprobe(&slot->kp);
	}
	mutex_unlock(&slots_mutex);
}

/* Hits the kernel skipped, and functions not probed. */
u64 fs_after_lock_missed(void)
{
	u64 sum = atomic64_read(&not_probed);
	unsigned int k;

	for (k = 0; k < AFTER_LOCK_SLOTS; k++)
		/* The kprobe is whole once registered reads true. */
		if (smp_load_acquire(&slots[k].registered))
			sum += READ_ONCE(slots[k].kp.nmissed);
	return sum;
}

/*
 * At load, before the hook's probes are registered: they note functions
 * from then on, and a filesystem module going must free its slots from
 * the first (review round 13: a slot noted before the module notifier
 * was left to a module gone).  0 or an error; fs_after_lock_exit() either
 * way.
 */
int fs_after_lock_init(void)
{
	int ret = register_module_notifier(&module_notifier);

	if (ret)
		return ret;
	ret = register_kprobe(&mount_probe);
	if (ret)
		return ret;
	mount_probed = true;
	scan();
	fs_after_lock_flush();
	return 0;
}

/*
 * At unload, after the hook's probes are gone (nothing notes any more):
 * on return no task is in a handler (the caller waits for the return functions).
 */
void fs_after_lock_exit(void)
{
	static struct kprobe *list[AFTER_LOCK_SLOTS];
	unsigned int k, n = 0;

	if (mount_probed)
		unregister_kprobe(&mount_probe);
	mount_probed = false;
	cancel_work_sync(&scan_work);
	irq_work_sync(&register_irq_work);
	cancel_work_sync(&register_work);
	unregister_module_notifier(&module_notifier);
	mutex_lock(&slots_mutex);
	for (k = 0; k < AFTER_LOCK_SLOTS; k++)
		if (slots[k].registered)
			list[n++] = &slots[k].kp;
	/* One wait for the handlers that are running, not one per probe. */
	unregister_kprobes(list, n);
	mutex_unlock(&slots_mutex);
}
