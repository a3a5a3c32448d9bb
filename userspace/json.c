// SPDX-License-Identifier: GPL-2.0
/* Writing JSON strings and small values. */
#include <string.h>

#include "json.h"

void json_write_bytes(FILE *out, const unsigned char *bytes, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = bytes[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c >= 0x80)
			fprintf(out, "\\\\x%02x", c);
		else if (c < 0x20 || c == 0x7F)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_write_string(FILE *out, const char *s)
{
	json_write_bytes(out, (const unsigned char *)s, strlen(s));
}

void json_write_hex(FILE *out, const unsigned char *bytes, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++)
		fprintf(out, "%02x", bytes[i]);
	fputc('"', out);
}
