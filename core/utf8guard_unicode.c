// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard Unicode properties: lookups in the generated tables.
 *
 * props and ccc are two-stage tables: stage 1, indexed by cp >> 6, names a
 * 64-entry block; two loads and no branch for any code point below
 * UNICODE_PROPS_LIMIT.  Decompositions and compositions, needed only when
 * the NFC check meets a character that may compose, are binary searches.
 * Hangul syllables are decomposed and composed arithmetically (Unicode
 * 15.0, section 3.12).
 */
#include "utf8guard_unicode.h"
#include "utf8guard_unicode_tables.h"

#define BLOCK_MASK	((1U << UNICODE_BLOCK_SHIFT) - 1)

#define HANGUL_S_BASE	0xAC00
#define HANGUL_L_BASE	0x1100
#define HANGUL_V_BASE	0x1161
#define HANGUL_T_BASE	0x11A7
#define HANGUL_L_COUNT	19
#define HANGUL_V_COUNT	21
#define HANGUL_T_COUNT	28
#define HANGUL_N_COUNT	(HANGUL_V_COUNT * HANGUL_T_COUNT)
#define HANGUL_S_COUNT	(HANGUL_L_COUNT * HANGUL_N_COUNT)

#define DECOMP_CP(entry)	((u32)((entry) >> 42))
#define DECOMP_FIRST(entry)	((u32)((entry) >> 21) & 0x1FFFFF)
#define DECOMP_SECOND(entry)	((u32)(entry) & 0x1FFFFF)

/**
 * utf8guard_char_props() - class flags and NFC quick check of a code point
 * @cp: a Unicode scalar value
 *
 * Return: UTF8GUARD_CHAR_* bits; the NFC quick-check answer is
 * (props & UTF8GUARD_CHAR_NFC_QC), 0 for Yes.
 */
unsigned int utf8guard_char_props(u32 cp)
{
	if (cp < UNICODE_PROPS_LIMIT)
		return props_blocks[props_stage1[cp >> UNICODE_BLOCK_SHIFT] <<
				    UNICODE_BLOCK_SHIFT | (cp & BLOCK_MASK)];
	if (cp >= UNICODE_IGNORABLE_HIGH_FIRST &&
	    cp <= UNICODE_IGNORABLE_HIGH_LAST)
		return UTF8GUARD_CHAR_IGNORABLE;
	return 0;
}

/**
 * utf8guard_char_ccc() - canonical combining class of a code point
 * @cp: a Unicode scalar value
 *
 * Return: 0 to 254.
 */
unsigned int utf8guard_char_ccc(u32 cp)
{
	if (cp >= UNICODE_PROPS_LIMIT)
		return 0;
	return ccc_blocks[ccc_stage1[cp >> UNICODE_BLOCK_SHIFT] <<
			  UNICODE_BLOCK_SHIFT | (cp & BLOCK_MASK)];
}

/**
 * utf8guard_is_noncharacter() - one of the 66 noncharacters?
 * @cp: a Unicode scalar value
 *
 * Return: true for U+FDD0..U+FDEF and the last two code points of every
 * plane (U+xxFFFE, U+xxFFFF).
 */
