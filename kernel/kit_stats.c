// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of the hook kit (hook_kit.h): a table of rows and columns and
 * one counter per reason, in one counter set (utf8guard_counters.h).
 * utf8guard.ko and every hook module count in one of these.
 */
#include <linux/export.h>

#include "hook_kit.h"

static unsigned int row_count(const struct utf8guard_kit_stats *stats)
{
	return stats->rows ? stats->row_count : 1;
}

/**
 * utf8guard_kit_stats_init() - allocate a set's counters, all 0
 * @stats: a set with its layout (names and counts) filled in
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int utf8guard_kit_stats_init(struct utf8guard_kit_stats *stats)
{
	stats->reason_first = row_count(stats) * stats->column_count;
	return utf8guard_counters_init(&stats->counters, stats->reason_first +
				       stats->reason_count);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_stats_init);

/**
 * utf8guard_kit_stats_destroy() - free a set's counters
 * @stats: a set from utf8guard_kit_stats_init(), no longer counted in
 *
 * Context: process context.
 */
void utf8guard_kit_stats_destroy(struct utf8guard_kit_stats *stats)
{
	utf8guard_counters_destroy(&stats->counters);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_stats_destroy);

/**
 * utf8guard_kit_read() - one table cell, summed over all CPUs
 * @stats: an initialised set
 * @row: the row, 0 with a single row
 * @column: the column
 *
 * Context: any context.
 * Return: the count.
 */
u64 utf8guard_kit_read(const struct utf8guard_kit_stats *stats,
		       unsigned int row, unsigned int column)
{
	return utf8guard_counters_read(&stats->counters,
				       row * stats->column_count + column);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_read);

/**
 * utf8guard_kit_read_column() - a column summed over all rows
 * @stats: an initialised set
 * @column: the column
 *
 * Context: any context.
 * Return: the count.
 */
u64 utf8guard_kit_read_column(const struct utf8guard_kit_stats *stats,
			      unsigned int column)
{
	unsigned int row;
	u64 sum = 0;

	for (row = 0; row < row_count(stats); row++)
		sum += utf8guard_kit_read(stats, row, column);
	return sum;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_read_column);

/**
 * utf8guard_kit_read_reason() - the counter of one reason
 * @stats: an initialised set
 * @reason: an enum utf8guard_reason below @stats->reason_count
 *
 * Context: any context.
 * Return: the count.
 */
u64 utf8guard_kit_read_reason(const struct utf8guard_kit_stats *stats,
			      unsigned int reason)
{
	return utf8guard_counters_read(&stats->counters,
				       stats->reason_first + reason);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_read_reason);

/**
 * utf8guard_kit_stats_reset() - set every counter of a set to 0
 * @stats: an initialised set
 *
 * Events counted while the reset runs may survive it.
 *
 * Context: any context.
 */
void utf8guard_kit_stats_reset(struct utf8guard_kit_stats *stats)
{
	utf8guard_counters_reset(&stats->counters);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_stats_reset);
