// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard_fs.ko: per operation (checked, rejected, audited)
 * and per reason, in a kit counter set of utf8guard.ko (hook_kit.h).
 * For every operation, checked = clean + rejected + audited + exempted,
 * and the reasons sum to rejected + audited.
 */
#include "fs_hook.h"
#include "hook_kit.h"

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
	[FS_EXEMPTED] = "exempted",
};

/* A row per operation (stats/<op>/), an outcome per column. */
struct utf8guard_kit_stats fs_stats = {
	.columns = outcome_names,
	.column_count = FS_OUTCOME_COUNT,
	.rows = op_names,
	.row_count = FS_OP_COUNT,
	.reason_count = UTF8GUARD_REASON_COUNT,
};

const char *fs_op_name(enum fs_op op)
{
	return op < FS_OP_COUNT ? op_names[op] : "?";
}

/*
 * Count one check of @op: @violation is what the policy refuses, or NULL;
 * @refused is utf8guard_judge()'s verdict on it.
 */
void fs_count(enum fs_op op, const struct utf8guard_report *violation,
	      bool refused)
{
	utf8guard_kit_count(&fs_stats, op, FS_CHECKED);
	if (!violation)
		return;
	utf8guard_kit_count_reason(&fs_stats, violation->reason);
	utf8guard_kit_count(&fs_stats, op, refused ? FS_REJECTED : FS_AUDITED);
}

/*
 * Count one check of @op whose violation fs/exempt let through: checked
 * and exempted, no reason.
 */
void fs_count_exempted(enum fs_op op)
{
	utf8guard_kit_count(&fs_stats, op, FS_CHECKED);
	utf8guard_kit_count(&fs_stats, op, FS_EXEMPTED);
}
