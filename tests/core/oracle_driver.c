// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Driver for oracle_test.py: reads records from stdin, answers with what
 * the core reports, on stdout.  All integers little-endian.
 *
 *   in:  u32 length, then length bytes
 *   out: u8 ill-formed, u32 first offset, u32 first length (0 0 when
 *        well-formed, from utf8guard_first_error()), u32 count (what
 *        utf8guard_scan() returns), then for each error it calls back
 *        with: u32 offset, u8 length
 */
#include <stdio.h>
#include <stdlib.h>

#include "utf8guard_core.h"

static void put_u32(u32 value)
{
	putchar(value & 0xFF);
	putchar((value >> 8) & 0xFF);
	putchar((value >> 16) & 0xFF);
	putchar(value >> 24);
}

static bool get_u32(u32 *value)
{
	unsigned char b[4];

	if (fread(b, 1, 4, stdin) != 4)
		return false;
	*value = b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
	return true;
}

static bool put_error(const struct utf8guard_report *report, void *arg)
{
	(void)arg;
	put_u32(report->offset);
	putchar(report->length);
	return true;
}

int main(void)
{
	struct utf8guard_report first;
	size_t capacity = 0;
	u8 *buf = NULL;
	u32 len;
	bool bad;

	while (get_u32(&len)) {
		if (len > capacity) {
			capacity = len;
			buf = realloc(buf, capacity);
			if (!buf) {
				fputs("oracle_driver: out of memory\n", stderr);
				return 2;
			}
		}
		if (fread(buf, 1, len, stdin) != len) {
			fputs("oracle_driver: truncated record\n", stderr);
			return 2;
		}
		bad = utf8guard_first_error(buf, len, &first);
		putchar(bad);
		put_u32(bad ? first.offset : 0);
		put_u32(bad ? first.length : 0);
		put_u32(utf8guard_scan(buf, len, NULL, NULL));
		utf8guard_scan(buf, len, put_error, NULL);
	}
	free(buf);
	return fflush(stdout) ? 2 : 0;
}
