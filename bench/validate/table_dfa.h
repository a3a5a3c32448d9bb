/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The benchmark's byte-at-a-time table DFA baseline (table_dfa.c). */
#ifndef UTF8GUARD_BENCH_TABLE_DFA_H
#define UTF8GUARD_BENCH_TABLE_DFA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void table_dfa_init(void);
bool table_dfa_valid(const uint8_t *buf, size_t len);

#endif /* UTF8GUARD_BENCH_TABLE_DFA_H */
