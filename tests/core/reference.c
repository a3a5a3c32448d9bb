// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Reference validator: RFC 3629 section 4 as a table, RFC 2279 section 2
 * as a bit count.  See reference.h for why it exists.
 */
#include <pthread.h>
#include <stdlib.h>

#include "array_size.h"
#include "reference.h"

struct byte_range {
	uint8_t lo;
	uint8_t hi;
};

/* One alternative of the ABNF: a fixed number of bytes, each in a range. */
struct abnf_alternative {
	unsigned int length;
	struct byte_range bytes[4];
};

#define UTF8_TAIL { 0x80, 0xBF }

/*
 *   UTF8-char   = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4
 *   UTF8-1      = %x00-7F
 *   UTF8-2      = %xC2-DF UTF8-tail
 *   UTF8-3      = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
 *                 %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
 *   UTF8-4      = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
 *                 %xF4 %x80-8F 2( UTF8-tail )
 *   UTF8-tail   = %x80-BF
 */
static const struct abnf_alternative utf8_char[] = {
	{ 1, { { 0x00, 0x7F } } },
	{ 2, { { 0xC2, 0xDF }, UTF8_TAIL } },
	{ 3, { { 0xE0, 0xE0 }, { 0xA0, 0xBF }, UTF8_TAIL } },
	{ 3, { { 0xE1, 0xEC }, UTF8_TAIL, UTF8_TAIL } },
	{ 3, { { 0xED, 0xED }, { 0x80, 0x9F }, UTF8_TAIL } },
	{ 3, { { 0xEE, 0xEF }, UTF8_TAIL, UTF8_TAIL } },
	{ 4, { { 0xF0, 0xF0 }, { 0x90, 0xBF }, UTF8_TAIL, UTF8_TAIL } },
	{ 4, { { 0xF1, 0xF3 }, UTF8_TAIL, UTF8_TAIL, UTF8_TAIL } },
	{ 4, { { 0xF4, 0xF4 }, { 0x80, 0x8F }, UTF8_TAIL, UTF8_TAIL } },
};

#define ALTERNATIVES ARRAY_SIZE(utf8_char)

/* How many leading bytes of @buf match @alt (0 to @alt->length). */
static size_t partial_match(const struct abnf_alternative *alt,
			    const uint8_t *buf, size_t len)
{
	size_t k;

	for (k = 0; k < alt->length && k < len; k++)
		if (buf[k] < alt->bytes[k].lo || buf[k] > alt->bytes[k].hi)
			break;
	return k;
}

/*
 * The ABNF alternatives begin with disjoint byte ranges, so at most one
 * alternative matches even one byte: index them by their first byte, only
 * to go faster.  1 + the index of the alternative, 0 for none.
 */
static uint8_t alternative_by_lead[256];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void build_index(void)
{
	size_t a;
	unsigned int byte;

	for (a = 0; a < ALTERNATIVES; a++) {
		for (byte = utf8_char[a].bytes[0].lo;
		     byte <= utf8_char[a].bytes[0].hi; byte++) {
			/* Not the RFC 3629 ABNF: two alternatives, one lead */
			if (alternative_by_lead[byte])
				abort();
			alternative_by_lead[byte] = a + 1;
		}
	}
}

/* The alternative that may match at @lead, NULL if none. */
static const struct abnf_alternative *alternative_for(uint8_t lead)
{
	pthread_once(&index_once, build_index);
	if (!alternative_by_lead[lead])
		return NULL;
	return &utf8_char[alternative_by_lead[lead] - 1];
}

size_t ref_char_length(const uint8_t *buf, size_t len)
{
	const struct abnf_alternative *alt = alternative_for(buf[0]);

	if (alt && partial_match(alt, buf, len) == alt->length)
		return alt->length;
	return 0;
}

bool ref_char_start(const uint8_t *buf, size_t len)
{
	const struct abnf_alternative *alt;

	if (!len)
		return true;
	alt = alternative_for(buf[0]);
	return alt && len < alt->length &&
	       partial_match(alt, buf, len) == len;
}

/* Longest prefix of an alternative found at @buf, at least 1. */
static size_t maximal_subpart(const uint8_t *buf, size_t len)
{
	const struct abnf_alternative *alt = alternative_for(buf[0]);
	size_t m = alt ? partial_match(alt, buf, len) : 0;

	return m > 1 ? m : 1;
}

