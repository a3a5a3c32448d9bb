// SPDX-License-Identifier: GPL-2.0
/*
 * What a probe's pre-handler does to refuse: it sets the return value,
 * and the instruction pointer to a function that returns it, skipping the
 * probed function (why, in probes.c and
 * Documentation/filesystem-hook-design.rst).
 * Shared by the probes on security_inode_*() (probes.c) and those in
 * filesystem modules (btrfs.c, bcachefs.c, ocfs2.c, module_probes.c),
 * which call only this, not each other.
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/string.h>

#include "fs_hook.h"

/*
 * Where a refused call "returns" from: a function that returns the
 * result itself, one per result.  The hook sits on the hooked function's
 * first instruction, before any stack frame is built, so [rsp] is still
 * the caller's return address: entered in place of the hooked function,
 * each hands its result to the caller.  They must not rely on the rax a
 * handler set: a BPF trampoline on the same function (fentry, fexit,
 * fmod_ret: ftrace lets those share a function with an IPMODIFY ops)
 * runs its programs after the handler, and either returns into the new
 * ip with its own rax or calls it as "the original" function, by an
 * indirect call (review round 19: a bare "ret" stub returned 0, success,
 * for a refused name).  So each is an ordinary function, with ENDBR under
 * IBT; notrace, so that ftrace does not call into it.
 */
static noinline notrace long fs_return_eilseq(void)
{
	return -EILSEQ;
}

static noinline notrace long fs_return_einval(void)
{
	return -EINVAL;
}

static noinline notrace long fs_return_eagain(void)
{
	return -EAGAIN;
}

static noinline notrace long fs_return_canary(void)
{
	return FS_CANARY_RESULT;
}

/* The function that returns @result: every result a handler gives. */
static unsigned long return_fn(long result)
{
	switch (result) {
	case -EINVAL:
		return (unsigned long)fs_return_einval;
	case -EAGAIN:
		return (unsigned long)fs_return_eagain;
	case FS_CANARY_RESULT:
		return (unsigned long)fs_return_canary;
	default:
		return (unsigned long)fs_return_eilseq;
	}
}

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
	instruction_pointer_set(regs, return_fn(result));
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

/**
 * fs_probe_caller_hidden() - whether a return hook hides a probe's caller
 * @ret: the return address on top of the stack at the probed function's
 *	entry
 * @p: the probe, at that function's entry
 *
 * A probe that tells its callers apart by the return address (a module's
 * call of security_path_mkdir(), module_probes.c; btrfs_mksubvol()'s
 * call of btrfs_check_dir_item_collision(), btrfs.c) finds a trampoline
 * there instead once a return hook of somebody else's runs before it (a
 * kretprobe or fprobe exit event, bpftrace, the function graph tracer):
 * review round 20 made bcachefs subvolumes that way, unchecked.  A true
 * return address follows a direct call of the function (or of its call
 * padding); a trampoline's does not.  Such a call is then judged as if
 * the probe's own caller made it (failing closed): while such a hook is
 * on security_path_mkdir() with bcachefs.ko loaded, every mkdir's name is
 * also judged, and counted, as a subvolume's.
 *
 * Context: a probe handler.
 * Return: true if @ret does not follow a direct call of @p's function.
 */
bool fs_probe_caller_hidden(unsigned long ret, const struct kprobe *p)
{
	unsigned long func = (unsigned long)p->addr, target;
	u8 call[5];
	s32 rel;

	if (copy_from_kernel_nofault(call, (const void *)(ret - sizeof(call)),
				     sizeof(call)) || call[0] != 0xe8)
		return true;
	memcpy(&rel, call + 1, sizeof(rel));
	target = ret + rel;
	/* Its start: an ENDBR before the probe, call padding before that. */
	return target > func || func - target > 32;
}

/*
 * Does nothing: a post_handler keeps an int3 kprobe from being
 * jump-optimized (an optimized kprobe ignores a changed instruction
 * pointer: the refusal would fail open).
 */
static void keep_unoptimized(struct kprobe *p, struct pt_regs *regs,
			     unsigned long flags)
{
}

/**
 * fs_register_kprobe() - register a kprobe whose pre-handler may refuse
 * @kp: the kprobe, without a post_handler
 *
 * An int3 kprobe gets a post_handler that does nothing, not to be
 * jump-optimized.  An ftrace-based kprobe gets none: kprobes arms a
 * function's ftrace-based probes on one of two ftrace_ops, chosen by
 * whether they have a post_handler, and a probe with one that joins a
 * probe (ours or anybody's: a kprobe event, perf, BPF) armed without one
 * breaks the disarming of both (kernel/kprobes.c: a WARN, then a kprobe
 * freed while still hashed and armed: review round 19).  So @kp is
 * registered without, and again with one only if kprobes put it on an
 * int3.  The ip a pre-handler sets is honoured either way.
 *
 * Return: 0 or register_kprobe()'s error.
 */
int fs_register_kprobe(struct kprobe *kp)
{
	struct kprobe clean = *kp;
	int ret = register_kprobe(kp);

	if (ret || kprobe_ftrace(kp))
		return ret;
	unregister_kprobe(kp);
	*kp = clean;
	kp->post_handler = keep_unoptimized;
	return register_kprobe(kp);
}
