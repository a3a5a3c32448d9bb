// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hex byte strings for test tables; see hex_bytes.h.
 */
#include "hex_bytes.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

long parse_hex_bytes(const char *text, uint8_t *out, size_t max)
{
	size_t count = 0;
	int high, low;

	while (*text) {
		if (count && *text++ != ' ')
			return -1;
		high = hex_digit(text[0]);
		low = high < 0 ? -1 : hex_digit(text[1]);
		if (low < 0 || count == max)
			return -1;
		out[count++] = (uint8_t)(high << 4 | low);
		text += 2;
	}
	return (long)count;
}
