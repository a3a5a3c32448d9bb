// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * unicode_test - the normalize-reject classes, against the data.
 *
 *   unicode_test classes
 *	every boundary case of class_cases.h and text case, through the
 *	policy's utf8guard_first_violation() with the one class on
 *   unicode_test names
 *	the filename component rules of utf8guard_name_violation()
 *   unicode_test normalization NormalizationTest.txt
 *	every column c1..c5 of every line: c1, c2 and c3 are NFC iff they
 *	equal c2 (their NFC), c4 and c5 iff they equal c4 (theirs); and
 *	every code point Part 1 does not list is NFC on its own
 *   unicode_test nfc
 *	reads lines of hex code points on stdin, prints 1 (NFC) or 0 per
 *	line, for the comparison with Python (random_nfc.py)
 *
 * Prints "N passed, N failed" and exits 1 if anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "class_cases.h"
#include "utf8guard_policy.h"

static unsigned long passed, failed;

static void check(bool ok, const char *what, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed <= 50)
		printf("FAIL %s: %s\n", what, detail);
}

static void run_classes(void)
{
	char detail[160];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(class_cases); k++) {
		const struct class_case *c = &class_cases[k];
		struct utf8guard_report report;
		u8 bytes[4];
		size_t len = test_utf8_encode(c->cp, bytes);
		bool refused = utf8guard_first_violation(c->class, bytes, len,
							 &report);
		bool ok = refused == (c->reason != UTF8GUARD_REASON_NONE) &&
			  (!refused || (report.reason == c->reason &&
					report.offset == 0 &&
					report.length == len &&
					report.codepoint == c->cp));

		snprintf(detail, sizeof(detail),
			 "U+%04X under class 0x%x: %s %s (want %s)", c->cp,
			 c->class, refused ? "refused" : "allowed",
			 refused ? utf8guard_reason_name(report.reason) : "",
			 utf8guard_reason_name(c->reason));
		check(ok, "class", detail);
	}
	for (k = 0; k < ARRAY_SIZE(text_cases); k++) {
		const struct text_case *c = &text_cases[k];
		struct utf8guard_report report;
		bool refused = utf8guard_first_violation(c->classes,
							 (const u8 *)c->text,
							 strlen(c->text),
							 &report);
		bool ok = refused == (c->reason != UTF8GUARD_REASON_NONE) &&
			  (!refused || (report.reason == c->reason &&
					report.offset == c->offset &&
					report.length == c->length));

		snprintf(detail, sizeof(detail), "%s: %s %s at %llu+%u",
			 c->name, refused ? "refused" : "allowed",
			 refused ? utf8guard_reason_name(report.reason) : "",
			 refused ? (unsigned long long)report.offset : 0ULL,
			 refused ? report.length : 0);
		check(ok, "text", detail);
	}
}

struct name_case {
	const char *name;
	size_t len;
	u8 reason;
	u32 offset;
};

static void run_names(void)
{
	static char long_name[300];
	const struct name_case rows[] = {
		{ "", 0, UTF8GUARD_REASON_EMPTY_NAME, 0 },
		{ ".", 1, UTF8GUARD_REASON_DOT_NAME, 0 },
		{ "..", 2, UTF8GUARD_REASON_DOT_NAME, 0 },
		{ "...", 3, UTF8GUARD_REASON_NONE, 0 },
		{ ".a", 2, UTF8GUARD_REASON_NONE, 0 },
		{ "a/b", 3, UTF8GUARD_REASON_SLASH, 1 },
		{ "ab\0c", 4, UTF8GUARD_REASON_NUL, 2 },
		{ long_name, 255, UTF8GUARD_REASON_NONE, 0 },
		{ long_name, 256, UTF8GUARD_REASON_NAME_TOO_LONG, 255 },
		{ long_name, 300, UTF8GUARD_REASON_NAME_TOO_LONG, 255 },
		{ "\xc0\xae\x2e", 3, UTF8GUARD_REASON_OVERLONG, 0 },
		/* past the first word, in the middle of one, at its end */
		{ "abcdefghijklm/opqrstuvwxyz0123456789", 36,
		  UTF8GUARD_REASON_SLASH, 13 },
		{ "abcdefghi\0klmnopqrstuvwxyz", 27, UTF8GUARD_REASON_NUL, 9 },
		{ "abcdefg/", 8, UTF8GUARD_REASON_SLASH, 7 },
		{ "abcdefgh/", 9, UTF8GUARD_REASON_SLASH, 8 },
		{ "abcdefghijklmnop\0", 17, UTF8GUARD_REASON_NUL, 16 },
	};
	char detail[160];
	size_t k;

	memset(long_name, 'n', sizeof(long_name));
	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct utf8guard_report report;
		/* Classes none: the rules hold whatever the policy. */
		u32 classes = rows[k].reason == UTF8GUARD_REASON_OVERLONG ?
			      UTF8GUARD_CLASSES_DEFAULT : 0;
		bool refused = utf8guard_name_violation(classes,
							(const u8 *)rows[k].name,
							rows[k].len, &report);
		bool ok = refused == (rows[k].reason != 0) &&
			  (!refused || (report.reason == rows[k].reason &&
					report.offset == rows[k].offset));

		snprintf(detail, sizeof(detail), "name #%zu (%zu bytes): %s %s",
			 k, rows[k].len, refused ? "refused" : "allowed",
			 refused ? utf8guard_reason_name(report.reason) : "");
		check(ok, "name", detail);
	}
	/* The path check has no component rules. */
	check(!utf8guard_first_violation(UTF8GUARD_CLASSES_DEFAULT,
					 (const u8 *)"a/../b", 6, NULL),
	      "path", "a/../b refused by the path check");
}

