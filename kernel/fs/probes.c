// SPDX-License-Identifier: GPL-2.0
/*
 * The hook: one ftrace_ops of our own on the entry of the LSM inode hooks
 * that bring a name into existence, or an int3 kprobe on one where ftrace
 * cannot call us.  Why these functions, and why this mechanism, is
 * explained in Documentation/filesystem-hook-design.rst; in short:
 *
 * - A refusal skips the whole security_inode_*() function: the handler
 *   sets the return value to -EILSEQ and the instruction pointer to a
 *   function that returns it (refuse.c), much as arch/x86/lib/
 *   error-inject.c does.  In 6.1 and 6.12
 *   these functions do nothing but call the LSMs, so nothing else is
 *   skipped.
 * - The ftrace_ops has IPMODIFY: ftrace lets only one such ops on a
 *   function, so a livepatch of one of them (before us) fails our
 *   registration and the module refuses to load, or (after us) fails the
 *   livepatch.  It needs no SAVE_REGS where ftrace has WITH_ARGS (x86-64
 *   6.1 and 6.12): ftrace_caller saves the argument registers, ax and ip,
 *   then returns to that ip with that ax (arch/x86/kernel/ftrace_64.S),
 *   as livepatch relies on.  No kprobe layer, no full register save: some
 *   70 guest instructions less per create than an ftrace-based kprobe
 *   (make bench-fs --breakdown).
 * - Each function is first found by a kprobe registered disabled (kprobes
 *   looks the symbol up and says whether ftrace calls it there).  Where
 *   ftrace does not (a kernel built without DYNAMIC_FTRACE_WITH_REGS, or a
 *   function without an fentry call), that kprobe is kept and enabled: an
 *   int3 kprobe, with a post_handler that does nothing, which keeps it
 *   from being jump-optimized (an optimized kprobe ignores the changed
 *   instruction pointer: the refusal would fail open).  The locating
 *   kprobes have no post_handler otherwise: fs_register_kprobe().  Any
 *   ftrace error but the IPMODIFY clash leaves all six on kprobes
 *   (ftrace-based ones then: they refuse as well, but do not claim
 *   IPMODIFY).
 * - ftrace's recursion lock: a hit from inside another ftrace or kprobe
 *   handler is not checked, but refused (fail closed) unless the function
 *   would have let it through anyway, and counted in fs/missed
 *   (fs_ftrace_entry()).  Hits an int3 kprobe skips (another kprobe
 *   running on that CPU) are counted in its nmissed, and pass unchecked.
 *   fs/missed sums both, and the health check logs them.
 * - Registration is all or nothing: a missing symbol, or an IPMODIFY
 *   clash, makes the module refuse to load.
 * - Root can disarm ftrace as a whole (kernel.ftrace_enabled=0) and
 *   kprobes as a whole (debugfs kprobes/enabled), and a kernel built with
 *   LTO could inline a hooked function into its caller.  A self-test
 *   (selftest.c) runs each hooked operation through the real vfs_*()
 *   function with a canary dentry that only the handlers recognise, and
 *   calls a function of ours with a kprobe (kprobes_armed()), for the
 *   probes that are still kprobes (after_lock.c, module_probes.c);
 *   fs/unhooked reports the result, and a periodic health check logs
 *   every change.
 * - Mode off disarms: the ftrace_ops is unregistered, the kprobes
 *   disabled (idle.c).
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

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

static int check_create(struct pt_regs *regs)
{
	return check_in_dir(FS_OP_CREATE, regs);
}

static int check_mkdir(struct pt_regs *regs)
{
	return check_in_dir(FS_OP_MKDIR, regs);
}

static int check_mknod(struct pt_regs *regs)
{
	return check_in_dir(FS_OP_MKNOD, regs);
}

/*
 * int security_inode_symlink(struct inode *dir, struct dentry *dentry,
 *			      const char *old_name);
 * In enforce, a refused link name ends the check; in audit both the name
 * and the target are checked and counted.
 */
static int check_symlink(struct pt_regs *regs)
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
static int check_link(struct pt_regs *regs)
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
static int check_rename(struct pt_regs *regs)
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

