// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Differential check of one input; see differential.h.
 */
#include <stdlib.h>

#include "differential.h"
#include "report_invariants.h"
#include "report_list.h"

int differential_scratch_init(struct differential_scratch *scratch,
			      size_t capacity)
{
	scratch->capacity = capacity;
	scratch->scan = calloc(capacity + 1, sizeof(*scratch->scan));
	scratch->stream = calloc(capacity + 1, sizeof(*scratch->stream));
	scratch->ref = calloc(capacity + 1, sizeof(*scratch->ref));
	if (!scratch->scan || !scratch->stream || !scratch->ref) {
		differential_scratch_free(scratch);
		return -1;
	}
	return 0;
}

void differential_scratch_free(struct differential_scratch *scratch)
{
	free(scratch->scan);
	free(scratch->stream);
	free(scratch->ref);
	scratch->scan = NULL;
	scratch->stream = NULL;
	scratch->ref = NULL;
}

static void show_input(FILE *log, const u8 *buf, size_t len)
{
	fprintf(log, "input (%zu bytes): ", len);
	print_bytes(log, buf, len);
	fputc('\n', log);
}

static void show_pair(FILE *log, const char *what,
		      const struct utf8guard_report *core,
		      const struct ref_report *ref)
{
	fprintf(log, "  %s\n    core:      ", what);
	if (core)
		print_core_report(log, core);
	else
		fputs("(none)", log);
	fputs("\n    reference: ", log);
	if (ref)
		print_ref_report(log, ref);
	else
		fputs("(none)", log);
	fputc('\n', log);
}

static bool check_first(const u8 *buf, size_t len, FILE *log)
{
	struct utf8guard_report core, next;
	struct ref_report ref;
	bool core_bad = utf8guard_first_error(buf, len, &core);
	bool ref_bad = ref_first_error(buf, len, &ref);
	enum utf8guard_step step;
	size_t pos = 0;

	if (core_bad != ref_bad ||
	    (core_bad && !core_matches_ref(&core, &ref))) {
		if (log) {
			show_input(log, buf, len);
			show_pair(log, "first error differs",
				  core_bad ? &core : NULL,
				  ref_bad ? &ref : NULL);
		}
		return false;
	}
	step = utf8guard_next_error(buf, len, &pos, true, &next);
	if (core_bad ? step != UTF8GUARD_STEP_ERROR || pos != core.offset ||
		       !core_reports_equal(&next, &core) :
		       step != UTF8GUARD_STEP_CLEAN || pos != len) {
		if (log) {
			show_input(log, buf, len);
			fprintf(log,
				"  utf8guard_next_error() from 0 returned step %d pos %zu, unlike utf8guard_first_error()\n",
				(int)step, pos);
		}
		return false;
	}
	return true;
}

static bool check_all(const u8 *buf, size_t len,
		      const struct report_list *scan, u64 returned,
		      struct differential_scratch *scratch, FILE *log)
{
	size_t count = ref_all_errors(buf, len, scratch->ref,
				      scratch->capacity);
	size_t k;

	if (returned != scan->count || scan->count != count) {
		if (log) {
			show_input(log, buf, len);
			fprintf(log,
				"  error count: utf8guard_scan() returned %llu and called back %zu times, reference %zu\n",
				(unsigned long long)returned, scan->count,
				count);
		}
		return false;
	}
	for (k = 0; k < count; k++) {
		if (!core_matches_ref(&scan->items[k], &scratch->ref[k])) {
			if (log) {
				show_input(log, buf, len);
				fprintf(log, "  error #%zu differs\n", k);
				show_pair(log, "utf8guard_scan()",
					  &scan->items[k], &scratch->ref[k]);
			}
			return false;
		}
	}
	return true;
}

static bool stream_state_ok(const struct utf8guard_stream *stream,
			    const struct report_list *scan, size_t len)
{
	if (stream->errors != scan->count || stream->consumed != len ||
	    stream->carry_length != 0 || stream->stopped)
		return false;
	if (scan->count && !core_reports_equal(&stream->first,
					       &scan->items[0]))
		return false;
	return true;
}

