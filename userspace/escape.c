// SPDX-License-Identifier: GPL-2.0
/* Terminal-safe rendering of untrusted bytes. */
#include <string.h>

#include "escape.h"

void escape_write(FILE *out, const unsigned char *bytes, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (bytes[i] >= 0x20 && bytes[i] < 0x7F && bytes[i] != '\\')
			fputc(bytes[i], out);
		else
			fprintf(out, "\\x%02x", bytes[i]);
	}
}

void escape_write_string(FILE *out, const char *s)
{
	escape_write(out, (const unsigned char *)s, strlen(s));
}
