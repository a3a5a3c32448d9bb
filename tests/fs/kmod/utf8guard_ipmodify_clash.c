// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_ipmodify_clash.ko - a test module that stands in for a
 * livepatch of security_inode_mkdir(): an ftrace_ops with SAVE_REGS and
 * IPMODIFY on that function, as a livepatch registers (kernel/livepatch/
 * patch.c), whose callback changes nothing.  ftrace lets one IPMODIFY ops
 * on a function: utf8guard_fs.ko, which hooks it by such an ops of its own
 * (kernel/fs/probes.c), must refuse to load while this one is loaded, and
 * this one must fail to load while utf8guard_fs.ko is.  fs_hook_test.sh
 * checks both.
 *
 * The function's address comes from a kprobe registered disabled, as
 * kernel/fs/probes.c finds it (kallsyms_lookup_name() is not exported).
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static void notrace clash_entry(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
}

static struct ftrace_ops clash_ops = {
	.func = clash_entry,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init clash_init(void)
{
	struct kprobe kp = {
		.symbol_name = "security_inode_mkdir",
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned long addr;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot find security_inode_mkdir: error %d\n", ret);
		return ret;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	ret = ftrace_set_filter_ip(&clash_ops, addr, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&clash_ops);
	if (ret) {
		pr_err("cannot put an IPMODIFY ftrace_ops on security_inode_mkdir: error %d\n",
		       ret);
		ftrace_free_filter(&clash_ops);
		return ret;
	}
	pr_info("an IPMODIFY ftrace_ops is on security_inode_mkdir\n");
	return 0;
}

static void __exit clash_exit(void)
{
	unregister_ftrace_function(&clash_ops);
	ftrace_free_filter(&clash_ops);
}

module_init(clash_init);
module_exit(clash_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test module: an IPMODIFY ftrace_ops on security_inode_mkdir, as a livepatch");