/* Parse space-separated hex code points; returns the count. */
static size_t parse_cps(const char *text, u32 *cps, size_t max)
{
	size_t n = 0;
	char *end;

	while (n < max) {
		unsigned long v = strtoul(text, &end, 16);

		if (end == text)
			break;
		cps[n++] = v;
		text = end;
	}
	return n;
}

static size_t to_utf8(const u32 *cps, size_t n, u8 *out)
{
	size_t len = 0, k;

	for (k = 0; k < n; k++)
		len += test_utf8_encode(cps[k], out + len);
	return len;
}

static bool is_nfc(const u32 *cps, size_t n)
{
	struct utf8guard_report report;
	u8 bytes[4 * 64];

	return !utf8guard_first_violation(UTF8GUARD_CLASS_NFC, bytes,
					  to_utf8(cps, n, bytes), &report);
}

static int run_normalization(const char *path)
{
	static bool listed[0x110000];
	char line[1024], detail[200];
	FILE *f = fopen(path, "r");
	bool part1 = false;
	unsigned long lines = 0;
	u32 cp;

	if (!f) {
		perror(path);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		u32 cols[5][64];
		size_t counts[5], c;
		char *field = line;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (line[0] == '@') {
			part1 = !strncmp(line, "@Part1", 6);
			continue;
		}
		for (c = 0; c < 5; c++) {
			counts[c] = parse_cps(field, cols[c], 64);
			field = strchr(field, ';');
			if (!field)
				break;
			field++;
		}
		if (c < 5) {
			check(false, "normalization", "malformed line");
			continue;
		}
		lines++;
		if (part1 && counts[0] == 1)
			listed[cols[0][0]] = true;
		for (c = 0; c < 5; c++) {
			/* NFC(c1..c3) = c2, NFC(c4, c5) = c4 (the file's header) */
			size_t nfc = c < 3 ? 1 : 3;
			bool want = counts[c] == counts[nfc] &&
				    !memcmp(cols[c], cols[nfc],
					    counts[c] * sizeof(u32));
			bool got = is_nfc(cols[c], counts[c]);

			snprintf(detail, sizeof(detail),
				 "line %lu column c%zu (%.60s): %s, want %s",
				 lines, c + 1, line, got ? "NFC" : "not NFC",
				 want ? "NFC" : "not NFC");
			check(got == want, "normalization", detail);
		}
	}
	fclose(f);
	/* Part 1's rule: a code point it does not list is its own NFC. */
	for (cp = 0; cp < 0x110000; cp++) {
		if (listed[cp] || (cp >= 0xD800 && cp <= 0xDFFF))
			continue;
		snprintf(detail, sizeof(detail), "U+%04X alone is not NFC", cp);
		check(is_nfc(&cp, 1), "unlisted", detail);
	}
	return 0;
}

static int run_nfc_stdin(void)
{
	char line[4096];
	u32 cps[512];

	while (fgets(line, sizeof(line), stdin)) {
		struct utf8guard_report report;
		size_t n = parse_cps(line, cps, 512);
		u8 bytes[4 * 512];

		printf("%d\n", !utf8guard_first_violation(UTF8GUARD_CLASS_NFC,
							  bytes,
							  to_utf8(cps, n, bytes),
							  &report));
	}
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc == 2 && !strcmp(argv[1], "nfc"))
		return run_nfc_stdin();
	if (argc == 2 && !strcmp(argv[1], "classes"))
		run_classes();
	else if (argc == 2 && !strcmp(argv[1], "names"))
		run_names();
	else if (argc == 3 && !strcmp(argv[1], "normalization"))
		status = run_normalization(argv[2]);
	else {
		fprintf(stderr, "usage: unicode_test classes | names | normalization FILE | nfc\n");
		return 2;
	}
	printf("%lu passed, %lu failed\n", passed, failed);
	return status ? status : failed ? 1 : 0;
}
