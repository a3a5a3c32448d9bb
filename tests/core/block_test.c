// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Block-boundary differential test of the core's fast path.
 *
 * The exhaustive suite checks strings of 1 to 4 bytes, too short for the
 * fast path's 16-byte blocks (word-at-a-time ASCII and the DFA checked once
 * per block).  Here every string of 1 to 4 bytes over an alphabet of the
 * boundary values of RFC 3629's table (00, 7F, 80, 8F, 90, 9F, A0, BF, C0,
 * C1, C2, DF, E0, E1, EC, ED, EE, EF, F0, F1, F3, F4, F5, FE, FF, and 41)
 * is put at every offset around the first and second block boundary of an
 * 80-byte buffer (long enough for the scalar path's pairs of blocks),
 * between fillers of 1-, 2-, 3- and 4-byte characters (padded with ASCII
 * to the offset), and the first error and the full error
 * list are compared with the reference; every 7th buffer also gets the
 * stream, cut at three places.
 *
 * Usage: block_test
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "differential.h"

#define BUFFER_LENGTH 80
#define MAX_STRING 4
#define MAX_PRINTED 10

static const u8 alphabet[] = {
	0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
	0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3,
	0xF4, 0xF5, 0xFE, 0xFF,
};

/* Characters the string sits between. */
static const struct {
	const char *name;
	u8 bytes[4];
	size_t length;
} fillers[] = {
	{ "ASCII", { 'a' }, 1 },
	{ "U+00E9", { 0xC3, 0xA9 }, 2 },
	{ "U+20AC", { 0xE2, 0x82, 0xAC }, 3 },
	{ "U+1F600", { 0xF0, 0x9F, 0x98, 0x80 }, 4 },
};

/*
 * Offsets of the string: around the ends of the first two blocks, and
 * where the second of a pair of blocks may start (the first character
 * start at 16 to 19) and end (32 to 35).
 */
static const size_t offsets[] = {
	11, 12, 13, 14, 15, 16, 17, 18, 19, 27, 28, 29, 30, 31, 32, 33, 34, 35,
};

/*
 * Fill @buf[@from..@to) with whole filler characters, and ASCII where the
 * next one would not fit.
 */
static void fill(u8 *buf, size_t from, size_t to, unsigned int filler)
{
	size_t n = fillers[filler].length;

	while (from < to) {
		if (to - from >= n) {
			memcpy(buf + from, fillers[filler].bytes, n);
			from += n;
		} else {
			buf[from++] = 'x';
		}
	}
}

int main(void)
{
	static const size_t cuts[] = { 5, 16, 31 };
	struct differential_scratch scratch;
	u64 checked = 0, streamed = 0, mismatches = 0;
	size_t string_length, k, o, count;
	unsigned int filler, index[MAX_STRING];
	u8 buf[BUFFER_LENGTH];
	unsigned int checks;
	bool ok;

	if (differential_scratch_init(&scratch, BUFFER_LENGTH)) {
		fprintf(stderr, "block: out of memory\n");
		return 1;
	}
	for (string_length = 1; string_length <= MAX_STRING; string_length++) {
		count = 1;
		for (k = 0; k < string_length; k++)
			count *= ARRAY_SIZE(alphabet);
		for (filler = 0; filler < ARRAY_SIZE(fillers); filler++) {
			for (o = 0; o < ARRAY_SIZE(offsets); o++) {
				size_t at = offsets[o];
				size_t s;

				fill(buf, 0, at, filler);
				fill(buf, at + string_length, BUFFER_LENGTH,
				     filler);
				for (s = 0; s < count; s++) {
					size_t v = s;

					for (k = 0; k < string_length; k++) {
						index[k] = v % ARRAY_SIZE(alphabet);
						v /= ARRAY_SIZE(alphabet);
						buf[at + k] = alphabet[index[k]];
					}
					checks = CHECK_FIRST | CHECK_ALL;
					if (checked % 7 == 0) {
						checks |= CHECK_STREAM;
						streamed++;
					}
					checked++;
					ok = differential_check(buf,
							BUFFER_LENGTH, cuts,
							ARRAY_SIZE(cuts),
							checks, &scratch,
							NULL);
					if (ok)
						continue;
					if (mismatches++ < MAX_PRINTED) {
						fprintf(stderr,
							"block: mismatch, %s filler, string of %zu at %zu:\n",
							fillers[filler].name,
							string_length, at);
						differential_check(buf,
							BUFFER_LENGTH, cuts,
							ARRAY_SIZE(cuts),
							checks, &scratch,
							stderr);
					}
				}
			}
		}
	}
	differential_scratch_free(&scratch);
	printf("block: %" PRIu64 " buffers of %d bytes checked (%zu fillers x %zu offsets x strings of 1-%d bytes over %zu boundary values), %" PRIu64 " also streamed, %" PRIu64 " mismatches\n",
	       checked, BUFFER_LENGTH, ARRAY_SIZE(fillers),
	       ARRAY_SIZE(offsets), MAX_STRING, ARRAY_SIZE(alphabet),
	       streamed, mismatches);
	return mismatches ? 1 : 0;
}
