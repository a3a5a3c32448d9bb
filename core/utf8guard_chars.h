/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard character classes (utf8guard_chars.c): the scan behind
 * utf8guard_first_violation() for the normalize-reject classes.
 */
#ifndef UTF8GUARD_CHARS_H
#define UTF8GUARD_CHARS_H

#include "utf8guard_core.h"

bool utf8guard_scan_chars(u32 classes, const u8 *buf, size_t len,
			  size_t valid, struct utf8guard_report *report);

#endif /* UTF8GUARD_CHARS_H */