/* Each hook's check, given the registers at the hooked function's entry. */
static int (*const checks[FS_PROBE_COUNT])(struct pt_regs *regs) = {
	[FS_PROBE_CREATE] = check_create,
	[FS_PROBE_MKDIR] = check_mkdir,
	[FS_PROBE_MKNOD] = check_mknod,
	[FS_PROBE_SYMLINK] = check_symlink,
	[FS_PROBE_LINK] = check_link,
	[FS_PROBE_RENAME] = check_rename,
};

static int pre_handler(struct kprobe *p, struct pt_regs *regs);

#define PROBE(sym) {						\
	.symbol_name = sym,					\
	.pre_handler = pre_handler,				\
	.flags = KPROBE_FLAG_DISABLED,				\
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

/*
 * Each function's kprobe: registered disabled at load, to find the
 * function (and whether ftrace can call us there); kept, and enabled, only
 * where ftrace cannot: the int3 fallback.
 */
static struct kprobe probes[FS_PROBE_COUNT] = {
	[FS_PROBE_CREATE] = PROBE("security_inode_create"),
	[FS_PROBE_MKDIR] = PROBE(FS_PROBE_MKDIR_SYMBOL),
	[FS_PROBE_MKNOD] = PROBE("security_inode_mknod"),
	[FS_PROBE_SYMLINK] = PROBE("security_inode_symlink"),
	[FS_PROBE_LINK] = PROBE("security_inode_link"),
	[FS_PROBE_RENAME] = PROBE(FS_PROBE_RENAME_SYMBOL),
};
/* Bits of enum fs_probe: those hooked by a kprobe (registered). */
static unsigned long on_kprobe;

static int pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	return checks[p - probes](regs);
}

/*
 * The ftrace hook: one ftrace_ops of our own on every function ftrace can
 * call us from, IPMODIFY (ftrace lets only one such ops on a function: a
 * livepatch there, or here after us, fails to register), and SAVE_REGS
 * only where ftrace has no WITH_ARGS (ftrace_arg_regs()).
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/* Where ftrace calls us from, per function (its kprobe's address); or 0. */
static unsigned long ftrace_ip[FS_PROBE_COUNT];
/* Bits of enum fs_probe: those hooked by the ftrace_ops. */
static unsigned long on_ftrace;
/* The ops is registered (it is armed unless kernel.ftrace_enabled is 0). */
static bool ftrace_registered;
/* It was, once: at load, a clash refuses the load instead. */
static bool ftrace_registered_once;
/* Hits ftrace's recursion lock kept from their check (fs/missed). */
static atomic_long_t ftrace_missed = ATOMIC_LONG_INIT(0);

/*
 * The registers the handler reads and writes: the arguments, ip and ax.
 * With DYNAMIC_FTRACE_WITH_ARGS (x86-64 6.1 and 6.12), ftrace_caller
 * saves the argument registers, ax and ip in a pt_regs (struct
 * ftrace_regs), restores ax from it and returns to its ip, as livepatch
 * relies on: no SAVE_REGS, no full register save (ftrace_regs_caller).
 * Only an ops that asks for SAVE_REGS gets ftrace_get_regs() non-NULL,
 * so the pt_regs is taken from the ftrace_regs directly.
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
#define FTRACE_HOOK_SAVE_REGS 0
static __always_inline struct pt_regs *ftrace_arg_regs(struct ftrace_regs *fregs)
{
#ifdef arch_ftrace_regs
	return &arch_ftrace_regs(fregs)->regs;
#else
	return &fregs->regs;
#endif
}
#else
#define FTRACE_HOOK_SAVE_REGS FTRACE_OPS_FL_SAVE_REGS
static __always_inline struct pt_regs *ftrace_arg_regs(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}
#endif

/*
 * What the hooked function itself lets through without calling any LSM
 * (it returns 0 for private inodes): a hit ftrace could not hand to its
 * check (fs_ftrace_entry()) is refused unless it is one of these.
 * Reads only the arguments: no call, nothing that can be traced.
 */
