// SPDX-License-Identifier: GPL-2.0
/*
 * The hook: plain kprobes on the entry of the LSM inode hooks that bring a
 * name into existence.  Why kprobes, and why these functions, is explained
 * in Documentation/filesystem-hook-design.rst; in short:
 *
 * - A refusal skips the whole security_inode_*() function: the pre-handler
 *   sets the return value to -EILSEQ and the instruction pointer to a
 *   return stub, as arch/x86/lib/error-inject.c does.  In 6.1 and 6.12
 *   these functions do nothing but call the LSMs, so nothing else is
 *   skipped.
 * - Every probe has a post_handler, which does nothing: it keeps an int3
 *   kprobe from being jump-optimized, because an optimized kprobe ignores
 *   the changed instruction pointer (the refusal would fail open), and
 *   puts an ftrace-based one on kprobes' IPMODIFY ftrace_ops (a livepatch
 *   clash fails at registration).  An ftrace-based kprobe calls it after
 *   every pre-handler that lets the call run: 50 to 85 guest instructions a
 *   create (make bench-fs --mechanisms, issue 30).
 * - A kprobe has no instance pool to run out of (a kretprobe has).  Hits
 *   the kernel skips (another kprobe running on that CPU) are counted in
 *   nmissed, summed in fs/missed and logged.
 * - Registration is all or nothing: a missing symbol makes the module
 *   refuse to load.
 * - Root can disarm every kprobe at once (debugfs kprobes/enabled, or
 *   kernel.ftrace_enabled=0 for ftrace-based ones), and a kernel built
 *   with LTO could inline a hooked function into its caller.  A self-test
 *   (selftest.c) runs each hooked operation through the real vfs_*()
 *   function with a canary dentry that only the handlers recognise;
 *   fs/unhooked reports the result, and a periodic health check logs
 *   every change.
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/objtool.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <asm/linkage.h>

#include "fs_hook.h"

/*
 * The self-test's task (selftest.c): its canary is stopped with
 * FS_CANARY_RESULT, and anything else it does in its private tmpfs
 * passes unchecked and uncounted.  Only kernel code sets the task.
 */
static bool selftest_running(void)
{
	return unlikely(READ_ONCE(fs_canary.task) == current);
}

static int selftest_hit(struct pt_regs *regs, const struct dentry *dentry)
{
	if (dentry == READ_ONCE(fs_canary.dentry))
		return fs_probe_divert(regs, FS_CANARY_RESULT);
	return 0;
}

/*
 * int security_inode_create(struct inode *dir, struct dentry *dentry,
 *			     umode_t mode);
 * and the same arguments for mkdir and mknod (plus dev_t dev).
 */
static int check_in_dir(enum fs_op op, struct pt_regs *regs)
{
	struct inode *dir = (struct inode *)regs_get_kernel_argument(regs, 0);
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 1);

	if (selftest_running())
		return selftest_hit(regs, dentry);
	if (FS_BENCH_STOP(FS_BENCH_AT_ENTRY))
		return 0;
	/* The hooked function returns 0 for private inodes: so do we. */
	if (unlikely(IS_PRIVATE(dir)))
		return 0;
	return fs_probe_refuse(regs, fs_check_new_name(op, dir, dentry, true,
						       NULL));
}

static int pre_create(struct kprobe *p, struct pt_regs *regs)
{
	return check_in_dir(FS_OP_CREATE, regs);
}

static int pre_mkdir(struct kprobe *p, struct pt_regs *regs)
{
	return check_in_dir(FS_OP_MKDIR, regs);
}

static int pre_mknod(struct kprobe *p, struct pt_regs *regs)
{
	return check_in_dir(FS_OP_MKNOD, regs);
}

/*
 * int security_inode_symlink(struct inode *dir, struct dentry *dentry,
 *			      const char *old_name);
 * In enforce, a refused link name ends the check; in audit both the name
 * and the target are checked and counted.
 */
static int pre_symlink(struct kprobe *p, struct pt_regs *regs)
{
	struct inode *dir = (struct inode *)regs_get_kernel_argument(regs, 0);
	struct dentry *dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 1);
	const char *target = (const char *)regs_get_kernel_argument(regs, 2);

	if (selftest_running())
		return selftest_hit(regs, dentry);
	if (unlikely(IS_PRIVATE(dir)))
		return 0;
	return fs_probe_refuse(regs, fs_check_new_name(FS_OP_SYMLINK, dir,
						       dentry, true, target));
}

/*
 * int security_inode_link(struct dentry *old_dentry, struct inode *dir,
 *			   struct dentry *new_dentry);
 */
