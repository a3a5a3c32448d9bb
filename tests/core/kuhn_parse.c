// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Parser for UTF-8-test.txt; see kuhn_parse.h for the layout it reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kuhn_parse.h"

#define TESTS_START "Here come the tests:"
/* A quoted test never spans more lines than this (3.1.9 spans 4). */
#define MAX_TEST_LINES 8

struct cursor {
	const uint8_t *pos;
	const uint8_t *end;
	unsigned int line;
};

static size_t line_length(const struct cursor *c)
{
	const uint8_t *nl = memchr(c->pos, '\n', c->end - c->pos);

	return nl ? (size_t)(nl - c->pos) : (size_t)(c->end - c->pos);
}

static void next_line(struct cursor *c)
{
	size_t len = line_length(c);

	c->pos += len < (size_t)(c->end - c->pos) ? len + 1 : len;
	c->line++;
}

static int is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/*
 * Section number at the start of the line ("3", "3.4", "3.1.9") followed
 * by a space: copy it to @id and return its number of parts, else 0.
 */
static int heading(const uint8_t *line, size_t len, char *id)
{
	size_t k = 0;
	int parts = 0;

	while (k < len && is_digit(line[k])) {
		while (k < len && is_digit(line[k]))
			k++;
		parts++;
		if (k < len && line[k] == '.' && k + 1 < len &&
		    is_digit(line[k + 1]))
			k++;
	}
	if (!parts || k >= len || line[k] != ' ' || k >= KUHN_MAX_ID)
		return 0;
	memcpy(id, line, k);
	id[k] = '\0';
	return parts;
}

static int hex_value(uint8_t c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * "... = c0 af      = " before the quote: the two-digit lowercase hex
 * words just before the last '='.
 */
static void read_described(const uint8_t *text, size_t len,
			   struct kuhn_test *test)
{
	size_t end = len, start, count = 0, k;

	while (end && text[end - 1] == ' ')
		end--;
	if (!end || text[end - 1] != '=')
		return;
	end--;
	while (end && text[end - 1] == ' ')
		end--;
	start = end;
	while (start >= 2 && hex_value(text[start - 1]) >= 0 &&
	       hex_value(text[start - 2]) >= 0 &&
	       (start == 2 || text[start - 3] == ' ')) {
		start -= 2;
		count++;
		while (start && text[start - 1] == ' ')
			start--;
	}
	if (!count || count > KUHN_MAX_DESCRIBED)
		return;
	for (k = 0; k < count; k++) {
		while (text[start] == ' ')
			start++;
		test->described[k] = hex_value(text[start]) << 4 |
				     hex_value(text[start + 1]);
		start += 2;
	}
	test->described_length = count;
}

/* The quoted bytes from @quote on, maybe over several lines. */
static int read_quoted(struct cursor *c, const uint8_t *quote,
		       struct kuhn_test *test)
{
	const uint8_t *close;
	unsigned int first = c->line;

	test->line = first;
	test->bytes = quote + 1;
	for (;;) {
		close = memchr(quote + 1, '"', c->pos + line_length(c) -
					       (quote + 1));
		if (close)
			break;
		next_line(c);
		quote = c->pos - 1;
		if (c->pos >= c->end || c->line - first >= MAX_TEST_LINES) {
			fprintf(stderr,
				"kuhn: line %u: quote of test %s not closed\n",
				first, test->id);
			return -1;
		}
	}
	test->length = close - test->bytes;
	test->lines = c->line - first + 1;
	return 0;
}

static int add_numbered(struct kuhn_file *file, const char *id,
			unsigned int line)
{
	if (file->numbered_count == KUHN_MAX_TESTS) {
		fprintf(stderr, "kuhn: line %u: too many tests\n", line);
		return -1;
	}
	strcpy(file->numbered[file->numbered_count++], id);
	return 0;
}

/* One line: maybe a heading, maybe the opening quote of a test. */
static int parse_line(struct kuhn_file *file, struct cursor *c, char *current)
{
	size_t len = line_length(c);
	const uint8_t *line = c->pos;
	const uint8_t *quote;
	struct kuhn_test *test;
	char id[KUHN_MAX_ID];
	int parts = heading(line, len, id);

	if (parts) {
		strcpy(current, id);
		if (parts == 3 && add_numbered(file, id, c->line))
			return -1;
	}
	/* Tests are on numbered lines or in indented blocks. */
	if (!(parts == 3 || (len && line[0] == ' ')))
		return 0;
	quote = memchr(line, '"', len);
	if (!quote)
		return 0;
	if (!current[0] || file->test_count == KUHN_MAX_TESTS) {
		fprintf(stderr, "kuhn: line %u: test outside a section\n",
			c->line);
		return -1;
	}
	test = &file->tests[file->test_count++];
	memset(test, 0, sizeof(*test));
	strcpy(test->id, current);
	if (parts == 3)
		read_described(line, quote - line, test);
	return read_quoted(c, quote, test);
}

static int read_file(const char *path, struct kuhn_file *file)
{
	FILE *in = fopen(path, "rb");
	long size;

	if (!in) {
		fprintf(stderr, "kuhn: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	size = fseek(in, 0, SEEK_END) ? -1 : ftell(in);
	if (size < 0 || fseek(in, 0, SEEK_SET)) {
		fprintf(stderr, "kuhn: cannot read %s\n", path);
		fclose(in);
		return -1;
	}
	file->size = size;
	file->data = malloc(size ? size : 1);
	if (!file->data || fread(file->data, 1, size, in) != (size_t)size) {
		fprintf(stderr, "kuhn: cannot read %s\n", path);
		fclose(in);
		return -1;
	}
	fclose(in);
	return 0;
}

static int starts_with(const struct cursor *c, const char *prefix)
{
	size_t len = strlen(prefix);

	return line_length(c) >= len && !memcmp(c->pos, prefix, len);
}

int kuhn_load(const char *path, struct kuhn_file *file)
{
	char current[KUHN_MAX_ID] = "";
	struct cursor c;

	memset(file, 0, sizeof(*file));
	if (read_file(path, file))
		return -1;
	c.pos = file->data;
	c.end = file->data + file->size;
	c.line = 1;
	while (c.pos < c.end && !starts_with(&c, TESTS_START))
		next_line(&c);
	if (c.pos == c.end) {
		fprintf(stderr,
			"kuhn: %s: no line \"%s\": not Kuhn's UTF-8-test.txt\n",
			path, TESTS_START);
		return -1;
	}
	for (; c.pos < c.end; next_line(&c))
		if (parse_line(file, &c, current))
			return -1;
	return 0;
}

void kuhn_free(struct kuhn_file *file)
{
	free(file->data);
	file->data = NULL;
}