static bool private_call(enum fs_probe probe, struct pt_regs *regs)
{
	const struct inode *inode;
	const struct dentry *dentry;

	switch (probe) {
	case FS_PROBE_LINK:
		dentry = (const struct dentry *)regs_get_kernel_argument(regs, 0);
		return IS_PRIVATE(d_backing_inode(dentry));
	case FS_PROBE_RENAME:
		dentry = (const struct dentry *)regs_get_kernel_argument(regs, 1);
		if (IS_PRIVATE(d_backing_inode(dentry)))
			return true;
		dentry = (const struct dentry *)regs_get_kernel_argument(regs, 3);
		return d_is_positive(dentry) &&
		       IS_PRIVATE(d_backing_inode(dentry));
	default:
		inode = (const struct inode *)regs_get_kernel_argument(regs, 0);
		return IS_PRIVATE(inode);
	}
}

/*
 * ftrace runs one callback at a time per task and context: a hooked
 * function called from inside another ftrace or kprobe handler (a
 * tracer's, or this one's through what it calls) finds the recursion lock
 * taken.  kprobes would skip such a hit, unchecked (fail open).  This
 * hook refuses it instead (-EAGAIN: the name could not be checked, try
 * again), unless the hooked function would have returned 0 at once for a
 * private inode (private_call()), and counts it in fs/missed, which the
 * health check logs.  That is safe: every caller of these functions
 * handles an error, and the refusal calls nothing that can be traced.
 * Only a tracer's handler that creates names, which no kernel code does,
 * could be refused so.
 */
static void notrace fs_ftrace_entry(unsigned long ip, unsigned long parent_ip,
				    struct ftrace_ops *op,
				    struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_arg_regs(fregs);
	unsigned int k;
	int bit;

	for (k = 0; k < FS_PROBE_COUNT; k++)
		if (ip == ftrace_ip[k])
			break;
	/* Never happens: the ops has only these ips. */
	if (unlikely(k == FS_PROBE_COUNT)) {
		atomic_long_inc(&ftrace_missed);
		return;
	}
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (unlikely(bit < 0)) {
		atomic_long_inc(&ftrace_missed);
		if (!private_call(k, regs))
			fs_probe_divert(regs, -EAGAIN);
		return;
	}
	checks[k](regs);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops fs_ftrace_ops = {
	.func = fs_ftrace_entry,
	.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_HOOK_SAVE_REGS,
};

static u64 ftrace_hook_missed(void)
{
	return atomic_long_read(&ftrace_missed);
}

/*
 * Bits of enum fs_probe: functions the ops lost to another IPMODIFY user
 * that came while it was unregistered (mode off); not in its filter.
 */
static unsigned long ftrace_lost;

static void notrace clash_test_entry(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op,
				     struct ftrace_regs *fregs)
{
}

/* An ops of a moment, to find which function another IPMODIFY user has. */
static struct ftrace_ops clash_test_ops = {
	.func = clash_test_entry,
	.flags = FTRACE_OPS_FL_IPMODIFY,
};

/* Whether another ftrace user modifies the instruction pointer at @ip. */
static bool ipmodify_taken(unsigned long ip)
{
	int ret;

	if (ftrace_set_filter_ip(&clash_test_ops, ip, 0, 1))
		return false;
	ret = register_ftrace_function(&clash_test_ops);
	/* Only a registered ops is unregistered (review round 20). */
	if (!ret)
		unregister_ftrace_function(&clash_test_ops);
	/*
	 * Emptied, not freed: ftrace_free_filter() leaves the ops pointing
	 * at the hashes it freed (6.1, 6.12), and the next filter would
	 * free them again.  Freed once, at unload (ftrace_hook_exit()).
	 */
	ftrace_set_filter_ip(&clash_test_ops, ip, 1, 0);
	return ret == -EBUSY;
}

/*
 * The ops could not be registered again (-EBUSY): since it went, another
 * IPMODIFY user (a livepatch) came on some of its functions, as nothing
 * stopped it while the ops was away.  Leave those out, logged by name
 * (the self-test counts them as unhooked), and keep the others hooked
 * rather than lose all six (review round 19).  Never an empty filter: it
 * would trace every function.
 */
static int register_without_clashes(void)
{
	unsigned long lost = 0;
	unsigned int k;

	for (k = 0; k < FS_PROBE_COUNT; k++)
		if ((on_ftrace & BIT(k)) && ipmodify_taken(ftrace_ip[k]))
			lost |= BIT(k);
	if (!lost || lost == on_ftrace)
		return -EBUSY;
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(lost & BIT(k)))
			continue;
		ftrace_set_filter_ip(&fs_ftrace_ops, ftrace_ip[k], 1, 0);
		pr_err("%s: another ftrace user modifies its instruction pointer since the hook was disarmed (a livepatch? 'I' in tracing/enabled_functions): its names are NOT checked until it goes\n",
		       probes[k].symbol_name);
	}
	ftrace_lost |= lost;
	return register_ftrace_function(&fs_ftrace_ops);
}

