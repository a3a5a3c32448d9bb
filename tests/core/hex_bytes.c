// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hex byte strings for test tables; see hex_bytes.h.  The parsing itself is
 * the CLI's (userspace/hex.c), so the project has one hex parser.
 */
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "hex_bytes.h"

long parse_hex_bytes(const char *text, uint8_t *out, size_t max)
{
	const char *error;
	size_t len, where;
	unsigned char *bytes = hex_parse(text, &len, &error, &where);

	if (!bytes)
		return -1;
	if (len > max) {
		free(bytes);
		return -1;
	}
	memcpy(out, bytes, len);
	free(bytes);
	return (long)len;
}
