// SPDX-License-Identifier: GPL-2.0
/* Counters of utf8guard.ko: a kit counter set (hook_kit.h). */
#include "stats.h"

static const char *const column_names[STAT_REASON_FIRST] = {
	[STAT_CHECKED] = "checked",
	[STAT_REJECTED] = "rejected",
	[STAT_AUDITED] = "audited",
	[STAT_AUDIT_MISSED] = "audit_missed",
};

struct utf8guard_kit_stats core_stats = {
	.columns = column_names,
	.column_count = STAT_REASON_FIRST,
	.reason_count = UTF8GUARD_REASON_COUNT,
};

void stats_add(enum stat_counter counter)
{
	utf8guard_kit_count(&core_stats, 0, counter);
}