/*
 * Take back the functions lost to a clash once it is gone: the filter of
 * a registered IPMODIFY ops refuses an ip another one has.
 */
static void take_back_lost(void)
{
	unsigned int k;

	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(ftrace_lost & BIT(k)) ||
		    ftrace_set_filter_ip(&fs_ftrace_ops, ftrace_ip[k], 0, 0))
			continue;
		ftrace_lost &= ~BIT(k);
		pr_notice("%s: hooked again\n", probes[k].symbol_name);
	}
}

static unsigned long ftrace_lost_now(void)
{
	return ftrace_lost;
}

/* Register or unregister the ops; an error is returned, not logged. */
static int ftrace_hook_set_armed(bool armed)
{
	unsigned int k;
	int ret;

	if (!on_ftrace)
		return 0;
	if (armed && ftrace_registered && ftrace_lost)
		take_back_lost();
	if (armed == ftrace_registered)
		return 0;
	if (armed) {
		/* All of them again, as long as nothing clashes. */
		for (k = 0; k < FS_PROBE_COUNT; k++)
			if (ftrace_lost & BIT(k))
				ftrace_set_filter_ip(&fs_ftrace_ops,
						     ftrace_ip[k], 0, 0);
		ftrace_lost = 0;
		ret = register_ftrace_function(&fs_ftrace_ops);
		if (ret == -EBUSY && ftrace_registered_once)
			ret = register_without_clashes();
	} else {
		ret = unregister_ftrace_function(&fs_ftrace_ops);
	}
	if (!ret)
		ftrace_registered = armed;
	if (!ret && armed)
		ftrace_registered_once = true;
	return ret;
}

/*
 * Hook by ftrace every function whose kprobe ftrace would call (it is
 * ftrace-able): its kprobe, never enabled, is unregistered.  Those left
 * keep their kprobe (int3).  An IPMODIFY clash fails, and leaves nothing
 * on ftrace; any other ftrace error leaves every function on its kprobe.
 */
static int ftrace_hook_init(void)
{
	unsigned int k;
	int ret;

	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!kprobe_ftrace(&probes[k]))
			continue;
		ret = ftrace_set_filter_ip(&fs_ftrace_ops,
					   (unsigned long)probes[k].addr, 0, 0);
		if (ret) {
			pr_notice("%s: ftrace filter error %d: hooked by an int3 kprobe\n",
				  probes[k].symbol_name, ret);
			continue;
		}
		ftrace_ip[k] = (unsigned long)probes[k].addr;
		on_ftrace |= BIT(k);
	}
	if (!on_ftrace)
		return 0;
	ret = ftrace_hook_set_armed(true);
	if (ret == -EBUSY) {
		pr_err("cannot hook create mkdir mknod symlink link rename by ftrace: another ftrace user already modifies the instruction pointer of one of them (a livepatch? 'I' in tracing/enabled_functions); not loading\n");
		goto clear;
	}
	if (ret) {
		pr_notice("cannot register the ftrace hook: error %d; int3 kprobes instead\n",
			  ret);
		ret = 0;
		goto clear;
	}
	for (k = 0; k < FS_PROBE_COUNT; k++)
		if (on_ftrace & BIT(k)) {
			unregister_kprobe(&probes[k]);
			on_kprobe &= ~BIT(k);
		}
	return 0;

clear:
	ftrace_free_filter(&fs_ftrace_ops);
	memset(ftrace_ip, 0, sizeof(ftrace_ip));
	on_ftrace = 0;
	return ret;
}

