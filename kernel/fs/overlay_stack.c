// SPDX-License-Identifier: GPL-2.0
/*
 * Whether overlayfs is making the current task's new name: asked only of a
 * task whose credentials are overridden by a user namespace's, on a
 * filesystem outside fs/fstypes (overlay.c, user_ns_verdict()).  Such a
 * task is usually overlayfs working for an overlay mounted in a user
 * namespace, whose every new name is checked.  But two other kernel
 * services override credentials with the task's own, and create names:
 * an io_uring request with a registered personality, and a core dump.
 * Review round 10 had both refused on a filesystem the admin left out of
 * fs/fstypes.
 *
 * The task's stack says which: it is walked from the hook outwards, and
 * the first frame that tells decides.  overlayfs's code (overlay.ko, or
 * an ovl_ function where overlayfs is built in) means overlayfs makes the
 * name, whatever called it: an io_uring request or a core dump on an
 * overlay passes through overlayfs first.  One of the functions below,
 * reached with no overlayfs frame in between, means the service makes it
 * on a filesystem of its own choosing.  Anything else (a stack the
 * unwinder could not follow, a frame unknown here) counts as overlayfs:
 * the name is checked, never let through on a guess.
 */

#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "fs_hook.h"

/* Enough for the hook's frames, the probe's, and the callers that tell. */
#define STACK_DEPTH	48

/*
 * Where a creds-overriding service other than overlayfs creates a name:
 * io_uring's create opcodes (io_openat() may be folded into io_openat2();
 * io_bind() from 6.11), and io_issue_sqe(), which every opcode passes,
 * for those to come (review round 12: IORING_OP_BIND was not listed);
 * do_coredump() (vfs_coredump() in later kernels).
 */
static const char *const other_overriders[] = {
	"io_openat", "io_openat2", "io_mkdirat", "io_symlinkat",
	"io_linkat", "io_renameat", "io_bind", "io_issue_sqe",
	"do_coredump", "vfs_coredump",
};

/* Probe handlers run with preemption off: a buffer per CPU is theirs. */
struct stack_walk {
	unsigned long entries[STACK_DEPTH];
	char symbol[KSYM_SYMBOL_LEN];
};

static DEFINE_PER_CPU(struct stack_walk, stack_walks);

/* @symbol, or a copy the compiler made of it (".isra.0", ".cold"). */
static bool is_other_overrider(const char *symbol)
{
	size_t len = strcspn(symbol, ". ");
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(other_overriders); k++)
		if (strlen(other_overriders[k]) == len &&
		    !strncmp(symbol, other_overriders[k], len))
			return true;
	return false;
}

/* "name [module]" or "name", as sprint_symbol_no_offset() writes it. */
static bool is_overlayfs(const char *symbol)
{
	const char *module = strchr(symbol, ' ');

	if (module)
		return !strcmp(module, " [overlay]");
	return !strncmp(symbol, "ovl_", 4);
}

/**
 * fs_overlay_on_stack() - does overlayfs make the current task's new name?
 * @untold: the answer when the stack tells neither
 *
 * The hooks fail closed (@untold true).  The probes on a filesystem's own
 * functions (after_lock.c) pass false: the hook judged the operation from
 * its stack already, and an int3 kprobe at a function's first byte can
 * leave the unwinder stuck there (the debug kernel: shmem_rename2+0x1).
 *
 * Context: probe handler, preemption disabled (process context: the
 * hooks on name creation).
 *
 * Return: false if the stack shows io_uring's create opcodes or a core
 * dump with no overlayfs code between it and the hook; true if it shows
 * overlayfs code first; @untold when it shows neither.
 */
bool fs_overlay_on_stack(bool untold)
{
	struct stack_walk *walk = this_cpu_ptr(&stack_walks);
	unsigned int count, k;

	count = stack_trace_save(walk->entries, STACK_DEPTH, 0);
	for (k = 0; k < count; k++) {
		/* A return address: the call is the byte before it. */
		sprint_symbol_no_offset(walk->symbol, walk->entries[k] - 1);
		if (is_overlayfs(walk->symbol))
			return true;
		if (is_other_overrider(walk->symbol))
			return false;
	}
	return untold;
}