bool utf8guard_is_noncharacter(u32 cp)
{
	return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

/* Index of @cp's entry in decomp, or -1. */
static int decomp_find(u32 cp)
{
	int lo = 0, hi = UNICODE_DECOMP_COUNT;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		u32 key = DECOMP_CP(decomp[mid]);

		if (key == cp)
			return mid;
		if (key < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/**
 * utf8guard_decompose() - full canonical decomposition of a code point
 * @cp: a Unicode scalar value
 * @out: room for UTF8GUARD_DECOMPOSITION_MAX code points
 *
 * Return: the number of code points written (1 when @cp does not
 * decompose: @out[0] is @cp).
 */
unsigned int utf8guard_decompose(u32 cp, u32 *out)
{
	u32 s = cp - HANGUL_S_BASE;
	unsigned int n;
	int k;

	if (cp >= HANGUL_S_BASE && s < HANGUL_S_COUNT) {
		out[0] = HANGUL_L_BASE + s / HANGUL_N_COUNT;
		out[1] = HANGUL_V_BASE + s % HANGUL_N_COUNT / HANGUL_T_COUNT;
		if (s % HANGUL_T_COUNT == 0)
			return 2;
		out[2] = HANGUL_T_BASE + s % HANGUL_T_COUNT;
		return 3;
	}
	k = decomp_find(cp);
	if (k < 0) {
		out[0] = cp;
		return 1;
	}
	/*
	 * Only the first code point of a one-step mapping decomposes
	 * further (the generator checks the total stays within the maximum).
	 */
	n = utf8guard_decompose(DECOMP_FIRST(decomp[k]), out);
	if (DECOMP_SECOND(decomp[k]))
		out[n++] = DECOMP_SECOND(decomp[k]);
	return n;
}

/**
 * utf8guard_compose() - the primary composite of two code points
 * @first: a starter
 * @second: the code point that follows it
 *
 * Return: the composite, or 0 when the pair does not compose (including
 * pairs whose composite is excluded from composition).
 */
u32 utf8guard_compose(u32 first, u32 second)
{
	int lo = 0, hi = UNICODE_COMPOSE_COUNT;
	u64 want = (u64)first << 21 | second;

	if (first >= HANGUL_L_BASE && first < HANGUL_L_BASE + HANGUL_L_COUNT &&
	    second >= HANGUL_V_BASE && second < HANGUL_V_BASE + HANGUL_V_COUNT)
		return HANGUL_S_BASE + ((first - HANGUL_L_BASE) * HANGUL_V_COUNT +
					second - HANGUL_V_BASE) *
				       HANGUL_T_COUNT;
	if (first >= HANGUL_S_BASE && first < HANGUL_S_BASE + HANGUL_S_COUNT &&
	    (first - HANGUL_S_BASE) % HANGUL_T_COUNT == 0 &&
	    second > HANGUL_T_BASE && second < HANGUL_T_BASE + HANGUL_T_COUNT)
		return first + second - HANGUL_T_BASE;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		u64 entry = decomp[compose[mid]];
		u64 key = entry & ((1ULL << 42) - 1);

		if (key == want)
			return DECOMP_CP(entry);
		if (key < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/**
 * utf8guard_plain_run() - skip characters no class can refuse
 * @buf: well-formed UTF-8
 * @len: number of bytes at @buf
 * @last: set to the offset of the last character skipped, when any
 *
 * A character is plain when no character class refuses it and it is an
 * NFC starter with quick check Yes; the tables say so per lead byte
 * (printable ASCII, most Latin, Greek and Cyrillic letters, CJK, Hangul).
 * Continuation bytes count as plain, so each byte is looked up on its own
 * (no chain from one character's length to the next): the run stops at
 * the lead byte of the first character that is not plain.
 *
 * Return: the number of bytes of plain characters at the start of @buf.
 */
size_t utf8guard_plain_run(const u8 *buf, size_t len, size_t *last)
{
	size_t pos = 0, start;

	while (len - pos >= 8 &&
	       (byte_plain[buf[pos]] & byte_plain[buf[pos + 1]] &
		byte_plain[buf[pos + 2]] & byte_plain[buf[pos + 3]] &
		byte_plain[buf[pos + 4]] & byte_plain[buf[pos + 5]] &
		byte_plain[buf[pos + 6]] & byte_plain[buf[pos + 7]]))
		pos += 8;
	while (pos < len && byte_plain[buf[pos]])
		pos++;
	if (!pos)
		return 0;
	/* The last character starts at the last lead byte. */
	for (start = pos - 1; start && (buf[start] & 0xC0) == 0x80; start--)
		;
	*last = start;
	return pos;
}

/**
 * utf8guard_unicode_version() - the Unicode version of the tables
 *
 * Return: e.g. "15.0.0".
 */
const char *utf8guard_unicode_version(void)
{
	return UTF8GUARD_UNICODE_VERSION;
}