/* Unregister the ops, if registered; it waits for running callbacks. */
static void ftrace_hook_exit(void)
{
	if (!on_ftrace)
		return;
	ftrace_hook_set_armed(false);
	ftrace_free_filter(&fs_ftrace_ops);
	ftrace_free_filter(&clash_test_ops);
	on_ftrace = 0;
}
#else /* !CONFIG_DYNAMIC_FTRACE_WITH_REGS: kprobes only */
static const unsigned long on_ftrace;

static unsigned long ftrace_lost_now(void)
{
	return 0;
}

static u64 ftrace_hook_missed(void)
{
	return 0;
}

static int ftrace_hook_set_armed(bool armed)
{
	return 0;
}

static int ftrace_hook_init(void)
{
	return 0;
}

static void ftrace_hook_exit(void)
{
}
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_REGS */

/*
 * Is kprobes as a whole armed?  A kprobe on a function of our own, which
 * the self-test calls: with kprobes disarmed (debugfs kprobes/enabled 0,
 * or kernel.ftrace_enabled 0 for an ftrace-based one), its handler does
 * not run, and neither do those that re-check a rename or link after the
 * inode lock (after_lock.c), in filesystem modules (module_probes.c) or
 * on a function ftrace cannot hook.  It is cycled with them (rearm()).
 */
static bool canary_hit;

static noinline void utf8guard_fs_kprobe_canary(void)
{
	/* A call with a side effect, not to be optimized away. */
	barrier();
}

static int canary_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(canary_hit, true);
	return 0;
}

static struct kprobe canary = {
	.pre_handler = canary_pre,
};

/*
 * The canary is called through a pointer the compiler cannot see
 * through: called directly, GCC knew the function leaves canary_hit
 * alone and took the canary for never hit (the debug test kernel's
 * build: KASAN, UBSAN).
 */
static bool kprobes_armed(void)
{
	void (*canary_call)(void) = utf8guard_fs_kprobe_canary;

	OPTIMIZER_HIDE_VAR(canary_call);
	WRITE_ONCE(canary_hit, false);
	canary_call();
	return READ_ONCE(canary_hit);
}

/* Serialises self-tests and the health check's memory of the last one. */
static DEFINE_MUTEX(health_mutex);
static unsigned int last_unhooked;
static u64 last_missed;
/* Disarmed on purpose (fs_probes_set_armed(), idle.c); under health_mutex. */
static bool disarmed;
static void health_check(struct work_struct *work);
static DECLARE_DELAYED_WORK(health_work, health_check);
#define HEALTH_INTERVAL (10 * HZ)

/* Bit of a self-test's result: kprobes as a whole are disarmed. */
#define KPROBES_OUT BIT(FS_PROBE_COUNT)
#define ALL_SIX (BIT(FS_PROBE_COUNT) - 1)

/* The six, plus one per filesystem module probed (module_probes.c). */
unsigned int fs_probes_count(void)
{
	return FS_PROBE_COUNT + fs_module_probes_count();
}

u64 fs_probes_missed(void)
{
	u64 sum = fs_module_probes_missed() + fs_overlay_missed() +
		  fs_after_lock_missed() + fs_scope_missed() +
		  ftrace_hook_missed();
	unsigned int k;

	for (k = 0; k < FS_PROBE_COUNT; k++)
		sum += READ_ONCE(probes[k].nmissed);
	return sum;
}

const char *fs_probes_kind(void)
{
	if (on_ftrace == ALL_SIX)
		return "ftrace_ops";
	if (!on_ftrace)
		return kprobe_ftrace(&probes[FS_PROBE_MKDIR]) ?
		       "ftrace-based kprobes" : "int3 kprobes";
	return "ftrace_ops and int3 kprobes";
}

/*
 * How many hooks are not in effect: each of the six whose operation got
 * through the self-test, or whose kprobe the kernel marked disabled or
 * gone.  If all six got through, hooking is off as a whole
 * (kernel.ftrace_enabled 0, or kprobes disarmed with the six on kprobes):
 * the probes of filesystem modules are out too.  With kprobes disarmed as
 * a whole (the canary), every kprobe is out: the six on one, the re-check
 * of link and rename after the inode lock (counted as theirs), and the
 * probes of filesystem modules.  Sets *which to the bits of the six that
 * are out, and KPROBES_OUT.
 */
