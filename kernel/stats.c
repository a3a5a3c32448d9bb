// SPDX-License-Identifier: GPL-2.0
/* Counters of utf8guard.ko: a counter set (utf8guard_counters.h). */
#include "stats.h"
#include "utf8guard_counters.h"

static struct utf8guard_counters stats;

int stats_init(void)
{
	return utf8guard_counters_init(&stats, STAT_COUNT);
}

void stats_exit(void)
{
	utf8guard_counters_destroy(&stats);
}

void stats_add(enum stat_counter counter)
{
	utf8guard_counters_inc(&stats, counter);
}

u64 stats_read(enum stat_counter counter)
{
	return utf8guard_counters_read(&stats, counter);
}

void stats_reset(void)
{
	utf8guard_counters_reset(&stats);
}