static int pre_link(struct kprobe *p, struct pt_regs *regs)
{
	struct dentry *old_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 0);
	struct inode *dir = (struct inode *)regs_get_kernel_argument(regs, 1);
	struct dentry *new_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 2);

	if (selftest_running())
		return selftest_hit(regs, new_dentry);
	if (unlikely(IS_PRIVATE(d_backing_inode(old_dentry))))
		return 0;
	fs_after_lock_note(dir);
	return fs_probe_refuse(regs, fs_check_new_name(FS_OP_LINK, dir,
						       new_dentry, true, NULL));
}

/*
 * int security_inode_rename(struct inode *old_dir, struct dentry *old_dentry,
 *			     struct inode *new_dir, struct dentry *new_dentry,
 *			     unsigned int flags);
 * Only a target name that does not exist yet, or a whiteout, is new
 * (fs_rename_makes_name()).  The caller holds lock_rename(), so the
 * target's state is stable.
 */
static int pre_rename(struct kprobe *p, struct pt_regs *regs)
{
	struct inode *old_dir = (struct inode *)regs_get_kernel_argument(regs, 0);
	struct dentry *old_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 1);
	struct inode *new_dir =
		(struct inode *)regs_get_kernel_argument(regs, 2);
	struct dentry *new_dentry =
		(struct dentry *)regs_get_kernel_argument(regs, 3);
	unsigned int flags = regs_get_kernel_argument(regs, 4);

	if (selftest_running())
		return selftest_hit(regs, new_dentry);
	if (unlikely(IS_PRIVATE(d_backing_inode(old_dentry)) ||
		     (d_is_positive(new_dentry) &&
		      IS_PRIVATE(d_backing_inode(new_dentry)))))
		return 0;
	fs_after_lock_note(old_dir);
	return fs_probe_refuse(regs, fs_check_new_name(FS_OP_RENAME, new_dir,
				new_dentry,
				fs_rename_makes_name(new_dentry, flags), NULL));
}

#define PROBE(sym, handler) {					\
	.symbol_name = sym,					\
	.pre_handler = handler,					\
	.post_handler = fs_probe_keep_unoptimized,			\
}

/*
 * The test build utf8guard_fs_nosym.ko (tests/fs/kmod/) names a symbol no
 * kernel has here, to test the refusal to load.
 */
#ifndef FS_PROBE_RENAME_SYMBOL
#define FS_PROBE_RENAME_SYMBOL "security_inode_rename"
#endif
/*
 * The test build utf8guard_fs_decoy.ko puts its mkdir probe on a function
 * that mkdir(2) never calls, as if the real one were inlined.
 */
#ifndef FS_PROBE_MKDIR_SYMBOL
#define FS_PROBE_MKDIR_SYMBOL "security_inode_mkdir"
#endif

static struct kprobe probes[FS_PROBE_COUNT] = {
	[FS_PROBE_CREATE] = PROBE("security_inode_create", pre_create),
	[FS_PROBE_MKDIR] = PROBE(FS_PROBE_MKDIR_SYMBOL, pre_mkdir),
	[FS_PROBE_MKNOD] = PROBE("security_inode_mknod", pre_mknod),
	[FS_PROBE_SYMLINK] = PROBE("security_inode_symlink", pre_symlink),
	[FS_PROBE_LINK] = PROBE("security_inode_link", pre_link),
	[FS_PROBE_RENAME] = PROBE(FS_PROBE_RENAME_SYMBOL, pre_rename),
};

/* Serialises self-tests and the health check's memory of the last one. */
static DEFINE_MUTEX(health_mutex);
static unsigned int last_unhooked;
static u64 last_missed;
/* Disarmed on purpose (fs_probes_set_armed(), idle.c); under health_mutex. */
static bool disarmed;
static void health_check(struct work_struct *work);
static DECLARE_DELAYED_WORK(health_work, health_check);
#define HEALTH_INTERVAL (10 * HZ)

/* The six, plus one per filesystem module probed (module_probes.c). */
unsigned int fs_probes_count(void)
{
	return FS_PROBE_COUNT + fs_module_probes_count();
}

u64 fs_probes_missed(void)
{
	u64 sum = fs_module_probes_missed() + fs_overlay_missed() +
		  fs_after_lock_missed() + fs_scope_missed();
	unsigned int k;

	for (k = 0; k < FS_PROBE_COUNT; k++)
		sum += READ_ONCE(probes[k].nmissed);
	return sum;
}

const char *fs_probes_kind(void)
{
	return kprobe_ftrace(&probes[FS_PROBE_MKDIR]) ? "ftrace-based kprobes" :
						       "int3 kprobes";
}

/*
 * How many probes are not in effect: each whose operation got through the
 * self-test, or that the kernel marked disabled or gone.  If all six got
 * through, kprobes are disarmed as a whole: the probes of filesystem
 * modules too.  Sets *which to the bits of the six that are out.
 */
