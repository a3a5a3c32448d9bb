/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard Unicode properties: what the normalize-reject classes need to
 * know about a code point, read from tables generated from the Unicode
 * data files (scripts/gen-unicode-tables.py, utf8guard_unicode_tables.h).
 *
 * Pure functions, compiled verbatim into the module and the CLI, like the
 * core and the policy.  Not exported: other modules use the policy.
 */
#ifndef UTF8GUARD_UNICODE_H
#define UTF8GUARD_UNICODE_H

#include "utf8guard_types.h"

/* Bits of utf8guard_char_props(); the generator writes the same. */
#define UTF8GUARD_CHAR_CONTROL		0x01
#define UTF8GUARD_CHAR_BIDI		0x02
#define UTF8GUARD_CHAR_IGNORABLE	0x04
#define UTF8GUARD_CHAR_BOM		0x08
#define UTF8GUARD_CHAR_CONFUSABLE_PATH	0x10
/* Canonical combining class not 0: look it up with utf8guard_char_ccc(). */
#define UTF8GUARD_CHAR_COMBINING	0x20
/* The NFC quick-check answer, in the top two bits. */
#define UTF8GUARD_CHAR_NFC_QC_SHIFT	6
#define UTF8GUARD_CHAR_NFC_MAYBE	(1U << UTF8GUARD_CHAR_NFC_QC_SHIFT)
#define UTF8GUARD_CHAR_NFC_NO		(2U << UTF8GUARD_CHAR_NFC_QC_SHIFT)
#define UTF8GUARD_CHAR_NFC_QC		(3U << UTF8GUARD_CHAR_NFC_QC_SHIFT)

/* Longest full canonical decomposition of one code point (U+1F82...). */
#define UTF8GUARD_DECOMPOSITION_MAX	4

unsigned int utf8guard_char_props(u32 cp);
unsigned int utf8guard_char_ccc(u32 cp);
bool utf8guard_is_noncharacter(u32 cp);
unsigned int utf8guard_decompose(u32 cp, u32 *out);
u32 utf8guard_compose(u32 first, u32 second);
size_t utf8guard_plain_run(const u8 *buf, size_t len, size_t *last);
const char *utf8guard_unicode_version(void);

#endif /* UTF8GUARD_UNICODE_H */
