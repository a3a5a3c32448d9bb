// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Markus Kuhn's UTF-8 stress test against the core: every test the file's
 * section structure calls malformed must be reported, every other one must
 * not.  Malformed: sections 3, 4, 5.1, 5.2, and in section 2 the forms
 * beyond RFC 3629 (2.1.5, 2.1.6, 2.2.4, 2.2.5, 2.2.6, 2.3.5).  Well-formed:
 * the rest of section 2 and 5.3 (noncharacters).
 *
 * Each test is checked as a whole (the bytes between its quotes) and, when
 * it spans several lines, line by line.  Where a line spells its bytes out
 * in hex ("4.1.1 U+002F = c0 af = ..."), those bytes are checked too, and
 * must be the quoted ones.
 *
 * Usage: kuhn_test PATH/UTF-8-test.txt
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "kuhn_parse.h"
#include "report_compare.h"

/*
 * The 2015-08-28 edition has 79 tests (78 numbered lines and the block
 * of 3.4): 64 malformed, 15 well-formed.  Fewer means the parser skipped
 * some.
 */
#define MIN_MALFORMED_TESTS 64
#define MIN_WELL_FORMED_TESTS 15
#define MAX_SHOWN 20

enum expectation { WELL_FORMED, MALFORMED, NO_SECTION };

struct tally {
	unsigned long tests[2];
	unsigned long lines[2];
	unsigned long described;
	unsigned long described_differ;
	unsigned long replaced;
	unsigned long failures;
};

/* Count a failure; true if it is among the first MAX_SHOWN, to print. */
static bool fail(struct tally *tally)
{
	return ++tally->failures <= MAX_SHOWN;
}

static bool in_section(const char *id, const char *section)
{
	size_t len = strlen(section);

	return !strncmp(id, section, len) &&
	       (id[len] == '\0' || id[len] == '.');
}

static enum expectation expectation_of(const char *id)
{
	static const char *const beyond_rfc3629[] = {
		"2.1.5", "2.1.6", "2.2.4", "2.2.5", "2.2.6", "2.3.5",
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(beyond_rfc3629); k++)
		if (!strcmp(id, beyond_rfc3629[k]))
			return MALFORMED;
	if (in_section(id, "3") || in_section(id, "4") ||
	    in_section(id, "5.1") || in_section(id, "5.2"))
		return MALFORMED;
	if (in_section(id, "2") || in_section(id, "5.3"))
		return WELL_FORMED;
	return NO_SECTION;
}

static const char *const expectation_name[] = { "well-formed", "malformed" };

static bool holds_replacement(const uint8_t *bytes, size_t length)
{
	size_t k;

	for (k = 0; k + 2 < length; k++)
		if (bytes[k] == 0xEF && bytes[k + 1] == 0xBF &&
		    bytes[k + 2] == 0xBD)
			return true;
	return false;
}

/* Check @bytes against @expected; returns false (and says why) if wrong. */
static bool check_bytes(const struct kuhn_test *test, const char *what,
			const uint8_t *bytes, size_t length,
			enum expectation expected, struct tally *tally)
{
	struct utf8guard_report report;
	bool malformed = utf8guard_first_error(bytes, length, &report);

	if (malformed == (expected == MALFORMED))
		return true;
	if (!fail(tally))
		return false;
	fprintf(stderr, "FAIL %s (line %u) %s: expected %s, core says ",
		test->id, test->line, what, expectation_name[expected]);
	if (malformed)
		print_core_report(stderr, &report);
	else
		fputs("well-formed", stderr);
	fputs(holds_replacement(bytes, length) ?
	      " (the bytes hold U+FFFD, EF BF BD)\n" : "\n", stderr);
	return false;
}

static void check_lines(const struct kuhn_test *test,
			enum expectation expected, struct tally *tally)
{
	const uint8_t *line = test->bytes;
	const uint8_t *end = test->bytes + test->length;
	const uint8_t *nl;
	char what[32];
	unsigned int k;

	for (k = 0; k < test->lines; k++) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		snprintf(what, sizeof(what), "line %u of %u", k + 1,
			 test->lines);
		check_bytes(test, what, line, nl - line, expected, tally);
		tally->lines[expected]++;
		line = nl + 1;
	}
}

