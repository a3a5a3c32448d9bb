// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Table tests: the hand-written rows of table_rows.c against the core, the
 * streaming validator at every chunking of each row (no cut, every single
 * cut, every pair of cuts, byte by byte, byte by byte with empty chunks),
 * callbacks that stop early, and the reason vocabulary.
 *
 * Usage: table_test [--corpus DIR]
 *   --corpus DIR  only write each row's input to a file in DIR (seeds for
 *                 fuzz_core), run no test
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "array_size.h"
#include "hex_bytes.h"
#include "report_compare.h"
#include "report_list.h"
#include "table_rows.h"

static unsigned long failures;
static unsigned long chunkings;

static void fail_header(const char *what, const u8 *buf, size_t len)
{
	failures++;
	fprintf(stderr, "FAIL %s: ", what);
	print_bytes(stderr, buf, len);
	fputc('\n', stderr);
}

static size_t parse_row_bytes(const char *hex, u8 *buf)
{
	long len = parse_hex_bytes(hex, buf, TABLE_MAX_BYTES);

	if (len < 0) {
		fprintf(stderr, "FAIL malformed row bytes \"%s\"\n", hex);
		failures++;
		return 0;
	}
	return len;
}

static bool same_list(const struct report_list *list,
		      const struct utf8guard_report *expected, size_t count)
{
	size_t k;

	if (list->count != count)
		return false;
	for (k = 0; k < count; k++)
		if (!core_reports_equal(&list->items[k], &expected[k]))
			return false;
	return true;
}

static void show_list(const char *label,
		      const struct utf8guard_report *items, size_t count)
{
	size_t k;

	fprintf(stderr, "  %s: %zu errors\n", label, count);
	for (k = 0; k < count && k < TABLE_MAX_ERRORS; k++) {
		fputs("    ", stderr);
		print_core_report(stderr, &items[k]);
		fputc('\n', stderr);
	}
}

/* One chunking: the stream must list @expected and agree with itself. */
static void check_stream(const u8 *buf, size_t len, const size_t *cuts,
			 size_t cut_count,
			 const struct utf8guard_report *expected, size_t count)
{
	struct utf8guard_report items[TABLE_MAX_BYTES + 1];
	struct utf8guard_stream stream;
	struct report_list list;
	size_t k;

	chunkings++;
	report_list_init(&list, items, TABLE_MAX_BYTES + 1);
	collect_stream(buf, len, cuts, cut_count, &stream, &list);
	if (same_list(&list, expected, count) && stream.errors == count &&
	    stream.consumed == len && stream.carry_length == 0 &&
	    (!count || core_reports_equal(&stream.first, &expected[0])))
		return;
	fail_header("stream", buf, len);
	fputs("  cut at", stderr);
	for (k = 0; k < cut_count; k++)
		fprintf(stderr, " %zu", cuts[k]);
	fprintf(stderr, "; errors %" PRIu64 ", consumed %" PRIu64
		", carry %u\n", stream.errors, stream.consumed,
		stream.carry_length);
	show_list("stream", list.items, list.count);
	show_list("expected", expected, count);
}

static void check_all_chunkings(const u8 *buf, size_t len,
				const struct utf8guard_report *expected,
				size_t count)
{
	size_t cuts[2 * TABLE_MAX_BYTES + 1];
	size_t a, b, k;

	check_stream(buf, len, NULL, 0, expected, count);
	for (a = 0; a <= len; a++) {
		check_stream(buf, len, &a, 1, expected, count);
		for (b = a; b <= len; b++) {
			cuts[0] = a;
			cuts[1] = b;
			check_stream(buf, len, cuts, 2, expected, count);
		}
	}
	for (k = 1; k < len; k++)
		cuts[k - 1] = k;
	check_stream(buf, len, cuts, len ? len - 1 : 0, expected, count);
	for (k = 0; k <= 2 * len; k++)
		cuts[k] = (k + 1) / 2;
	check_stream(buf, len, cuts, 2 * len + 1, expected, count);
}

