// SPDX-License-Identifier: GPL-2.0
/* Printing validator reports: the stable JSON shape and the human form. */
#include <inttypes.h>

#include "report_format.h"

/* Bytes of context shown on each side of an error. */
#define CONTEXT_BYTES 8

void report_write_json_members(FILE *out,
			       const struct utf8guard_report *report)
{
	fprintf(out, "\"offset\":%" PRIu64 ",\"length\":%" PRIu32
		",\"reason\":\"%s\",", report->offset, report->length,
		utf8guard_reason_name(report->reason));
	if (report->shadow_length)
		fprintf(out, "\"codepoint\":%" PRIu32 ",", report->codepoint);
	else
		fputs("\"codepoint\":null,", out);
	fprintf(out, "\"shadow_length\":%u,\"path_trick\":%s",
		report->shadow_length, report->path_trick ? "true" : "false");
}

static const char *ascii_name(u32 codepoint)
{
	static char printable[4];

	switch (codepoint) {
	case 0x00:
		return "NUL";
	case 0x09:
		return "TAB";
	case 0x0A:
		return "LF";
	case 0x0D:
		return "CR";
	case 0x7F:
		return "DEL";
	}
	if (codepoint < 0x20)
		return "a control character";
	printable[0] = '\'';
	printable[1] = (char)codepoint;
	printable[2] = '\'';
	printable[3] = '\0';
	return printable;
}

static void write_context(FILE *out, const struct utf8guard_report *report,
			  const struct byte_window *window)
{
	u64 end = window->base + window->len;
	u64 from, to, i;

	if (report->offset < window->base || report->offset >= end)
		return;
	from = report->offset - window->base > CONTEXT_BYTES ?
	       report->offset - CONTEXT_BYTES : window->base;
	to = report->offset + report->length + CONTEXT_BYTES;
	if (to > end)
		to = end;

	fputs("    ", out);
	if (from > 0)
		fputs("... ", out);
	for (i = from; i < to; i++) {
		if (i == report->offset)
			fputc('[', out);
		fprintf(out, "%02x", window->bytes[i - window->base]);
		if (i + 1 == report->offset + report->length)
			fputc(']', out);
		if (i + 1 < to)
			fputc(' ', out);
	}
	if (to < end || window->len == 0)
		fputs(" ...", out);
	fputc('\n', out);
}

void report_write_human(FILE *out, const struct utf8guard_report *report,
			const struct byte_window *window)
{
	fprintf(out, "  offset %" PRIu64 ": %s (%" PRIu32 " byte%s)",
		report->offset, utf8guard_reason_name(report->reason),
		report->length, report->length == 1 ? "" : "s");
	if (report->reason > UTF8GUARD_REASON_LAST_ILL_FORMED) {
		/* A well-formed character a class refuses, or a name rule. */
		if (report->shadow_length)
			fprintf(out, ": U+%04" PRIX32, report->codepoint);
	} else if (report->shadow_length) {
		fprintf(out, "; a lenient decoder reads U+%04" PRIX32
			" from %u bytes", report->codepoint,
			report->shadow_length);
		if (report->path_trick)
			fprintf(out, " - path trick: %s",
				ascii_name(report->codepoint));
	}
	fputc('\n', out);
	write_context(out, report, window);
}
