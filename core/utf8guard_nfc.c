// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard NFC check: is a segment already in Normalization Form C?
 *
 * The policy runs the NFC quick check (UAX #15, section 9) character by
 * character and calls utf8guard_nfc_segment_stable() only when it meets a
 * character whose answer is Maybe: one that may compose with what comes
 * before it.  The segment then runs from the last starter to that
 * character, and it is normalized for real: full canonical decomposition,
 * canonical ordering, canonical composition (Unicode 15.0, section 3.11),
 * and compared with what was written.
 *
 * The work buffer holds NFC_SEGMENT_MAX code points, on the stack: a
 * segment that decomposes into more (a starter followed by some sixty
 * combining marks, far beyond the 30 of UAX #15's Stream-Safe Text Format)
 * is reported as not stable, so the check refuses rather than guesses.
 */
#include "utf8guard_core.h"
#include "utf8guard_nfc.h"
#include "utf8guard_unicode.h"

#define NFC_SEGMENT_MAX 64

/* Append @cp in canonical order (a stable sort of the combining marks). */
static void append_ordered(u32 *out, size_t *count, u32 cp)
{
	unsigned int ccc = utf8guard_char_ccc(cp);
	size_t k = (*count)++;

	while (ccc && k && utf8guard_char_ccc(out[k - 1]) > ccc) {
		out[k] = out[k - 1];
		k--;
	}
	out[k] = cp;
}

/* Canonical composition of @out in place; returns the new count. */
static size_t compose(u32 *out, size_t count)
{
	size_t starter = 0, kept = 1, k;
	unsigned int last_ccc;

	if (!count)
		return 0;
	/* Nothing composes with a leading combining mark. */
	last_ccc = utf8guard_char_ccc(out[0]) ? 256 : 0;
	for (k = 1; k < count; k++) {
		u32 cp = out[k];
		unsigned int ccc = utf8guard_char_ccc(cp);
		u32 composite = utf8guard_compose(out[starter], cp);

		if (composite && (last_ccc < ccc || last_ccc == 0)) {
			out[starter] = composite;
			continue;
		}
		if (!ccc)
			starter = kept;
		last_ccc = ccc;
		out[kept++] = cp;
	}
	return kept;
}

/**
 * utf8guard_nfc_segment_stable() - does a segment equal its NFC?
 * @buf: well-formed UTF-8, starting at a starter (or where the checked
 *	text starts) and ending with the character to decide
 * @len: its length in bytes
 *
 * Return: true if normalizing @buf to NFC leaves it unchanged; false if
 * it changes, or if @buf is too long to normalize here (see above).
 */
bool utf8guard_nfc_segment_stable(const u8 *buf, size_t len)
{
	u32 out[NFC_SEGMENT_MAX];
	u32 parts[UTF8GUARD_DECOMPOSITION_MAX];
	size_t count = 0, pos, k;
	unsigned int step, n, j;
	u32 cp;

	for (pos = 0; pos < len; pos += step) {
		step = utf8guard_decode(buf + pos, len - pos, &cp);
		if (!step)
			return false;
		n = utf8guard_decompose(cp, parts);
		if (count + n > NFC_SEGMENT_MAX)
			return false;
		for (j = 0; j < n; j++)
			append_ordered(out, &count, parts[j]);
	}
	count = compose(out, count);
	for (pos = 0, k = 0; pos < len; pos += step, k++) {
		step = utf8guard_decode(buf + pos, len - pos, &cp);
		if (k == count || out[k] != cp)
			return false;
	}
	return k == count;
}
