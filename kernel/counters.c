// SPDX-License-Identifier: GPL-2.0
/*
 * Counter sets (utf8guard_counters.h): per-CPU arrays of u64, summed when
 * read.  Exported for the hook modules.
 */
#include <linux/errno.h>
#include <linux/export.h>

#include "utf8guard_counters.h"

/**
 * utf8guard_counters_init() - allocate a counter set, all counters 0
 * @set: the set to initialise
 * @count: number of counters
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int utf8guard_counters_init(struct utf8guard_counters *set,
			    unsigned int count)
{
	set->value = __alloc_percpu(count * sizeof(u64), __alignof__(u64));
	if (!set->value)
		return -ENOMEM;
	set->count = count;
	return 0;
}
EXPORT_SYMBOL_GPL(utf8guard_counters_init);

/**
 * utf8guard_counters_destroy() - free a counter set
 * @set: a set from utf8guard_counters_init(), no longer counted in
 *
 * Context: process context.
 */
void utf8guard_counters_destroy(struct utf8guard_counters *set)
{
	free_percpu(set->value);
	set->value = NULL;
	set->count = 0;
}
EXPORT_SYMBOL_GPL(utf8guard_counters_destroy);

/**
 * utf8guard_counters_read() - the sum of one counter over all CPUs
 * @set: an initialised counter set
 * @index: which counter, below @set->count
 *
 * Context: any context.
 * Return: the sum.
 */
u64 utf8guard_counters_read(const struct utf8guard_counters *set,
			    unsigned int index)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(set->value + index, cpu));
	return sum;
}
EXPORT_SYMBOL_GPL(utf8guard_counters_read);

/**
 * utf8guard_counters_reset() - set every counter of a set to 0
 * @set: an initialised counter set
 *
 * Events counted while the reset runs may survive it.
 *
 * Context: any context.
 */
void utf8guard_counters_reset(struct utf8guard_counters *set)
{
	unsigned int k;
	int cpu;

	for_each_possible_cpu(cpu)
		for (k = 0; k < set->count; k++)
			WRITE_ONCE(*per_cpu_ptr(set->value + k, cpu), 0);
}
EXPORT_SYMBOL_GPL(utf8guard_counters_reset);
