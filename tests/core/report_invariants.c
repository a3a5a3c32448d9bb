// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Report invariants; see report_invariants.h.
 */
#include "report_invariants.h"

static const char *shadow_violation(const struct utf8guard_report *r,
				    size_t len)
{
	if (r->shadow_length == 0) {
		if (r->codepoint != 0)
			return "codepoint set without a shadow reading";
		if (r->path_trick)
			return "path_trick set without a shadow reading";
		if (r->reason == UTF8GUARD_REASON_UNEXPECTED_CONTINUATION ||
		    r->reason == UTF8GUARD_REASON_INVALID_BYTE) {
			if (r->length != 1)
				return "lone byte error longer than 1";
		}
		return NULL;
	}
	if (r->shadow_length < 2 ||
	    r->shadow_length > UTF8GUARD_MAX_SHADOW_LENGTH)
		return "shadow_length not 0 or 2..6";
	if (r->shadow_length > len - r->offset)
		return "shadow reading runs past the end of the input";
	if (r->shadow_length < r->length)
		return "shadow reading shorter than the maximal subpart";
	if (r->codepoint > 0x7FFFFFFF)
		return "codepoint above the RFC 2279 range";
	if (r->path_trick != (r->codepoint < 0x80))
		return "path_trick disagrees with codepoint < 0x80";
	if (r->reason != UTF8GUARD_REASON_OVERLONG &&
	    r->reason != UTF8GUARD_REASON_SURROGATE &&
	    r->reason != UTF8GUARD_REASON_OUT_OF_RANGE)
		return "shadow reading with a reason that has none";
	return NULL;
}

const char *report_invariant_violation(const struct utf8guard_report *report,
				       size_t len)
{
	if (report->offset >= len)
		return "offset at or past the end of the input";
	if (report->length < 1 || report->length > 3)
		return "length not 1..3";
	if (report->length > len - report->offset)
		return "offset + length past the end of the input";
	if (report->reason == UTF8GUARD_REASON_NONE ||
	    report->reason >= UTF8GUARD_REASON_COUNT)
		return "reason not one of the six error reasons";
	return shadow_violation(report, len);
}
