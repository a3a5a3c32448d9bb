/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard vector validators (internal to the core).
 *
 * utf8guard_vector_prefix() (utf8guard_scalar.h) is what the core's fast
 * path calls; the per-instruction-set validators below only say where a
 * block holds an error, the scalar core reports it.
 */
#ifndef UTF8GUARD_VECTOR_H
#define UTF8GUARD_VECTOR_H

#include "utf8guard_core.h"
#include "utf8guard_cpu.h"
#include "utf8guard_scalar.h"

/* The x86-64 builds (utf8guard_cpu.h) have the vector validators. */
#ifdef UTF8GUARD_X86_CPU
#define UTF8GUARD_HAVE_VECTOR 1
#endif

/* The vector validators look at 64 bytes at a time. */
#define UTF8GUARD_VECTOR_BLOCK 64
/* Entries of a pshufb lookup table. */
#define UTF8GUARD_VECTOR_TABLE 16
/* Bytes per vector section (kernel: per kernel_fpu_begin()). */
#define UTF8GUARD_VECTOR_CHUNK 4096

/*
 * Shorter buffers take the scalar path, which is faster there.  In the
 * kernel, the first kernel_fpu_begin() after a return from userspace also
 * saves the task's vector registers.
 */
#ifdef __KERNEL__
#define UTF8GUARD_VECTOR_MIN_LENGTH 256
#else
#define UTF8GUARD_VECTOR_MIN_LENGTH 128
#endif

/*
 * The character boundary at or before @i in @buf, where @buf[@start..@i)
 * is well-formed but for a sequence the end may cut, and @start is a
 * boundary: @i itself if it is @start.
 */
static inline size_t utf8guard_boundary_before(const u8 *buf, size_t start,
						size_t i)
{
	return i == start ? i : utf8guard_last_char_start(buf, i);
}

/* The paths, slowest first. */
enum utf8guard_vector_isa {
	UTF8GUARD_VECTOR_SCALAR,
	UTF8GUARD_VECTOR_SSE41,
	UTF8GUARD_VECTOR_AVX2,
	UTF8GUARD_VECTOR_AVX512,
	UTF8GUARD_VECTOR_ISA_COUNT,
};

/* utf8guard_parse_validator()'s "auto": utf8guard_vector_best(). */
#define UTF8GUARD_VECTOR_AUTO UTF8GUARD_VECTOR_ISA_COUNT

const char *utf8guard_vector_isa_name(unsigned int isa);
bool utf8guard_vector_available(unsigned int isa);
unsigned int utf8guard_vector_best(void);
bool utf8guard_vector_select(unsigned int isa, size_t min_length);
bool utf8guard_vector_use(unsigned int isa);
unsigned int utf8guard_vector_selected(void);

size_t utf8guard_sse41_prefix(const u8 *buf, size_t start, size_t len,
			      bool final, bool *clean);
size_t utf8guard_avx2_prefix(const u8 *buf, size_t start, size_t len,
			     bool final, bool *clean);
size_t utf8guard_avx512_prefix(const u8 *buf, size_t start, size_t len,
			       bool final, bool *clean);

#endif /* UTF8GUARD_VECTOR_H */
