/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard counter sets: arrays of per-CPU event counters, summed when
 * read.  utf8guard.ko and the hook modules keep their sysfs counters in
 * these, so that a hook on every CPU counts without sharing a cache line.
 */
#ifndef UTF8GUARD_COUNTERS_H
#define UTF8GUARD_COUNTERS_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * struct utf8guard_counters - a set of per-CPU event counters
 * @value: @count counters per CPU
 * @count: number of counters in the set
 *
 * Set up with utf8guard_counters_init(), counted with
 * utf8guard_counters_inc(), read with utf8guard_counters_read().
 */
struct utf8guard_counters {
	u64 __percpu *value;
	unsigned int count;
};

int utf8guard_counters_init(struct utf8guard_counters *set,
			    unsigned int count);
void utf8guard_counters_destroy(struct utf8guard_counters *set);
u64 utf8guard_counters_read(const struct utf8guard_counters *set,
			    unsigned int index);
void utf8guard_counters_reset(struct utf8guard_counters *set);

/**
 * utf8guard_counters_inc() - count one event
 * @set: an initialised counter set
 * @index: which counter, below @set->count
 *
 * Context: any context; does not sleep.
 */
static inline void utf8guard_counters_inc(struct utf8guard_counters *set,
					  unsigned int index)
{
	this_cpu_inc(set->value[index]);
}

#endif /* UTF8GUARD_COUNTERS_H */
