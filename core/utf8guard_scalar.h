/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard validator core, internal: the fast path's two halves.  The
 * scalar path (utf8guard_scalar.c) finishes what the vector path, when
 * one runs, leaves: utf8guard_vector_prefix() is its one entry, which
 * utf8guard_vector.c defines; the core needs nothing else from it.
 */
#ifndef UTF8GUARD_SCALAR_H
#define UTF8GUARD_SCALAR_H

#include "utf8guard_types.h"

size_t utf8guard_vector_prefix(const u8 *buf, size_t len);

bool utf8guard_scalar_bmi2(void);
bool utf8guard_scalar_use_bmi2(bool on);

#endif /* UTF8GUARD_SCALAR_H */
