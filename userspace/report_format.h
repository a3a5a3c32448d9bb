/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing validator reports: the stable JSON shape and the human form.
 */
#ifndef UTF8GUARDCTL_REPORT_FORMAT_H
#define UTF8GUARDCTL_REPORT_FORMAT_H

#include <stdio.h>

#include "utf8guard_core.h"

/* Bytes of the input that are in memory, for showing an error in context. */
struct byte_window {
	const unsigned char *bytes;
	size_t len;
	u64 base;	/* input offset of bytes[0] */
};

/*
 * Write the JSON members of @report (without braces):
 * "offset":1,"length":1,"reason":"overlong","codepoint":46,
 * "shadow_length":2,"path_trick":true
 * codepoint is null when there is no lenient reading.
 */
void report_write_json_members(FILE *out,
			       const struct utf8guard_report *report);

/*
 * Write one human-readable error block: the reason, the lenient reading if
 * any, and the bytes around the error in hex with the span in brackets.
 */
void report_write_human(FILE *out, const struct utf8guard_report *report,
			const struct byte_window *window);

#endif /* UTF8GUARDCTL_REPORT_FORMAT_H */
