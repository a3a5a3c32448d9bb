/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The tests' UTF-8 encoder, for the userspace suites and KUnit alike
 * (tests/unicode, tests/core/vector_test.c, core/tests).
 */
#ifndef UTF8GUARD_TEST_UTF8_ENCODE_H
#define UTF8GUARD_TEST_UTF8_ENCODE_H

#include "utf8guard_types.h"

/*
 * UTF-8 of @cp into @out (at most 4 bytes): the tests' own encoder, so
 * that no test input depends on the core's decoder it checks.
 */
static inline size_t test_utf8_encode(u32 cp, u8 *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xC0 | cp >> 6;
		out[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xE0 | cp >> 12;
		out[1] = 0x80 | (cp >> 6 & 0x3F);
		out[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	out[0] = 0xF0 | cp >> 18;
	out[1] = 0x80 | (cp >> 12 & 0x3F);
	out[2] = 0x80 | (cp >> 6 & 0x3F);
	out[3] = 0x80 | (cp & 0x3F);
	return 4;
}

#endif /* UTF8GUARD_TEST_UTF8_ENCODE_H */
