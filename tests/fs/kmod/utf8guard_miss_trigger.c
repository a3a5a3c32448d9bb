// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_miss_trigger.ko - a test module that makes utf8guard_fs.ko's
 * probe on security_inode_create() miss, on purpose.
 *
 *	insmod utf8guard_miss_trigger.ko calls=N
 *
 * kprobes run one handler at a time per CPU: a probed function hit while
 * another kprobe's handler is running on that CPU does not run its own
 * handler, the kernel counts the hit in that probe's nmissed
 * (Documentation/trace/kprobes.rst; kprobes_inc_nmissed_count() in
 * kprobe_ftrace_handler() for ftrace-based probes, reenter_kprobe() for
 * int3 ones).  This module registers a kprobe on a function of its own,
 * calls that function N times, and from the probe's handler calls
 * security_inode_create() with a directory inode that is S_PRIVATE: the
 * real function then returns 0 at once, calling no LSM, and utf8guard_fs's
 * probe there misses N times.  Where utf8guard_fs hooks the function by
 * an ftrace_ops of its own instead (kernel/fs/probes.c), a hit misses when
 * ftrace's recursion lock of the context is taken: the handler takes it
 * (and its one-level "transition" allowance) before the call, so that
 * utf8guard_fs's callback cannot, and counts the miss.  fs_hook_test.sh
 * checks that fs/missed grows by exactly N and that utf8guard_fs logs it.
 *
 * Loading fails (and logs why) if the handler did not run N times or the
 * nested call did not return 0.  It stays loaded otherwise, doing
 * nothing, until rmmod.
 */

#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/security.h>
#include <linux/slab.h>

static unsigned int calls = 1;
module_param(calls, uint, 0);
MODULE_PARM_DESC(calls, "How many misses to cause (default 1)");

static struct inode *private_dir;
static struct dentry *private_dentry;
static unsigned int target_runs, handler_runs, nested_zero;

/* Probed; the store keeps calls to it from being optimized away. */
static noinline void miss_trigger_target(void)
{
	WRITE_ONCE(target_runs, target_runs + 1);
}

/* The call, with ftrace's recursion lock of this context taken. */
static int call_hooked(struct kprobe *p, struct pt_regs *regs)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
	int bits[2], n = 0, bit;

	/* The context's bit, then the transition bit; the third fails. */
	while (n < ARRAY_SIZE(bits)) {
		bit = ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
		if (bit < 0)
			break;
		bits[n++] = bit;
	}
#endif
	handler_runs++;
	if (!security_inode_create(private_dir, private_dentry, 0))
		nested_zero++;
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
	while (n > 0)
		ftrace_test_recursion_unlock(bits[--n]);
#endif
	return 0;
}

static struct kprobe probe = {
	.pre_handler = call_hooked,
};

static int __init miss_trigger_init(void)
{
	unsigned int k;
	int ret;

	private_dir = kzalloc(sizeof(*private_dir), GFP_KERNEL);
	private_dentry = kzalloc(sizeof(*private_dentry), GFP_KERNEL);
	if (!private_dir || !private_dentry) {
		ret = -ENOMEM;
		goto out;
	}
	/* security_inode_create() reads only this, and returns 0. */
	private_dir->i_flags = S_PRIVATE;
	probe.addr = (kprobe_opcode_t *)miss_trigger_target;
	ret = register_kprobe(&probe);
	if (ret) {
		pr_err("cannot probe miss_trigger_target: error %d\n", ret);
		goto out;
	}
	for (k = 0; k < calls; k++)
		miss_trigger_target();
	unregister_kprobe(&probe);
	pr_info("%u calls, %u handler runs, security_inode_create() returned 0 %u times (%s)\n",
		target_runs, handler_runs, nested_zero,
		kprobe_ftrace(&probe) ? "ftrace-based kprobe" : "int3 kprobe");
	if (target_runs != calls || handler_runs != calls ||
	    nested_zero != calls)
		ret = -EIO;
out:
	kfree(private_dentry);
	kfree(private_dir);
	return ret;
}

static void __exit miss_trigger_exit(void)
{
}

module_init(miss_trigger_init);
module_exit(miss_trigger_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test module: make utf8guard_fs.ko's kprobes miss");
