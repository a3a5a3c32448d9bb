/* SPDX-License-Identifier: GPL-2.0 */
/* Hex text <-> bytes. */
#ifndef UTF8GUARDCTL_HEX_H
#define UTF8GUARDCTL_HEX_H

#include <stddef.h>

/*
 * Parse @text: pairs of hex digits, optionally separated by spaces, tabs,
 * ':' or '-', optionally prefixed "0x".  On success returns a malloc'ed
 * buffer and sets *@len; on failure returns NULL and sets *@error to a
 * static message and *@where to the offending character's index.
 */
unsigned char *hex_parse(const char *text, size_t *len, const char **error,
			 size_t *where);

#endif /* UTF8GUARDCTL_HEX_H */