static unsigned int self_test(unsigned long *which)
{
	unsigned int k;
	unsigned long through;
	bool kprobes_out;

	lockdep_assert_held(&health_mutex);
	*which = 0;
	/* Nothing is to be checked now, and nothing is missing. */
	if (disarmed)
		return 0;
	if (fs_selftest_vfs(&through))
		pr_err("cannot mount the self-test's private tmpfs\n");
	kprobes_out = !kprobes_armed();
	if (kprobes_out)
		through |= on_kprobe | BIT(FS_PROBE_LINK) | BIT(FS_PROBE_RENAME);
	for (k = 0; k < FS_PROBE_COUNT; k++)
		if ((on_kprobe & BIT(k)) &&
		    (kprobe_disabled(&probes[k]) || kprobe_gone(&probes[k])))
			through |= BIT(k);
	*which = through | (kprobes_out ? KPROBES_OUT : 0);
	if ((through & ALL_SIX) == ALL_SIX)
		return fs_probes_count();
	if (kprobes_out)
		return hweight_long(through) + fs_module_probes_count();
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
			pr_err("%u of %u hooks are not in effect (self-test got through:%s%s%s; hooks disarmed? see /sys/kernel/debug/kprobes/enabled and sysctl kernel.ftrace_enabled; or another ftrace user there: a livepatch or BPF program, 'I' or 'D' in tracing/enabled_functions): new names are NOT checked\n",
			       unhooked, fs_probes_count(), ops,
			       which & ALL_SIX ? "" : " none, a filesystem module's probe is out",
			       which & KPROBES_OUT ? "; kprobes are disarmed as a whole" : "");
		} else {
			pr_notice("all %u hooks are in effect again\n",
				  fs_probes_count());
		}
		last_unhooked = unhooked;
	}
	if (missed != last_missed) {
		pr_warn("%llu probe hits missed (another probe was running on that CPU, too many overlayfs operations at once, an overlayfs copy-up begun while the probes were disarmed, or an unmount fs/mounts did not see): hooked operations refused (EAGAIN) or not checked, overlayfs copy-ups checked as new names, or an fs/mounts entry kept\n",
			missed - last_missed);
		last_missed = missed;
	}
}

/*
 * enable_kprobe() while kprobes are disarmed as a whole (debugfs
 * kprobes/enabled 0) returns 0 and arms nothing, and the probe stays
 * disabled when kprobes are armed again: arm_all_kprobes() arms only the
 * probes not disabled (review round 13: the six "armed" that way let bad
 * names through for good).  So each kprobe the self-test got through is
 * disabled and enabled again; if kprobes were out as a whole (the canary
 * did not fire, or all six got through), the canary and the probes after
 * the locks and in filesystem modules are too.  While kprobes are still
 * disarmed this changes nothing (neither call patches any code then);
 * once they are back, it arms them.  A probe the self-test got through
 * checks nothing: cycling it opens no window.  The ftrace_ops, if it
 * failed to register when armed (a livepatch came meanwhile), is tried
 * again.
 */
