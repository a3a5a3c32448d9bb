/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Type shim for the shared validator core.
 *
 * The core (core/: the validator, the policy words and judging) is
 * compiled verbatim into the kernel module and into the userspace CLI.
 * This header is the only place where the two worlds differ (but for the
 * vector paths' utf8guard_cpu.h and utf8guard_vector_env.h): it provides
 * u8/u16/u32/u64, bool, size_t, UTF8GUARD_EXPORT() (EXPORT_SYMBOL_GPL
 * in the kernel, nothing in userspace) and UTF8GUARD_EXPORT_FOR_KUNIT()
 * (EXPORT_SYMBOL_IF_KUNIT), and nothing else.  The core uses no libc and no other kernel header.
 */
#ifndef UTF8GUARD_TYPES_H
#define UTF8GUARD_TYPES_H

#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/types.h>
#include <kunit/visibility.h>
/* The core marks its API with this; the module exports it. */
#define UTF8GUARD_EXPORT(symbol) EXPORT_SYMBOL_GPL(symbol)
/* ... and what only its KUnit suites call (with CONFIG_KUNIT). */
#define UTF8GUARD_EXPORT_FOR_KUNIT(symbol) EXPORT_SYMBOL_IF_KUNIT(symbol)
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define UTF8GUARD_EXPORT(symbol)
#define UTF8GUARD_EXPORT_FOR_KUNIT(symbol)
#endif

#endif /* UTF8GUARD_TYPES_H */
