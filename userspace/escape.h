/* SPDX-License-Identifier: GPL-2.0 */
/* Terminal-safe rendering of untrusted bytes. */
#ifndef UTF8GUARDCTL_ESCAPE_H
#define UTF8GUARDCTL_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write @len bytes to @out with every byte that is not printable ASCII
 * (and the backslash) written as \xNN, so that no control character or
 * raw non-ASCII byte ever reaches the terminal.
 */
void escape_write(FILE *out, const unsigned char *bytes, size_t len);

/* The same for a NUL-terminated string. */
void escape_write_string(FILE *out, const char *s);

#endif /* UTF8GUARDCTL_ESCAPE_H */
