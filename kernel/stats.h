/* SPDX-License-Identifier: GPL-2.0 */
/* Counters of utf8guard.ko, shown in /sys/kernel/utf8guard/stats/. */
#ifndef UTF8GUARD_STATS_H
#define UTF8GUARD_STATS_H

#include "hook_kit.h"
#include "utf8guard_core.h"

enum stat_counter {
	STAT_CHECKED,
	STAT_REJECTED,
	STAT_AUDITED,
	STAT_AUDIT_MISSED,
	/* One per reason, indexed by STAT_REASON_FIRST + enum utf8guard_reason. */
	STAT_REASON_FIRST,
	STAT_COUNT = STAT_REASON_FIRST + UTF8GUARD_REASON_COUNT
};

extern struct utf8guard_kit_stats core_stats;

void stats_add(enum stat_counter counter);

#endif /* UTF8GUARD_STATS_H */