static void rearm(unsigned long which)
{
	unsigned int k;

	lockdep_assert_held(&health_mutex);
	ftrace_hook_set_armed(true);
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(which & on_kprobe & BIT(k)) || kprobe_gone(&probes[k]))
			continue;
		disable_kprobe(&probes[k]);
		enable_kprobe(&probes[k]);
	}
	if (!(which & KPROBES_OUT) && (which & ALL_SIX) != ALL_SIX)
		return;
	disable_kprobe(&canary);
	enable_kprobe(&canary);
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
		unsigned long lost = ftrace_lost_now();

		rearm(which);
		unhooked = self_test(&which);
		if (!unhooked && !lost)
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
 * @armed: true to arm them, false to disarm them
 *
 * Every probe but overlay.ko's, which stay armed (module_probes.c).  The
 * ftrace_ops is registered or unregistered; kprobes are enabled or
 * disabled.
 *
 * A disarmed probe costs nothing: its int3 or ftrace call is gone from
 * the probed function.  While disarmed on purpose, the self-test counts
 * no probe as unhooked.  A probe that does not arm is left to the
 * self-test, which counts it in fs/unhooked and logs it.
 *
 * An error of arming or disarming is logged.
 *
 * Context: process context; may sleep (kprobe_mutex, ftrace_lock, text
 * patching, RCU grace periods).
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
	err = armed ? enable_kprobe(&canary) : disable_kprobe(&canary);
	if (err && !ret)
		ret = err;
	err = ftrace_hook_set_armed(armed);
	if (err && !ret)
		ret = err;
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(on_kprobe & BIT(k)))
			continue;
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
		pr_info("%u probes %s\n", FS_PROBE_COUNT + changed -
			(armed ? (unsigned int)hweight_long(ftrace_lost_now()) :
				 0),
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

/* Unregister every hook; on return no task is in a handler or a return function. */
static void unregister_probes(void)
{
	unsigned int k;

	/* Waits for callbacks that are running. */
	ftrace_hook_exit();
	for (k = 0; k < FS_PROBE_COUNT; k++)
		if (on_kprobe & BIT(k))
			unregister_kprobe(&probes[k]);
	on_kprobe = 0;
	if (canary.addr)
		unregister_kprobe(&canary);
	/* Nothing notes a function any more. */
	fs_after_lock_exit();
	/*
	 * A task sent to a return function may be preempted before its return: wait
	 * until every task has passed a voluntary context switch before the
	 * module text goes away, as ftrace does for its trampolines.
	 */
	synchronize_rcu_tasks();
}

/*
 * Each function's kprobe, registered disabled: kprobes finds the symbol
 * (kallsyms is not exported), skips an IBT landing pad, and says whether
 * ftrace calls us there.  All or nothing, naming the culprit.
 */
static int register_kprobes_disabled(void)
{
	unsigned int k;
	int ret;

	canary.addr = (kprobe_opcode_t *)utf8guard_fs_kprobe_canary;
	ret = register_kprobe(&canary);
	if (ret) {
		canary.addr = NULL;
		pr_err("cannot register a kprobe: error %d; not loading\n",
		       ret);
		return ret;
	}
	for (k = 0; k < FS_PROBE_COUNT; k++) {
		ret = fs_register_kprobe(&probes[k]);
		if (ret) {
			pr_err("cannot probe %s: error %d%s; not loading: no hook is better than a partial one\n",
			       probes[k].symbol_name, ret,
			       ret == -ENOENT ? " (no such symbol: kernel built without CONFIG_SECURITY?)" : "");
			return ret;
		}
		on_kprobe |= BIT(k);
	}
	return 0;
}

/* Arm the kprobes that stay: those ftrace could not take. */
static int enable_kprobes(void)
{
	unsigned int k;
	int ret;

	for (k = 0; k < FS_PROBE_COUNT; k++) {
		if (!(on_kprobe & BIT(k)))
			continue;
		ret = enable_kprobe(&probes[k]);
		if (ret) {
			pr_err("cannot arm the kprobe on %s: error %d; not loading\n",
			       probes[k].symbol_name, ret);
			return ret;
		}
	}
	return 0;
}

/**
 * fs_probes_init() - register every probe, or none
 *
 * Return: 0 with all probes in effect; otherwise an error, logged, and
 * no probe registered.
 */
int fs_probes_init(void)
{
	unsigned int unhooked;
	int ret;

	ret = fs_after_lock_init();
	if (ret) {
		pr_err("cannot watch for filesystem modules going or mounts: error %d; not loading\n",
		       ret);
		fs_after_lock_exit();
		return ret;
	}
	ret = register_kprobes_disabled();
	if (!ret)
		ret = ftrace_hook_init();
	if (!ret)
		ret = enable_kprobes();
	if (ret) {
		unregister_probes();
		return ret;
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
	unregister_probes();
	fs_selftest_exit();
	return ret;
}

/* Remove the probes; on return no task can be in a handler or a return function. */
void fs_probes_exit(void)
{
	cancel_delayed_work_sync(&health_work);
	fs_module_probes_exit();
	unregister_probes();
	fs_selftest_exit();
}
