// SPDX-License-Identifier: GPL-2.0
/*
 * What a probe's pre-handler does to refuse: it sets the return value
 * and the instruction pointer to a return stub, skipping the probed
 * function (why, in probes.c and Documentation/filesystem-hook-design.rst).
 * Shared by the probes on security_inode_*() (probes.c) and those in
 * filesystem modules (btrfs.c, bcachefs.c, ocfs2.c, module_probes.c),
 * which call only this, not each other.
 */
#include <linux/kprobes.h>
#include <linux/objtool.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/linkage.h>

#include "fs_hook.h"

/*
 * Where a refused call "returns" from.  The probes sit on the first
 * instruction, before any stack frame is built, so [rsp] is still the
 * caller's return address: a bare return hands -EILSEQ (in rax) to the
 * caller.  ASM_RET is "jmp __x86_return_thunk" with CONFIG_RETHUNK.  It
 * is only reached by iret or the ftrace trampoline's ret, never by an
 * indirect branch, hence no ENDBR.
 */
asmlinkage void utf8guard_fs_return_stub(void);
asm(
	".pushsection .text\n"
	".type utf8guard_fs_return_stub, @function\n"
	"utf8guard_fs_return_stub:\n"
		ANNOTATE_NOENDBR
		ASM_RET
	".size utf8guard_fs_return_stub, .-utf8guard_fs_return_stub\n"
	".popsection\n"
);

/**
 * fs_probe_divert() - make the probed function return at once
 * @regs: the pre-handler's registers, at the probed function's entry
 * @result: what it returns
 *
 * Return: 1, what a pre-handler that changed the instruction pointer
 * returns.
 */
int fs_probe_divert(struct pt_regs *regs, long result)
{
	regs_set_return_value(regs, result);
	instruction_pointer_set(regs, (unsigned long)utf8guard_fs_return_stub);
	/* ip changed: no single-stepping, no post_handler. */
	return 1;
}

/*
 * nfsd has no NFS status for EILSEQ: its nfserrno() warns (a panic with
 * panic_on_warn) and answers NFSERR_IO.  Its threads get EINVAL instead.
 * Only kernel threads are considered: a process cannot rename itself
 * into one.
 */
static bool current_is_nfsd(void)
{
	return (current->flags & PF_KTHREAD) &&
	       !strncmp(current->comm, "nfsd", TASK_COMM_LEN);
}

/**
 * fs_probe_refuse() - make the probed function return the verdict
 * @regs: the pre-handler's registers, at the probed function's entry
 * @verdict: 0 to let the call run, or the error it returns instead
 *
 * Return: what the pre-handler returns: 1 if it changed the instruction
 * pointer, else 0.
 */
int fs_probe_refuse(struct pt_regs *regs, int verdict)
{
	if (!verdict)
		return 0;
	if (verdict == -EILSEQ && unlikely(current_is_nfsd()))
		verdict = -EINVAL;
	return fs_probe_divert(regs, verdict);
}

/**
 * fs_probe_check_name() - check a new name from a pre-handler, and refuse it
 * @regs: the pre-handler's registers, at the probed function's entry
 * @op: the operation, for the counters and the log
 * @sb: the filesystem the name is made on
 * @name: the name's bytes
 * @len: its length
 *
 * For the probes in filesystem modules (btrfs.c, bcachefs.c, ocfs2.c).
 *
 * Return: as fs_probe_refuse().
 */
int fs_probe_check_name(struct pt_regs *regs, enum fs_op op,
			const struct super_block *sb, const u8 *name,
			size_t len)
{
	struct utf8guard_policy policy;

	if (!fs_check_wanted(sb, &policy))
		return 0;
	return fs_probe_refuse(regs, fs_check_bytes(op, &policy, name, len));
}

/*
 * Does nothing: a post_handler keeps an int3 kprobe from being
 * jump-optimized (see the top of probes.c); an ftrace-based kprobe calls
 * it.  module_probes.c's kprobes use it too.
 */
void fs_probe_keep_unoptimized(struct kprobe *p, struct pt_regs *regs,
			       unsigned long flags)
{
}