static void check_described(const struct kuhn_test *test,
			    enum expectation expected, struct tally *tally)
{
	if (!test->described_length)
		return;
	tally->described++;
	check_bytes(test, "spelled-out hex", test->described,
		    test->described_length, expected, tally);
	if (test->described_length == test->length &&
	    !memcmp(test->described, test->bytes, test->length))
		return;
	tally->described_differ++;
	if (!fail(tally))
		return;
	fprintf(stderr, "FAIL %s (line %u): quoted bytes ", test->id,
		test->line);
	print_bytes(stderr, test->bytes, test->length);
	fputs(" are not the spelled-out ", stderr);
	print_bytes(stderr, test->described, test->described_length);
	fputc('\n', stderr);
}

static void check_test(const struct kuhn_test *test, struct tally *tally)
{
	enum expectation expected = expectation_of(test->id);

	if (expected == NO_SECTION) {
		if (fail(tally))
			fprintf(stderr,
				"FAIL %s (line %u): test in no known section\n",
				test->id, test->line);
		return;
	}
	tally->tests[expected]++;
	if (!check_bytes(test, "quoted bytes", test->bytes, test->length,
			 expected, tally) && expected == MALFORMED &&
	    holds_replacement(test->bytes, test->length))
		tally->replaced++;
	if (test->lines > 1)
		check_lines(test, expected, tally);
	else
		tally->lines[expected]++;
	check_described(test, expected, tally);
}

/* Every numbered line must have given exactly one test. */
static void check_numbered(const struct kuhn_file *file, struct tally *tally)
{
	size_t n, k, found;

	for (n = 0; n < file->numbered_count; n++) {
		found = 0;
		for (k = 0; k < file->test_count; k++)
			found += !strcmp(file->tests[k].id, file->numbered[n]);
		if (found != 1 && fail(tally))
			fprintf(stderr, "FAIL %s: %zu tests parsed, not 1\n",
				file->numbered[n], found);
	}
	if (tally->tests[MALFORMED] < MIN_MALFORMED_TESTS ||
	    tally->tests[WELL_FORMED] < MIN_WELL_FORMED_TESTS) {
		fail(tally);
		fprintf(stderr,
			"FAIL only %lu malformed and %lu well-formed tests parsed, the file has at least %d and %d\n",
			tally->tests[MALFORMED], tally->tests[WELL_FORMED],
			MIN_MALFORMED_TESTS, MIN_WELL_FORMED_TESTS);
	}
}

int main(int argc, char **argv)
{
	struct kuhn_file file;
	struct tally tally;
	size_t k;

	if (argc != 2) {
		fputs("usage: kuhn_test PATH/UTF-8-test.txt\n", stderr);
		return 2;
	}
	if (kuhn_load(argv[1], &file)) {
		fprintf(stderr, "kuhn: FAIL: cannot use %s\n", argv[1]);
		kuhn_free(&file);
		return 1;
	}
	memset(&tally, 0, sizeof(tally));
	for (k = 0; k < file.test_count; k++)
		check_test(&file.tests[k], &tally);
	check_numbered(&file, &tally);

	printf("kuhn: %zu tests parsed (%zu numbered lines); well-formed: %lu tests (%lu lines) checked; malformed: %lu tests (%lu lines) checked; spelled-out hex: %lu lines checked, %lu unlike their quoted bytes; %lu failures\n",
	       file.test_count, file.numbered_count, tally.tests[WELL_FORMED],
	       tally.lines[WELL_FORMED], tally.tests[MALFORMED],
	       tally.lines[MALFORMED], tally.described,
	       tally.described_differ, tally.failures);
	if (tally.failures > MAX_SHOWN)
		printf("kuhn: %lu failures not shown\n",
		       tally.failures - MAX_SHOWN);
	if (tally.replaced)
		printf("kuhn: %lu tests the file calls malformed hold U+FFFD (EF BF BD) and nothing malformed: this copy of %s has been through a decoder that replaced its malformed sequences; the test needs the original bytes\n",
		       tally.replaced, argv[1]);
	kuhn_free(&file);
	return tally.failures ? 1 : 0;
}
