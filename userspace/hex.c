// SPDX-License-Identifier: GPL-2.0
/* Hex text -> bytes, with an error that says where the text went wrong. */
#include <stdlib.h>
#include <string.h>

#include "hex.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int is_separator(char c)
{
	return c == ' ' || c == '\t' || c == ':' || c == '-';
}

unsigned char *hex_parse(const char *text, size_t *len, const char **error,
			 size_t *where)
{
	size_t n = strlen(text);
	unsigned char *out = malloc(n / 2 + 1);
	size_t i = 0, k = 0;
	int hi, lo;

	if (!out) {
		*error = "out of memory";
		*where = 0;
		return NULL;
	}
	if (n >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		i = 2;
	while (i < n) {
		if (is_separator(text[i])) {
			i++;
			continue;
		}
		hi = hex_digit(text[i]);
		if (hi < 0) {
			*error = "not a hex digit";
			goto fail;
		}
		if (i + 1 >= n || hex_digit(text[i + 1]) < 0) {
			*error = i + 1 >= n ? "odd number of hex digits" :
					      "a byte needs two hex digits";
			i++;
			goto fail;
		}
		lo = hex_digit(text[i + 1]);
		out[k++] = (unsigned char)(hi << 4 | lo);
		i += 2;
	}
	*len = k;
	return out;
fail:
	*where = i;
	free(out);
	return NULL;
}
