// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard_fs.ko: per operation (checked, rejected, audited)
 * and per reason; per-CPU, summed when read.  For every operation,
 * checked = clean + rejected + audited, and the reasons sum to rejected +
 * audited.
 */
#include <linux/percpu.h>

#include "fs_hook.h"

struct fs_counters {
	u64 op[FS_OP_COUNT][FS_OUTCOME_COUNT];
	u64 reason[UTF8GUARD_REASON_COUNT];
};

static DEFINE_PER_CPU(struct fs_counters, fs_counters);

static const char *const op_names[FS_OP_COUNT] = {
	[FS_OP_CREATE] = "create",
	[FS_OP_MKDIR] = "mkdir",
	[FS_OP_MKNOD] = "mknod",
	[FS_OP_SYMLINK] = "symlink",
	[FS_OP_SYMLINK_TARGET] = "symlink-target",
	[FS_OP_LINK] = "link",
	[FS_OP_RENAME] = "rename",
};

static const char *const outcome_names[FS_OUTCOME_COUNT] = {
	[FS_CHECKED] = "checked",
	[FS_REJECTED] = "rejected",
	[FS_AUDITED] = "audited",
};

const char *fs_op_name(enum fs_op op)
{
	return op < FS_OP_COUNT ? op_names[op] : "?";
}

const char *fs_outcome_name(enum fs_outcome outcome)
{
	return outcome < FS_OUTCOME_COUNT ? outcome_names[outcome] : "?";
}

/*
 * Count one check of @op: @violation is what the policy refuses, or NULL;
 * @refused is utf8guard_judge()'s verdict on it.
 */
void fs_count(enum fs_op op, const struct utf8guard_report *violation,
	      bool refused)
{
	this_cpu_inc(fs_counters.op[op][FS_CHECKED]);
	if (!violation)
		return;
	if (violation->reason < UTF8GUARD_REASON_COUNT)
		this_cpu_inc(fs_counters.reason[violation->reason]);
	this_cpu_inc(fs_counters.op[op][refused ? FS_REJECTED : FS_AUDITED]);
}

u64 fs_count_read(enum fs_op op, enum fs_outcome outcome)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&fs_counters, cpu)->op[op][outcome]);
	return sum;
}

u64 fs_count_read_total(enum fs_outcome outcome)
{
	u64 sum = 0;
	unsigned int op;

	for (op = 0; op < FS_OP_COUNT; op++)
		sum += fs_count_read(op, outcome);
	return sum;
}

u64 fs_count_read_reason(unsigned int reason)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&fs_counters, cpu)->reason[reason]);
	return sum;
}

/* Counts racing with a reset may survive it, as in utf8guard.ko. */
void fs_count_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct fs_counters *c = per_cpu_ptr(&fs_counters, cpu);
		unsigned int op, k;

		for (op = 0; op < FS_OP_COUNT; op++)
			for (k = 0; k < FS_OUTCOME_COUNT; k++)
				WRITE_ONCE(c->op[op][k], 0);
		for (k = 0; k < UTF8GUARD_REASON_COUNT; k++)
			WRITE_ONCE(c->reason[k], 0);
	}
}
