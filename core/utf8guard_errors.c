// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard validator core: error reports.  Where the fast path stops,
 * describe the ill-formed sequence (maximal subpart, reason, lenient
 * RFC 2279 reading); and the scans of a buffer built on that.
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl; see
 * utf8guard_core.h for the report semantics.
 */
#include "utf8guard_core.h"
#include "utf8guard_dfa.h"

/* Smallest code point each lenient form length may encode. */
static const u32 lenient_minimum[UTF8GUARD_MAX_SHADOW_LENGTH + 1] = {
	0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000
};

/* Length of the RFC 2279 form led by @lead; 0 for 80..BF, FE and FF. */
static unsigned int lenient_length(u8 lead)
{
	if (lead < 0x80)
		return 1;
	if (lead < 0xC0)
		return 0;
	if (lead < 0xE0)
		return 2;
	if (lead < 0xF0)
		return 3;
	if (lead < 0xF8)
		return 4;
	if (lead < 0xFC)
		return 5;
	if (lead < 0xFE)
		return 6;
	return 0;
}

/* Allowed range of the second byte after a well-formed lead byte. */
static void second_byte_range(u8 lead, u8 *lo, u8 *hi)
{
	*lo = 0x80;
	*hi = 0xBF;
	if (lead == 0xE0)
		*lo = 0xA0;
	else if (lead == 0xED)
		*hi = 0x9F;
	else if (lead == 0xF0)
		*lo = 0x90;
	else if (lead == 0xF4)
		*hi = 0x8F;
}

/* Maximal subpart at @p: the longest prefix of any well-formed sequence. */
static unsigned int maximal_subpart(const u8 *p, size_t avail)
{
	unsigned int n = strict_length(p[0]);
	unsigned int k;
	u8 lo, hi;

	if (n < 2 || avail < 2)
		return 1;
	second_byte_range(p[0], &lo, &hi);
	if (p[1] < lo || p[1] > hi)
		return 1;
	for (k = 2; k < n && k < avail && is_continuation(p[k]); k++)
		;
	return k;
}

/*
 * Describe the ill-formed sequence at buf[i].  Returns false when the bytes
 * up to @len do not decide the report yet and more bytes may follow.
 */
static bool describe_error(const u8 *buf, size_t len, size_t i, bool at_end,
			   struct utf8guard_report *report)
{
	const u8 *p = buf + i;
	size_t avail = len - i;
	unsigned int n = lenient_length(p[0]);
	unsigned int k;
	u32 cp;

	report->offset = i;
	report->length = 1;
	report->codepoint = 0;
	report->shadow_length = 0;
	report->path_trick = false;

	if (n == 0) {
		report->reason = is_continuation(p[0]) ?
			UTF8GUARD_REASON_UNEXPECTED_CONTINUATION :
			UTF8GUARD_REASON_INVALID_BYTE;
		return true;
	}

	/* The lenient RFC 2279 reading: n - 1 continuation bytes. */
	cp = p[0] & (0x7F >> n);
	for (k = 1; k < n && k < avail && is_continuation(p[k]); k++)
		cp = (cp << 6) | (p[k] & 0x3F);
	if (k < n && k == avail && !at_end)
		return false;

	report->length = maximal_subpart(p, avail);

	if (k == n) {
		report->codepoint = cp;
		report->shadow_length = n;
		report->path_trick = cp < 0x80;
		if (cp < lenient_minimum[n])
			report->reason = UTF8GUARD_REASON_OVERLONG;
		else if (cp >= 0xD800 && cp <= 0xDFFF)
			report->reason = UTF8GUARD_REASON_SURROGATE;
		else
			report->reason = UTF8GUARD_REASON_OUT_OF_RANGE;
		return true;
	}

	/* Incomplete lenient reading: C0, C1 and F5..FD never appear. */
	if (strict_length(p[0]) == 0) {
		report->reason = UTF8GUARD_REASON_INVALID_BYTE;
		return true;
	}
	/* A continuation byte outside E0, ED, F0 or F4's second-byte range. */
	if (k >= 2 && report->length == 1) {
		if (p[0] == 0xED)
			report->reason = UTF8GUARD_REASON_SURROGATE;
		else if (p[0] == 0xF4)
			report->reason = UTF8GUARD_REASON_OUT_OF_RANGE;
		else
			report->reason = UTF8GUARD_REASON_OVERLONG;
		return true;
	}
	report->reason = UTF8GUARD_REASON_TRUNCATED;
	return true;
}

/**
 * utf8guard_next_error() - find the next ill-formed sequence
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @pos: in: offset to start at; out: where the step stopped (see Return)
 * @at_end: no bytes follow @buf; when false, a sequence cut by the end of
 *	@buf is left undecided instead of being reported
 * @report: filled with the error, offsets relative to @buf
 *
 * Return: %UTF8GUARD_STEP_CLEAN with *@pos == @len when the rest is
 * well-formed; %UTF8GUARD_STEP_ERROR with *@pos == @report->offset;
 * %UTF8GUARD_STEP_NEED_MORE with *@pos at the undecided tail (only when
 * @at_end is false).  To resume after an error, start again at
 * @report->offset + @report->length.
 */
enum utf8guard_step utf8guard_next_error(const u8 *buf, size_t len,
					 size_t *pos, bool at_end,
					 struct utf8guard_report *report)
{
	size_t i = *pos + utf8guard_valid_prefix(buf + *pos, len - *pos);

	*pos = i;
	if (i == len)
		return UTF8GUARD_STEP_CLEAN;
	/* The prefix is exact: the sequence at i is ill-formed or cut. */
	if (!describe_error(buf, len, i, at_end, report))
		return UTF8GUARD_STEP_NEED_MORE;
	return UTF8GUARD_STEP_ERROR;
}
UTF8GUARD_EXPORT(utf8guard_next_error);

/**
 * utf8guard_first_error() - validate a complete buffer
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @report: filled with the first ill-formed sequence, if any
 *
 * Return: true if @buf is ill-formed (and @report describes why).
 */
bool utf8guard_first_error(const u8 *buf, size_t len,
			   struct utf8guard_report *report)
{
	size_t pos = 0;

	return utf8guard_next_error(buf, len, &pos, true, report) ==
	       UTF8GUARD_STEP_ERROR;
}
UTF8GUARD_EXPORT(utf8guard_first_error);

/**
 * utf8guard_scan() - report every ill-formed sequence of a complete buffer
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @fn: called for each error in order; may be NULL
 * @arg: passed to @fn
 *
 * After each error the scan resumes after its maximal subpart, so the
 * errors are those a U+FFFD-substituting decoder would replace.
 *
 * Return: the number of errors reported (up to the one @fn stopped at).
 */
u64 utf8guard_scan(const u8 *buf, size_t len, utf8guard_error_fn fn,
		   void *arg)
{
	struct utf8guard_report report;
	size_t pos = 0;
	u64 count = 0;

	while (utf8guard_next_error(buf, len, &pos, true, &report) ==
	       UTF8GUARD_STEP_ERROR) {
		count++;
		if (fn && !fn(&report, arg))
			break;
		pos = report.offset + report.length;
	}
	return count;
}
UTF8GUARD_EXPORT(utf8guard_scan);
