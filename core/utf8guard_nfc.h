/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard NFC check of one segment (utf8guard_nfc.c); the policy's
 * character scan decides when to call it.
 */
#ifndef UTF8GUARD_NFC_H
#define UTF8GUARD_NFC_H

#include "utf8guard_types.h"

bool utf8guard_nfc_segment_stable(const u8 *buf, size_t len);

#endif /* UTF8GUARD_NFC_H */
