// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard_fs.ko: per operation (checked, rejected, audited)
 * and per reason, in a counter set of utf8guard.ko (utf8guard_counters.h).
 * For every operation, checked = clean + rejected + audited, and the
 * reasons sum to rejected + audited.
 */
#include "fs_hook.h"
#include "utf8guard_counters.h"

/* Index of an operation's outcome, then one per reason. */
#define OP_INDEX(op, outcome)	((op) * FS_OUTCOME_COUNT + (outcome))
#define REASON_INDEX(reason)	(FS_OP_COUNT * FS_OUTCOME_COUNT + (reason))
#define COUNTER_COUNT		REASON_INDEX(UTF8GUARD_REASON_COUNT)

static struct utf8guard_counters counters;

static const char *const op_names[FS_OP_COUNT] = {
	[FS_OP_CREATE] = "create",
	[FS_OP_MKDIR] = "mkdir",
	[FS_OP_MKNOD] = "mknod",
	[FS_OP_SYMLINK] = "symlink",
	[FS_OP_SYMLINK_TARGET] = "symlink-target",
	[FS_OP_LINK] = "link",
	[FS_OP_RENAME] = "rename",
	[FS_OP_SUBVOL] = "subvol",
	[FS_OP_SNAPSHOT] = "snapshot",
	[FS_OP_REFLINK] = "reflink",
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

int fs_counters_init(void)
{
	return utf8guard_counters_init(&counters, COUNTER_COUNT);
}

/* Once no probe handler can run. */
void fs_counters_exit(void)
{
	utf8guard_counters_destroy(&counters);
}

/*
 * Count one check of @op: @violation is what the policy refuses, or NULL;
 * @refused is utf8guard_judge()'s verdict on it.
 */
void fs_count(enum fs_op op, const struct utf8guard_report *violation,
	      bool refused)
{
	utf8guard_counters_inc(&counters, OP_INDEX(op, FS_CHECKED));
	if (!violation)
		return;
	if (violation->reason < UTF8GUARD_REASON_COUNT)
		utf8guard_counters_inc(&counters,
				       REASON_INDEX(violation->reason));
	utf8guard_counters_inc(&counters,
			       OP_INDEX(op, refused ? FS_REJECTED : FS_AUDITED));
}

u64 fs_count_read(enum fs_op op, enum fs_outcome outcome)
{
	return utf8guard_counters_read(&counters, OP_INDEX(op, outcome));
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
	return utf8guard_counters_read(&counters, REASON_INDEX(reason));
}

void fs_count_reset(void)
{
	utf8guard_counters_reset(&counters);
}
