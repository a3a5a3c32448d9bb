/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The benchmark's byte-at-a-time baseline over the core's DFA table. */
#ifndef UTF8GUARD_BENCH_CORE_BYTEWISE_H
#define UTF8GUARD_BENCH_CORE_BYTEWISE_H

#include "utf8guard_types.h"

bool core_bytewise_valid(const u8 *buf, size_t len);

#endif /* UTF8GUARD_BENCH_CORE_BYTEWISE_H */
