// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The baseline the issue measures the fast path against: a plain
 * byte-at-a-time table DFA (byte -> class, (state, class) -> state), the
 * textbook validator (as in Bjoern Hoehrmann's decoder).  Only a yes/no
 * answer, no report; it exists in the benchmark and nowhere else.
 */
#include "table_dfa.h"

enum { ACCEPT, REJECT, TAIL1, TAIL2, TAIL3, AFTER_E0, AFTER_ED, AFTER_F0,
       AFTER_F4, STATES };
enum { C_ASCII, C_80_8F, C_90_9F, C_A0_BF, C_BAD, C_C2_DF, C_E0, C_E1_EF,
       C_ED, C_F0, C_F1_F3, C_F4, CLASSES };

static uint8_t byte_class[256];
static uint8_t next_state[STATES][CLASSES];

void table_dfa_init(void)
{
	unsigned int b, s;

	for (b = 0; b < 256; b++) {
		if (b < 0x80)
			byte_class[b] = C_ASCII;
		else if (b < 0x90)
			byte_class[b] = C_80_8F;
		else if (b < 0xA0)
			byte_class[b] = C_90_9F;
		else if (b < 0xC0)
			byte_class[b] = C_A0_BF;
		else if (b < 0xC2)
			byte_class[b] = C_BAD;
		else if (b < 0xE0)
			byte_class[b] = C_C2_DF;
		else if (b == 0xE0)
			byte_class[b] = C_E0;
		else if (b == 0xED)
			byte_class[b] = C_ED;
		else if (b < 0xF0)
			byte_class[b] = C_E1_EF;
		else if (b == 0xF0)
			byte_class[b] = C_F0;
		else if (b < 0xF4)
			byte_class[b] = C_F1_F3;
		else if (b == 0xF4)
			byte_class[b] = C_F4;
		else
			byte_class[b] = C_BAD;
	}
	for (s = 0; s < STATES; s++)
		for (b = 0; b < CLASSES; b++)
			next_state[s][b] = REJECT;
	next_state[ACCEPT][C_ASCII] = ACCEPT;
	next_state[ACCEPT][C_C2_DF] = TAIL1;
	next_state[ACCEPT][C_E0] = AFTER_E0;
	next_state[ACCEPT][C_E1_EF] = TAIL2;
	next_state[ACCEPT][C_ED] = AFTER_ED;
	next_state[ACCEPT][C_F0] = AFTER_F0;
	next_state[ACCEPT][C_F1_F3] = TAIL3;
	next_state[ACCEPT][C_F4] = AFTER_F4;
	for (b = C_80_8F; b <= C_A0_BF; b++) {
		next_state[TAIL1][b] = ACCEPT;
		next_state[TAIL2][b] = TAIL1;
		next_state[TAIL3][b] = TAIL2;
	}
	next_state[AFTER_E0][C_A0_BF] = TAIL1;
	next_state[AFTER_ED][C_80_8F] = TAIL1;
	next_state[AFTER_ED][C_90_9F] = TAIL1;
	next_state[AFTER_F0][C_90_9F] = TAIL2;
	next_state[AFTER_F0][C_A0_BF] = TAIL2;
	next_state[AFTER_F4][C_80_8F] = TAIL2;
}

bool table_dfa_valid(const uint8_t *buf, size_t len)
{
	unsigned int state = ACCEPT;
	size_t i;

	for (i = 0; i < len; i++) {
		state = next_state[state][byte_class[buf[i]]];
		if (state == REJECT)
			return false;
	}
	return state == ACCEPT;
}
