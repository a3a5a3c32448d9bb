/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Parser for Markus Kuhn's "UTF-8 decoder capability and stress test"
 * (UTF-8-test.txt), read as bytes.
 *
 * Layout of the file, after the line "Here come the tests:":
 * - headings: a section number at the start of a line, "3  ", "3.1  ",
 *   "3.1.2  "; numbers with three parts are the numbered tests;
 * - a test's bytes are between double quotes, either on its numbered line
 *   ("3.1.2  Last  continuation byte 0xbf: "..."") or in a block below its
 *   heading, on lines indented by spaces, which may span several lines
 *   (3.1.9, 3.2.1, 3.4, 5.3.4: the lines in between belong to the test,
 *   with their padding, the "|" margin and the newline);
 * - quotes in prose (lines starting with a letter or in column 0) are not
 *   tests;
 * - numbered lines may spell the bytes out in hex before the quote:
 *   "4.1.1 U+002F = c0 af             = "..."".
 */
#ifndef UTF8GUARD_TESTS_KUHN_PARSE_H
#define UTF8GUARD_TESTS_KUHN_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define KUHN_MAX_TESTS 128
#define KUHN_MAX_ID 16
#define KUHN_MAX_DESCRIBED 16

struct kuhn_test {
	char id[KUHN_MAX_ID];		/* heading it belongs to: "3.1.9" */
	unsigned int line;		/* line of the opening quote, from 1 */
	unsigned int lines;		/* physical lines the bytes span */
	const uint8_t *bytes;		/* between the quotes, in the file */
	size_t length;
	uint8_t described[KUHN_MAX_DESCRIBED];	/* hex spelled out */
	size_t described_length;	/* 0 when the line spells none */
};

struct kuhn_file {
	uint8_t *data;
	size_t size;
	struct kuhn_test tests[KUHN_MAX_TESTS];
	size_t test_count;
	/* ids of the lines that start with a three-part number */
	char numbered[KUHN_MAX_TESTS][KUHN_MAX_ID];
	size_t numbered_count;
};

/*
 * Read and parse @path into @file.  Returns 0, or -1 after printing why
 * to stderr (missing file, not the Kuhn file, unterminated quote...).
 */
int kuhn_load(const char *path, struct kuhn_file *file);
void kuhn_free(struct kuhn_file *file);

#endif /* UTF8GUARD_TESTS_KUHN_PARSE_H */
