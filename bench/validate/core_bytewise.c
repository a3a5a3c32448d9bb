// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The validator core, compiled into the benchmark here and only here, so
 * that the baseline can reach the core's own DFA table: the byte-at-a-time
 * table DFA the fast path is measured against is that table walked one byte
 * and one test at a time, with no block and no ASCII skipping.  There is
 * no second UTF-8 table in the benchmark.
 */
#include "utf8guard_scalar.c"
#include "core_bytewise.h"

bool core_bytewise_valid(const u8 *buf, size_t len)
{
	u64 state = DFA_ACCEPT;
	size_t i;

	for (i = 0; i < len; i++) {
		state = (dfa_row[buf[i]] >> state) & DFA_MASK;
		if (state == DFA_ERROR)
			return false;
	}
	return state == DFA_ACCEPT;
}