static unsigned int self_test(unsigned long *which)
{
	unsigned int k;
	unsigned long through;

	lockdep_assert_held(&health_mutex);
	*which = 0;
	/* Nothing is to be checked now, and nothing is missing. */
	if (disarmed)
		return 0;
	if (fs_selftest_vfs(&through))
		pr_err("cannot mount the self-test's private tmpfs\n");
	if (through == BIT(FS_PROBE_COUNT) - 1) {
		*which = through;
		return fs_probes_count();
	}
	for (k = 0; k < FS_PROBE_COUNT; k++)
		if (kprobe_disabled(&probes[k]) || kprobe_gone(&probes[k]))
			through |= BIT(k);
	*which = through;
	return hweight_long(through) + fs_module_probes_unhooked();
}

/* The operation each probe checks, for its name (fs_op_name()). */
static const enum fs_op probe_op[FS_PROBE_COUNT] = {
	[FS_PROBE_CREATE] = FS_OP_CREATE,
	[FS_PROBE_MKDIR] = FS_OP_MKDIR,
	[FS_PROBE_MKNOD] = FS_OP_MKNOD,
	[FS_PROBE_SYMLINK] = FS_OP_SYMLINK,
	[FS_PROBE_LINK] = FS_OP_LINK,
	[FS_PROBE_RENAME] = FS_OP_RENAME,
};

static void report_health(unsigned int unhooked, unsigned long which,
			  u64 missed)
{
	lockdep_assert_held(&health_mutex);
	if (unhooked != last_unhooked) {
		if (unhooked) {
			char ops[64] = "";
			unsigned int k;

			for (k = 0; k < FS_PROBE_COUNT; k++)
				if (which & BIT(k)) {
					strlcat(ops, " ", sizeof(ops));
					strlcat(ops, fs_op_name(probe_op[k]),
						sizeof(ops));
				}
			pr_err("%u of %u hooks are not in effect (self-test got through:%s%s; kprobes disarmed? see /sys/kernel/debug/kprobes/enabled and sysctl kernel.ftrace_enabled): new names are NOT checked\n",
			       unhooked, fs_probes_count(), ops,
			       which ? "" : " none, a filesystem module's probe is out");
		} else {
			pr_notice("all %u hooks are in effect again\n",
				  fs_probes_count());
		}
		last_unhooked = unhooked;
	}
	if (missed != last_missed) {
		pr_warn("%llu probe hits missed (another probe was running on that CPU, too many overlayfs operations at once, an overlayfs copy-up begun while the probes were disarmed, or an unmount fs/mounts did not see): hooked operations not checked, overlayfs copy-ups checked as new names, or an fs/mounts entry kept\n",
			missed - last_missed);
		last_missed = missed;
	}
}

/*
 * enable_kprobe() while kprobes are disarmed as a whole (debugfs
 * kprobes/enabled 0) returns 0 and arms nothing, and the probe stays
 * disabled when kprobes are armed again: arm_all_kprobes() arms only the
 * probes not disabled (review round 13: the six "armed" that way let bad
 * names through for good).  So each probe the self-test got through is
 * disabled and enabled again; if all six were, kprobes were disarmed as
 * a whole, and those after the locks and in filesystem modules are too.
 * While kprobes are still disarmed this changes nothing (neither call
 * patches any code then); once they are back, it arms them.  A probe the
 * self-test got through checks nothing: cycling it opens no window.
 */
static void rearm(unsigned long which)
{
	unsigned int k;

	lockdep_assert_held(&health_mutex);
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(which & BIT(k)) || kprobe_gone(&probes[k]))
			continue;
		disable_kprobe(&probes[k]);
		enable_kprobe(&probes[k]);
	}
	if (which != BIT(FS_PROBE_COUNT) - 1)
		return;
	fs_after_lock_rearm();
	fs_module_probes_rearm();
}

/*
 * Under health_mutex: a self-test, its result logged if new.  Probes out
 * while they should be armed are armed again first, and tested again.
 */
static unsigned int test_and_report(void)
{
	unsigned long which;
	unsigned int unhooked = self_test(&which);

	if (unhooked && which && !disarmed) {
		rearm(which);
		unhooked = self_test(&which);
		if (!unhooked)
			pr_notice("probes armed again: one was left disarmed by enable_kprobe() while kprobes were off as a whole\n");
	}
	report_health(unhooked, which, fs_probes_missed());
	return unhooked;
}

/*
 * fs/unhooked: a fresh self-test, run by the health check's kworker
 * (kernel credentials, whoever reads the file), which logs it if new.
 */