static bool check_stream(const u8 *buf, size_t len, const size_t *cuts,
			 size_t cut_count, const struct report_list *scan,
			 struct differential_scratch *scratch, FILE *log)
{
	struct utf8guard_stream stream;
	struct report_list list;
	size_t k;
	bool same;

	report_list_init(&list, scratch->stream, scratch->capacity);
	collect_stream(buf, len, cuts, cut_count, &stream, &list);
	same = list.count == scan->count;
	for (k = 0; same && k < list.count; k++)
		same = core_reports_equal(&list.items[k], &scan->items[k]);
	if (same && stream_state_ok(&stream, scan, len))
		return true;
	if (log) {
		show_input(log, buf, len);
		fputs("  stream cut at", log);
		for (k = 0; k < cut_count; k++)
			fprintf(log, " %zu", cuts[k]);
		if (!cut_count)
			fputs(" no offset", log);
		fprintf(log,
			" gave %zu errors (errors %llu, consumed %llu, carry %u), utf8guard_scan() %zu\n",
			list.count, (unsigned long long)stream.errors,
			(unsigned long long)stream.consumed,
			stream.carry_length, scan->count);
		for (k = 0; k < list.count || k < scan->count; k++) {
			fprintf(log, "    #%zu stream: ", k);
			if (k < list.count)
				print_core_report(log, &list.items[k]);
			fputs("  scan: ", log);
			if (k < scan->count)
				print_core_report(log, &scan->items[k]);
			fputc('\n', log);
		}
	}
	return false;
}

static bool check_invariants(const u8 *buf, size_t len,
			     const struct report_list *scan, FILE *log)
{
	const char *why;
	size_t k;

	for (k = 0; k < scan->count; k++) {
		why = report_invariant_violation(&scan->items[k], len);
		if (!why)
			continue;
		if (log) {
			show_input(log, buf, len);
			fprintf(log, "  error #%zu ", k);
			print_core_report(log, &scan->items[k]);
			fprintf(log, ": %s\n", why);
		}
		return false;
	}
	return true;
}

static bool check_may_complete(const u8 *buf, size_t len, FILE *log)
{
	struct utf8guard_stream stream;
	bool core, ref;

	utf8guard_stream_init(&stream);
	utf8guard_stream_feed(&stream, buf, len, NULL, NULL);
	core = utf8guard_stream_may_complete(&stream);
	ref = ref_char_start(stream.carry, stream.carry_length);
	if (core == ref)
		return true;
	if (log) {
		show_input(log, buf, len);
		fprintf(log,
			"  holds %u bytes: utf8guard_stream_may_complete() %d, ref_char_start() %d\n",
			stream.carry_length, core, ref);
	}
	return false;
}

bool differential_check(const u8 *buf, size_t len, const size_t *cuts,
			size_t cut_count, unsigned int checks,
			struct differential_scratch *scratch, FILE *log)
{
	struct report_list scan;
	u64 returned = 0;
	bool ok = true;

	if ((checks & CHECK_FIRST) && !check_first(buf, len, log))
		ok = false;
	if ((checks & CHECK_MAY_COMPLETE) && !check_may_complete(buf, len, log))
		ok = false;
	if (!(checks & (CHECK_ALL | CHECK_STREAM | CHECK_INVARIANTS)))
		return ok;

	report_list_init(&scan, scratch->scan, scratch->capacity);
	returned = collect_scan(buf, len, &scan);
	if ((checks & CHECK_ALL) &&
	    !check_all(buf, len, &scan, returned, scratch, log))
		ok = false;
	if ((checks & CHECK_INVARIANTS) &&
	    !check_invariants(buf, len, &scan, log))
		ok = false;
	if ((checks & CHECK_STREAM) &&
	    !check_stream(buf, len, cuts, cut_count, &scan, scratch, log))
		ok = false;
	return ok;
}
