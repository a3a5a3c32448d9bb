// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_hookproto.ko - a benchmark prototype, not part of utf8guard:
 * the same trivial hook on security_inode_create() through each mechanism
 * issue 30 names, so that `make bench-fs --mechanisms` can time them side
 * by side.  The hook refuses a name whose first byte is 0xFF with -EILSEQ
 * (skipping the function, as utf8guard_fs.ko does) and lets every other
 * name through; it checks nothing else.
 *
 * mech= (read at load):
 *   kprobe         an ftrace-based kprobe with a pre_handler and an empty
 *                  post_handler, as kernel/fs/probes.c registers it (the
 *                  post_handler puts it on kprobes' IPMODIFY ftrace_ops)
 *   kprobe-nopost  the same without the post_handler (kprobes' plain
 *                  ftrace_ops: no IPMODIFY, no livepatch clash detected)
 *   ftrace         an ftrace_ops of our own, SAVE_REGS | IPMODIFY, on that
 *                  one function (ftrace_set_filter_ip()); the handler takes
 *                  ftrace's recursion lock as kprobe_ftrace_handler() does
 *   direct         an ftrace direct call (register_ftrace_direct_multi())
 *                  to a trampoline of our own: no pt_regs at all; it
 *                  returns -EILSEQ to the caller itself
 * fprobe is not here: Debian's 6.1 kernel is built without CONFIG_FPROBE.
 *
 * check=1 (read at load) makes the hook do real work too: the name is
 * checked with utf8guard.ko's utf8guard_check_name() (the policy, the
 * scan, the counters, as utf8guard_fs.ko's check less its filesystem
 * and overlay layers), and refused if that says so.
 *
 * Only for Debian's 6.1 kernel (x86-64, no IBT): the direct-call API
 * changed in 6.5, and the trampoline has no ENDBR.
 */
#include <linux/dcache.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/security.h>
#include <linux/string.h>
#include <asm/linkage.h>

#include "utf8guard.h"

static char *mech = "kprobe";
module_param(mech, charp, 0444);
MODULE_PARM_DESC(mech, "kprobe, kprobe-nopost, ftrace or direct");
static bool check;
module_param(check, bool, 0444);
MODULE_PARM_DESC(check, "Check names with utf8guard_check_name() (default 0)");

static unsigned long target;

/* The error the hooked call returns instead of running, or 0. */
static int verdict(const struct dentry *dentry)
{
	if (check)
		return utf8guard_check_name((const char *)dentry->d_name.name,
					    dentry->d_name.len, "create");
	return dentry->d_name.len && dentry->d_name.name[0] == 0xff ?
	       -EILSEQ : 0;
}

/* Where a refused call returns from, as kernel/fs/refuse.c's stub. */
asmlinkage void utf8guard_hookproto_stub(void);
asm(
	".pushsection .text\n"
	".type utf8guard_hookproto_stub, @function\n"
	"utf8guard_hookproto_stub:\n"
	ANNOTATE_NOENDBR
	ASM_RET
	".size utf8guard_hookproto_stub, .-utf8guard_hookproto_stub\n"
	".popsection\n");

static void divert(struct pt_regs *regs, int error)
{
	regs_set_return_value(regs, error);
	instruction_pointer_set(regs, (unsigned long)utf8guard_hookproto_stub);
}

/* kprobe, kprobe-nopost */
static int pre(struct kprobe *p, struct pt_regs *regs)
{
	int error = verdict((void *)regs_get_kernel_argument(regs, 1));

	if (!error)
		return 0;
	divert(regs, error);
	return 1;
}

static void post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
}

static struct kprobe probe = {
	.symbol_name = "security_inode_create",
	.pre_handler = pre,
};

/* ftrace */
static void notrace on_entry(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);
	int error;

	if (bit < 0)
		return;
	error = verdict((void *)regs_get_kernel_argument(regs, 1));
	if (error)
		divert(regs, error);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops ops = {
	.func = on_entry,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

/* direct */
static int __used utf8guard_hookproto_direct_check(struct inode *dir,
						   struct dentry *dentry)
{
	return verdict(dentry);
}

/*
 * Called from the nop at security_inode_create()'s entry, before its
 * frame: [rsp] is the way back into it, [rsp + 8] its caller's.  The
 * arguments are saved around the check; a refusal replaces the way back
 * into the function with the stub, which returns -EILSEQ (in eax) to the
 * caller.
 */
asmlinkage void utf8guard_hookproto_tramp(void);
asm(
	".pushsection .text\n"
	".type utf8guard_hookproto_tramp, @function\n"
	"utf8guard_hookproto_tramp:\n"
	ANNOTATE_NOENDBR
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	pushq %rdi\n"
	"	pushq %rsi\n"
	"	pushq %rdx\n"
	"	pushq %rcx\n"
	"	pushq %r8\n"
	"	pushq %r9\n"
	"	call utf8guard_hookproto_direct_check\n"
	"	popq %r9\n"
	"	popq %r8\n"
	"	popq %rcx\n"
	"	popq %rdx\n"
	"	popq %rsi\n"
	"	popq %rdi\n"
	"	leave\n"
	"	testl %eax, %eax\n"
	"	jnz 1f\n"
	ASM_RET
	"1:	leaq utf8guard_hookproto_stub(%rip), %rcx\n"
	"	movq %rcx, (%rsp)\n"
	ASM_RET
	".size utf8guard_hookproto_tramp, .-utf8guard_hookproto_tramp\n"
	".popsection\n");

static struct ftrace_ops direct_ops;

static int __init hookproto_init(void)
{
	int ret;

	target = (unsigned long)security_inode_create;
	if (!strcmp(mech, "kprobe") || !strcmp(mech, "kprobe-nopost")) {
		if (!strcmp(mech, "kprobe"))
			probe.post_handler = post;
		ret = register_kprobe(&probe);
		if (!ret && !kprobe_ftrace(&probe)) {
			unregister_kprobe(&probe);
			ret = -EOPNOTSUPP;
		}
	} else if (!strcmp(mech, "ftrace")) {
		ret = ftrace_set_filter_ip(&ops, target, 0, 0);
		if (!ret)
			ret = register_ftrace_function(&ops);
	} else if (!strcmp(mech, "direct")) {
		ret = ftrace_set_filter_ip(&direct_ops, target, 0, 0);
		if (!ret)
			ret = register_ftrace_direct_multi(&direct_ops,
					(unsigned long)utf8guard_hookproto_tramp);
	} else {
		ret = -EINVAL;
	}
	if (ret)
		pr_err("mech=%s: error %d\n", mech, ret);
	else
		pr_info("mech=%s on security_inode_create%s\n", mech,
			check ? ", names checked" : "");
	return ret;
}

static void __exit hookproto_exit(void)
{
	if (!strcmp(mech, "ftrace"))
		unregister_ftrace_function(&ops);
	else if (!strcmp(mech, "direct"))
		unregister_ftrace_direct_multi(&direct_ops,
				(unsigned long)utf8guard_hookproto_tramp);
	else
		unregister_kprobe(&probe);
	/* A task may still be in the stub or the trampoline. */
	synchronize_rcu_tasks();
}

module_init(hookproto_init);
module_exit(hookproto_exit);
MODULE_DESCRIPTION("utf8guard benchmark prototype: hook mechanisms side by side");
MODULE_LICENSE("GPL");