static bool begins_an_alternative(uint8_t byte)
{
	return alternative_for(byte) != NULL;
}

/* RFC 2279: the number of leading one bits of a lead byte is the length. */
static unsigned int leading_ones(uint8_t byte)
{
	unsigned int n = 0;

	while (n < 8 && (byte & (0x80 >> n)))
		n++;
	return n;
}

static bool is_tail(uint8_t byte)
{
	return leading_ones(byte) == 1;
}

/* Bits an RFC 2279 form of @n bytes carries (the x bits of its table). */
static unsigned int payload_bits(unsigned int n)
{
	if (n == 1)
		return 7;
	return (7 - n) + 6 * (n - 1);
}

/* Smallest value that needs @n bytes: one more than fits in n - 1. */
static uint32_t shortest_form_minimum(unsigned int n)
{
	if (n == 1)
		return 0;
	return (uint32_t)1 << payload_bits(n - 1);
}

/* The x bits of @n bytes, the lead's first. */
static uint32_t lenient_value(const uint8_t *bytes, unsigned int n)
{
	uint32_t value = bytes[0] & (0xFF >> (n + 1));
	unsigned int k;

	for (k = 1; k < n; k++)
		value = (value << 6) | (bytes[k] & 0x3F);
	return value;
}

/* Why a lenient reading of @n bytes that reads @value is not UTF-8. */
static uint8_t classify(uint32_t value, unsigned int n)
{
	if (value < shortest_form_minimum(n))
		return REF_OVERLONG;
	if (value >= 0xD800 && value <= 0xDFFF)
		return REF_SURROGATE;
	return REF_OUT_OF_RANGE;
}

void ref_describe(const uint8_t *buf, size_t len, struct ref_report *report)
{
	uint8_t lowest[6];
	unsigned int n = leading_ones(buf[0]);
	unsigned int k;

	report->offset = 0;
	report->length = maximal_subpart(buf, len);
	report->codepoint = 0;
	report->shadow_length = 0;
	report->path_trick = false;

	if (n == 1) {
		report->reason = REF_UNEXPECTED_CONTINUATION;
		return;
	}
	if (n < 2 || n > 6) {
		report->reason = REF_INVALID_BYTE;
		return;
	}

	for (k = 1; k < n && k < len && is_tail(buf[k]); k++)
		;
	if (k == n) {
		report->codepoint = lenient_value(buf, n);
		report->shadow_length = n;
		report->path_trick = report->codepoint < 0x80;
		report->reason = classify(report->codepoint, n);
		return;
	}

	if (!begins_an_alternative(buf[0])) {
		report->reason = REF_INVALID_BYTE;
		return;
	}
	/*
	 * A tail byte that no alternative for this lead accepts: whatever
	 * completes it, the value is outside the lead's range.  Classify the
	 * lowest completion.
	 */
	if (len >= 2 && is_tail(buf[1]) && report->length == 1) {
		lowest[0] = buf[0];
		lowest[1] = buf[1];
		for (k = 2; k < n; k++)
			lowest[k] = 0x80;
		report->reason = classify(lenient_value(lowest, n), n);
		return;
	}
	report->reason = REF_TRUNCATED;
}

bool ref_next_error(const uint8_t *buf, size_t len, size_t start,
		    struct ref_report *report)
{
	size_t i = start;
	size_t m;

	while (i < len) {
		m = ref_char_length(buf + i, len - i);
		if (m) {
			i += m;
			continue;
		}
		ref_describe(buf + i, len - i, report);
		report->offset = i;
		return true;
	}
	return false;
}

bool ref_first_error(const uint8_t *buf, size_t len,
		     struct ref_report *report)
{
	return ref_next_error(buf, len, 0, report);
}

size_t ref_all_errors(const uint8_t *buf, size_t len,
		      struct ref_report *reports, size_t max)
{
	struct ref_report report;
	size_t count = 0;
	size_t i = 0;

	while (ref_next_error(buf, len, i, &report)) {
		if (count < max)
			reports[count] = report;
		count++;
		i = report.offset + report.length;
	}
	return count;
}
