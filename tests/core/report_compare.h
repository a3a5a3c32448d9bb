/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Compare and print core and reference error reports.
 */
#ifndef UTF8GUARD_TESTS_REPORT_COMPARE_H
#define UTF8GUARD_TESTS_REPORT_COMPARE_H

#include <stdio.h>

#include "reference.h"
#include "utf8guard_core.h"

/* Every field equal (offset, length, reason, codepoint, shadow, trick). */
bool core_matches_ref(const struct utf8guard_report *core,
		      const struct ref_report *ref);
bool core_reports_equal(const struct utf8guard_report *a,
			const struct utf8guard_report *b);

/* "@offset+length reason U+cp/shadow [path_trick]", no newline. */
void print_core_report(FILE *out, const struct utf8guard_report *report);
void print_ref_report(FILE *out, const struct ref_report *report);

/* "XX XX XX", no newline. */
void print_bytes(FILE *out, const u8 *buf, size_t len);

#endif /* UTF8GUARD_TESTS_REPORT_COMPARE_H */
