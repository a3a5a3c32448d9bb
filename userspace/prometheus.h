/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus text exposition format (version 0.0.4), as node_exporter's
 * textfile collector reads it: samples are collected, then written grouped
 * by metric family, each family once with its # HELP and # TYPE lines.
 */
#ifndef UTF8GUARDCTL_PROMETHEUS_H
#define UTF8GUARDCTL_PROMETHEUS_H

#include <stdint.h>
#include <stdio.h>

struct prom_set;

struct prom_set *prom_new(void);
void prom_free(struct prom_set *set);

/*
 * Add one sample.  @family is made a valid metric name ([a-zA-Z_:]
 * [a-zA-Z0-9_:]*: other characters become '_'); @type is "counter" or
 * "gauge"; the @help of the first sample of a family is its HELP text.
 * @labels is NULL or "name1", "value1", ..., NULL pairs given as an array.
 * Returns 0, or -ENOMEM.
 */
int prom_add(struct prom_set *set, const char *family, const char *type,
	     const char *help, const char *const *labels, uint64_t value);

/* Write every family; returns 0 or -EIO. */
int prom_write(const struct prom_set *set, FILE *out);

#endif /* UTF8GUARDCTL_PROMETHEUS_H */
