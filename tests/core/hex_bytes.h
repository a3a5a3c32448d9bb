/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Parse byte strings written as hex pairs ("2F C0 AE") in test tables.
 */
#ifndef UTF8GUARD_TESTS_HEX_BYTES_H
#define UTF8GUARD_TESTS_HEX_BYTES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse @text, hex pairs separated by single spaces, into @out.  Returns
 * the number of bytes, or -1 if @text is malformed or has more than @max.
 */
long parse_hex_bytes(const char *text, uint8_t *out, size_t max);

#endif /* UTF8GUARD_TESTS_HEX_BYTES_H */