static void run_first_error_row(const struct first_error_row *row)
{
	struct utf8guard_report items[TABLE_MAX_BYTES + 1];
	struct utf8guard_report report;
	struct report_list scan;
	u8 buf[TABLE_MAX_BYTES];
	size_t len = parse_row_bytes(row->bytes, buf);
	bool bad = utf8guard_first_error(buf, len, &report);

	if (bad == row->valid ||
	    (bad && !core_reports_equal(&report, &row->first))) {
		fail_header("first error", buf, len);
		fputs("  got:      ", stderr);
		if (bad)
			print_core_report(stderr, &report);
		else
			fputs("valid", stderr);
		fputs("\n  expected: ", stderr);
		if (row->valid)
			fputs("valid", stderr);
		else
			print_core_report(stderr, &row->first);
		fputc('\n', stderr);
	}

	report_list_init(&scan, items, TABLE_MAX_BYTES + 1);
	collect_scan(buf, len, &scan);
	if (row->valid ? scan.count != 0 :
	    scan.count == 0 || !core_reports_equal(&items[0], &row->first)) {
		fail_header("utf8guard_scan() first report", buf, len);
		show_list("scan", scan.items, scan.count);
	}
	check_all_chunkings(buf, len, scan.items, scan.count);
}

static void run_error_list_row(const struct error_list_row *row)
{
	struct utf8guard_report items[TABLE_MAX_BYTES + 1];
	struct report_list scan;
	u8 buf[TABLE_MAX_BYTES];
	size_t len = parse_row_bytes(row->bytes, buf);
	u64 returned;

	report_list_init(&scan, items, TABLE_MAX_BYTES + 1);
	returned = collect_scan(buf, len, &scan);
	if (returned != row->count ||
	    !same_list(&scan, row->errors, row->count)) {
		fail_header("utf8guard_scan() list", buf, len);
		fprintf(stderr, "  returned %" PRIu64 "\n", returned);
		show_list("scan", scan.items, scan.count);
		show_list("expected", row->errors, row->count);
	}
	check_all_chunkings(buf, len, row->errors, row->count);
}

static void run_pending_row(const struct pending_row *row)
{
	struct utf8guard_report report;
	enum utf8guard_step step;
	u8 buf[TABLE_MAX_BYTES];
	size_t len = parse_row_bytes(row->bytes, buf);
	size_t pos = row->start;

	step = utf8guard_next_error(buf, len, &pos, false, &report);
	if (step != row->step || pos != row->pos) {
		fail_header("utf8guard_next_error(at_end false)", buf, len);
		fprintf(stderr,
			"  from %zu: step %d pos %zu, expected %d %zu\n",
			row->start, (int)step, pos, (int)row->step, row->pos);
	}
}

/* A callback that stops after *(size_t *)arg calls. */
static bool stop_after(const struct utf8guard_report *report, void *arg)
{
	size_t *left = arg;

	(void)report;
	return --*left > 0;
}

static unsigned long run_stop_checks(void)
{
	static const u8 three[] = { 0x80, 0x80, 0x80 };
	struct utf8guard_stream stream;
	size_t left, k;
	u64 count;

	for (k = 1; k <= 3; k++) {
		left = k;
		count = utf8guard_scan(three, 3, stop_after, &left);
		if (count != k || left != 0) {
			fail_header("utf8guard_scan() stopped early", three, 3);
			fprintf(stderr, "  stop at %zu: returned %" PRIu64 "\n",
				k, count);
		}
	}
	if (utf8guard_scan(three, 3, NULL, NULL) != 3)
		fail_header("utf8guard_scan() without callback", three, 3);

	/* A stopped stream ignores later chunks and the end. */
	left = 1;
	utf8guard_stream_init(&stream);
	for (k = 0; k < 3; k++)
		utf8guard_stream_feed(&stream, three + k, 1, stop_after, &left);
	utf8guard_stream_end(&stream, stop_after, &left);
	if (!stream.stopped || stream.errors != 1 || left != 0) {
		fail_header("stream stopped by its callback", three, 3);
		fprintf(stderr, "  stopped %d, errors %" PRIu64 "\n",
			stream.stopped, stream.errors);
	}
	return 5;
}

