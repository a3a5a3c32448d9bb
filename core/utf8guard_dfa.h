/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard validator core, internal: RFC 3629's lead bytes and the DFA
 * over its Table 3-7, which the scalar path, the error reports, the
 * streams and the decoder share.  Not part of the API.
 *
 * Well-formed sequences (RFC 3629 section 4, Unicode Table 3-7):
 *
 *	00..7F
 *	C2..DF 80..BF
 *	E0     A0..BF 80..BF
 *	E1..EC 80..BF 80..BF
 *	ED     80..9F 80..BF
 *	EE..EF 80..BF 80..BF
 *	F0     90..BF 80..BF 80..BF
 *	F1..F3 80..BF 80..BF 80..BF
 *	F4     80..8F 80..BF 80..BF
 */
#ifndef UTF8GUARD_DFA_H
#define UTF8GUARD_DFA_H

#include "utf8guard_types.h"

static inline bool is_continuation(u8 c)
{
	return (c & 0xC0) == 0x80;
}

/* Length of the well-formed form led by @lead; 0 if @lead never leads one. */
static inline unsigned int strict_length(u8 lead)
{
	if (lead < 0x80)
		return 1;
	if (lead < 0xC2)
		return 0;
	if (lead < 0xE0)
		return 2;
	if (lead < 0xF0)
		return 3;
	if (lead < 0xF5)
		return 4;
	return 0;
}

/*
 * The fast path: a shift-based DFA over Table 3-7 (RFC 3629 section 4).
 *
 * A state is a bit offset, a multiple of 6; utf8guard_dfa_row[byte] holds, at bit
 * offset s, the 6-bit state that follows state s on that byte.  One step is
 * "state = utf8guard_dfa_row[byte] >> state", then "& 63": a single shift on the
 * dependency chain, with the table load off it.  DFA_ERROR is 0, so every
 * transition a row does not list leads to it and it never leaves it.
 */
#define DFA_ERROR	0
#define DFA_ACCEPT	6	/* at a character boundary */
#define DFA_TAIL1	12	/* one 80..BF to go */
#define DFA_TAIL2	18	/* two 80..BF to go */
#define DFA_TAIL3	24	/* three 80..BF to go */
#define DFA_AFTER_E0	30	/* A0..BF, then one 80..BF */
#define DFA_AFTER_ED	36	/* 80..9F, then one 80..BF */
#define DFA_AFTER_F0	42	/* 90..BF, then two 80..BF */
#define DFA_AFTER_F4	48	/* 80..8F, then two 80..BF */
#define DFA_MASK	63

#define DFA_GOES(from, to)	((u64)(to) << (from))
#define DFA_LEAD(to)		DFA_GOES(DFA_ACCEPT, to)
/* Every continuation byte moves the plain tails on. */
#define DFA_TAILS		(DFA_GOES(DFA_TAIL1, DFA_ACCEPT) | \
				 DFA_GOES(DFA_TAIL2, DFA_TAIL1) | \
				 DFA_GOES(DFA_TAIL3, DFA_TAIL2))

/* The transitions (utf8guard_scalar.c). */
extern const u64 utf8guard_dfa_row[256];

/* One step of the DFA from @state on @byte; the result is masked. */
static inline u64 dfa_step(u64 state, u8 byte)
{
	return (utf8guard_dfa_row[byte] >> state) & DFA_MASK;
}

#endif /* UTF8GUARD_DFA_H */
