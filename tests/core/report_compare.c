// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Compare and print error reports; see report_compare.h.
 */
#include <inttypes.h>

#include "report_compare.h"

bool core_matches_ref(const struct utf8guard_report *core,
		      const struct ref_report *ref)
{
	return core->offset == ref->offset && core->length == ref->length &&
	       core->reason == ref->reason &&
	       core->codepoint == ref->codepoint &&
	       core->shadow_length == ref->shadow_length &&
	       core->path_trick == ref->path_trick;
}

bool core_reports_equal(const struct utf8guard_report *a,
			const struct utf8guard_report *b)
{
	return a->offset == b->offset && a->length == b->length &&
	       a->reason == b->reason && a->codepoint == b->codepoint &&
	       a->shadow_length == b->shadow_length &&
	       a->path_trick == b->path_trick;
}

static void print_fields(FILE *out, uint64_t offset, uint32_t length,
			 unsigned int reason, uint32_t codepoint,
			 unsigned int shadow_length, bool path_trick)
{
	fprintf(out, "@%" PRIu64 "+%" PRIu32 " %s U+%04" PRIX32 "/%u%s",
		offset, length, utf8guard_reason_name(reason), codepoint,
		shadow_length, path_trick ? " path_trick" : "");
}

void print_core_report(FILE *out, const struct utf8guard_report *report)
{
	print_fields(out, report->offset, report->length, report->reason,
		     report->codepoint, report->shadow_length,
		     report->path_trick);
}

void print_ref_report(FILE *out, const struct ref_report *report)
{
	print_fields(out, report->offset, report->length, report->reason,
		     report->codepoint, report->shadow_length,
		     report->path_trick);
}

void print_bytes(FILE *out, const u8 *buf, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		fprintf(out, "%s%02X", k ? " " : "", buf[k]);
}
