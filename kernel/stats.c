// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard.ko: per-CPU, so that hooks on every CPU count
 * without sharing a cache line; summed when read.
 */
#include <linux/percpu.h>

#include "stats.h"

struct stats {
	u64 counter[STAT_COUNT];
};

static DEFINE_PER_CPU(struct stats, stats);

void stats_add(enum stat_counter counter)
{
	this_cpu_inc(stats.counter[counter]);
}

u64 stats_read(enum stat_counter counter)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&stats, cpu)->counter[counter]);
	return sum;
}

/* Counts racing with a reset may survive it; that is acceptable. */
void stats_reset(void)
{
	int cpu, k;

	for_each_possible_cpu(cpu)
		for (k = 0; k < STAT_COUNT; k++)
			WRITE_ONCE(per_cpu_ptr(&stats, cpu)->counter[k], 0);
}