static unsigned long run_reason_names(void)
{
	static const char *const names[UTF8GUARD_REASON_COUNT] = {
		"none", "truncated", "unexpected-continuation",
		"invalid-byte", "overlong", "surrogate", "out-of-range",
		"control", "bidi", "ignorable", "noncharacter", "bom",
		"confusable-path", "not-nfc", "empty-name", "dot-name",
		"slash", "nul", "name-too-long",
	};
	static const char *const not_names[] = {
		"", "overlon", "overlongs", "Overlong", "unknown",
	};
	unsigned long checks = 0;
	unsigned int r;
	size_t k;

	for (r = 0; r < UTF8GUARD_REASON_COUNT; r++, checks += 2) {
		if (strcmp(utf8guard_reason_name(r), names[r]) ||
		    utf8guard_reason_from_name(names[r], strlen(names[r])) !=
		    (int)r) {
			failures++;
			fprintf(stderr, "FAIL reason %u is not \"%s\"\n", r,
				names[r]);
		}
	}
	checks++;
	if (strcmp(utf8guard_reason_name(UTF8GUARD_REASON_COUNT), "unknown")) {
		failures++;
		fputs("FAIL reason past the end is not \"unknown\"\n", stderr);
	}
	for (k = 0; k < ARRAY_SIZE(not_names); k++) {
		checks++;
		if (utf8guard_reason_from_name(not_names[k],
					       strlen(not_names[k])) != -1) {
			failures++;
			fprintf(stderr, "FAIL \"%s\" parsed as a reason\n",
				not_names[k]);
		}
	}
	/* The word need not be NUL-terminated. */
	checks++;
	if (utf8guard_reason_from_name("overlong-and-more", 8) !=
	    UTF8GUARD_REASON_OVERLONG) {
		failures++;
		fputs("FAIL \"overlong\" within a longer string\n", stderr);
	}
	return checks;
}

static int write_seed(const char *dir, const char *kind, size_t index,
		      const char *hex)
{
	char path[4096];
	u8 buf[TABLE_MAX_BYTES];
	long len = parse_hex_bytes(hex, buf, TABLE_MAX_BYTES);
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s-%03zu", dir, kind, index);
	out = fopen(path, "wb");
	if (!out || len < 0 || fwrite(buf, 1, len, out) != (size_t)len) {
		fprintf(stderr, "table: cannot write %s\n", path);
		if (out)
			fclose(out);
		return -1;
	}
	return fclose(out);
}

static int write_corpus(const char *dir)
{
	size_t k;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "table: cannot create %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (k = 0; k < first_error_row_count; k++)
		if (write_seed(dir, "first", k, first_error_rows[k].bytes))
			return -1;
	for (k = 0; k < error_list_row_count; k++)
		if (write_seed(dir, "list", k, error_list_rows[k].bytes))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long stops, names;
	size_t k;

	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return write_corpus(argv[2]) ? 2 : 0;
	if (argc != 1) {
		fputs("usage: table_test [--corpus DIR]\n", stderr);
		return 2;
	}

	for (k = 0; k < first_error_row_count; k++)
		run_first_error_row(&first_error_rows[k]);
	for (k = 0; k < error_list_row_count; k++)
		run_error_list_row(&error_list_rows[k]);
	for (k = 0; k < pending_row_count; k++)
		run_pending_row(&pending_rows[k]);
	stops = run_stop_checks();
	names = run_reason_names();

	printf("table: %zu first-error rows, %zu error lists, %zu pending rows, %lu stop checks, %lu reason-name checks, %lu stream chunkings; %lu failures\n",
	       first_error_row_count, error_list_row_count, pending_row_count,
	       stops, names, chunkings, failures);
	return failures ? 1 : 0;
}
