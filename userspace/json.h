/* SPDX-License-Identifier: GPL-2.0 */
/* Writing JSON strings and small values. */
#ifndef UTF8GUARDCTL_JSON_H
#define UTF8GUARDCTL_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @len untrusted bytes as a JSON string, quotes included.  The
 * output is pure ASCII: '"' and '\' are escaped, control characters become
 * \u00XX, and bytes 0x80-0xFF become the six characters "\\xNN" (the
 * text escape_write() shows), so that the JSON stays valid whatever the
 * bytes are.
 */
void json_write_bytes(FILE *out, const unsigned char *bytes, size_t len);

/* The same for a NUL-terminated string. */
void json_write_string(FILE *out, const char *s);

/* The bytes as a JSON string of hex digits, e.g. "c0ae". */
void json_write_hex(FILE *out, const unsigned char *bytes, size_t len);

#endif /* UTF8GUARDCTL_JSON_H */
