// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The baseline reaches the core's own DFA table (utf8guard_dfa.h): the
 * byte-at-a-time table DFA the fast path is measured against is that
 * table walked one byte and one test at a time, with no block and no
 * ASCII skipping.  There is no second UTF-8 table in the benchmark.
 */
#include "core_bytewise.h"
#include "utf8guard_dfa.h"

bool core_bytewise_valid(const u8 *buf, size_t len)
{
	u64 state = DFA_ACCEPT;
	size_t i;

	for (i = 0; i < len; i++) {
		state = dfa_step(state, buf[i]);
		if (state == DFA_ERROR)
			return false;
	}
	return state == DFA_ACCEPT;
}