unsigned int fs_probes_unhooked(void)
{
	unsigned int unhooked;

	flush_delayed_work(&health_work);
	mutex_lock(&health_mutex);
	unhooked = last_unhooked;
	mutex_unlock(&health_mutex);
	return unhooked;
}

/**
 * fs_probes_set_armed() - arm or disarm every probe, on purpose
 * @armed: true to arm them (enable_kprobe()), false to disarm them
 *
 * Every probe but overlay.ko's, which stay armed (module_probes.c).
 *
 * A disarmed probe costs nothing: its int3 or ftrace call is gone from
 * the probed function.  While disarmed on purpose, the self-test counts
 * no probe as unhooked.  A probe that does not arm is left to the
 * self-test, which counts it in fs/unhooked and logs it.
 *
 * An error of enable_kprobe() or disable_kprobe() is logged.
 *
 * Context: process context; may sleep (kprobe_mutex, text patching).
 */
void fs_probes_set_armed(bool armed)
{
	unsigned int k, changed;
	int err, ret;

	mutex_lock(&health_mutex);
	if (armed == !disarmed)
		goto out;
	/* Those after the locks first: they judge what the six let by. */
	ret = fs_after_lock_set_armed(armed);
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		err = armed ? enable_kprobe(&probes[k]) :
			      disable_kprobe(&probes[k]);
		if (err && !ret)
			ret = err;
	}
	err = fs_module_probes_set_armed(armed, &changed);
	if (err && !ret)
		ret = err;
	disarmed = !armed;
	if (ret)
		pr_err("%s the probes: error %d\n",
		       armed ? "cannot arm" : "cannot disarm", ret);
	else
		pr_info("%u probes %s\n", FS_PROBE_COUNT + changed,
			armed ? "armed: new names are checked again" :
				"disarmed (mode off or fs/enabled 0): they cost nothing until names are to be checked again");
	if (armed)
		test_and_report();
out:
	mutex_unlock(&health_mutex);
}

static void health_check(struct work_struct *work)
{
	mutex_lock(&health_mutex);
	test_and_report();
	mutex_unlock(&health_mutex);
	schedule_delayed_work(&health_work, HEALTH_INTERVAL);
}

static void unregister_probes(unsigned int count)
{
	struct kprobe *list[FS_PROBE_COUNT];
	unsigned int k;

	for (k = 0; k < count; k++)
		list[k] = &probes[k];
	/* Waits for handlers that are running. */
	unregister_kprobes(list, count);
	/* Nothing notes a function any more. */
	fs_after_lock_exit();
	/*
	 * A task sent to the stub may be preempted before its return: wait
	 * until every task has passed a voluntary context switch before the
	 * module text goes away, as ftrace does for its trampolines.
	 */
	synchronize_rcu_tasks();
}

/**
 * fs_probes_init() - register every probe, or none
 *
 * Return: 0 with all probes in effect; otherwise an error, logged, and
 * no probe registered.
 */
int fs_probes_init(void)
{
	unsigned int k, unhooked;
	int ret;

	ret = fs_after_lock_init();
	if (ret) {
		pr_err("cannot watch for filesystem modules going or mounts: error %d; not loading\n",
		       ret);
		fs_after_lock_exit();
		return ret;
	}
	/* As register_kprobes(), all or nothing, but naming the culprit. */
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		ret = register_kprobe(&probes[k]);
		if (ret) {
			pr_err("cannot probe %s: error %d%s; not loading: no hook is better than a partial one\n",
			       probes[k].symbol_name, ret,
			       ret == -ENOENT ? " (no such symbol: kernel built without CONFIG_SECURITY?)" : "");
			unregister_probes(k);
			return ret;
		}
	}
	mutex_lock(&health_mutex);
	unhooked = test_and_report();
	mutex_unlock(&health_mutex);
	if (unhooked) {
		pr_err("not loading: %u of %u probes are registered but not in effect\n",
		       unhooked, FS_PROBE_COUNT);
		ret = -EBUSY;
		goto fail;
	}
	ret = fs_module_probes_init();
	if (ret) {
		pr_err("cannot watch for filesystem modules: error %d; not loading\n",
		       ret);
		goto fail;
	}
	last_missed = fs_probes_missed();
	schedule_delayed_work(&health_work, HEALTH_INTERVAL);
	return 0;

fail:
	unregister_probes(FS_PROBE_COUNT);
	fs_selftest_exit();
	return ret;
}

/* Remove the probes; on return no task can be in a handler or the stub. */
void fs_probes_exit(void)
{
	cancel_delayed_work_sync(&health_work);
	fs_module_probes_exit();
	unregister_probes(FS_PROBE_COUNT);
	fs_selftest_exit();
}
