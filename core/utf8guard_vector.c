// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard vector validators: SSE4.1, AVX2 and AVX-512 (x86-64 only).
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl, like the
 * rest of the core.  No intrinsics header: GCC and Clang vector
 * extensions and the x86 builtins both compilers share, in functions
 * with their own target attribute, so the rest of the module keeps the
 * kernel's no-SIMD flags.  In the kernel they only ever run between
 * kernel_fpu_begin() and kernel_fpu_end() (utf8guard_vector_env.h); which one
 * runs, and from what length, is utf8guard_vector_prefix()'s choice.
 */
#include "utf8guard_vector.h"
#include "utf8guard_vector_env.h"

#ifdef UTF8GUARD_HAVE_VECTOR

/* Error bits of the lookup tables (utf8guard_vector_body.h). */
#define TOO_SHORT	(1 << 0)	/* 11______ 0_______ or 11______ 11______ */
#define TOO_LONG	(1 << 1)	/* 0_______ 10______ */
#define OVERLONG_3	(1 << 2)	/* 11100000 100_____ */
#define TOO_LARGE	(1 << 3)	/* 11110100 1001____, 11110101+ 1001____ and 101_____ */
#define SURROGATE	(1 << 4)	/* 11101101 101_____ */
#define OVERLONG_2	(1 << 5)	/* 1100000_ 10______ */
#define TOO_LARGE_1000	(1 << 6)	/* 11110101+ 1000____ */
#define OVERLONG_4	(1 << 6)	/* 11110000 1000____ */
#define TWO_CONTS	(1 << 7)	/* 10______ 10______ */
/* Errors that depend on the first byte's top nibble only. */
#define CARRY		(TOO_SHORT | TOO_LONG | TWO_CONTS)

/* Vector types of the x86 builtins, for casts. */
#define CHARS_128 char __attribute__((vector_size(16)))
#define QUADS_128 long long __attribute__((vector_size(16)))
#define CHARS_256 char __attribute__((vector_size(32)))
#define QUADS_256 long long __attribute__((vector_size(32)))
#define CHARS_512 char __attribute__((vector_size(64)))

/*
 * The lookup tables, by the nibble they are indexed with: the first
 * byte's high and low nibble, and the second byte's high nibble.  A pair
 * of bytes is in error when the three entries share a bit.
 */
static const u8 byte_1_high[UTF8GUARD_VECTOR_TABLE] = {
	/* 0_______ ________: ASCII first */
	TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
	TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
	/* 10______ ________: continuation first */
	TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
	/* 1100____ ________ */
	TOO_SHORT | OVERLONG_2,
	/* 1101____ ________ */
	TOO_SHORT,
	/* 1110____ ________ */
	TOO_SHORT | OVERLONG_3 | SURROGATE,
	/* 1111____ ________ */
	TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
};

static const u8 byte_1_low[UTF8GUARD_VECTOR_TABLE] = {
	/* ____0000 ________ */
	CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
	/* ____0001 ________ */
	CARRY | OVERLONG_2,
	/* ____001_ ________ */
	CARRY,
	CARRY,
	/* ____0100 ________ */
	CARRY | TOO_LARGE,
	/* ____0101 ________ */
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	/* ____011_ ________ */
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	/* ____1___ ________ */
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	/* ____1101 ________ */
	CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
	CARRY | TOO_LARGE | TOO_LARGE_1000,
};

static const u8 byte_2_high[UTF8GUARD_VECTOR_TABLE] = {
	/* ________ 0_______: ASCII second */
	TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
	TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
	/* ________ 1000____ */
	TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 |
	OVERLONG_4,
	/* ________ 1001____ */
	TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
	/* ________ 101_____ */
	TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
	TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
	/* ________ 11______: a lead second */
	TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
};
/*
 * Unsigned saturating subtraction: GCC's psubusb builtins; Clang has none
 * before version 15 (the fuzzer's build), so a compare and a subtraction.
 */
#ifdef __clang__
#define SUB_SAT(type, bits, a, b) ((type)((a) > (b)) & ((a) - (b)))
#else
#define SUB_SAT(type, bits, a, b) ((type)__builtin_ia32_psubusb##bits( \
	(CHARS_##bits)(a), (CHARS_##bits)(b)))
#endif

/* SSE4.1 (pshufb is SSSE3, ptest SSE4.1). */
#define VEC_BYTES	16
#define VEC_PER_SPAN	4
#define VEC_TARGET	"sse4.1"
#define VEC_NAME(x)	utf8guard_sse41_##x
#define VEC_LOOKUP(table, index) ((utf8guard_sse41_vec) \
	__builtin_ia32_pshufb128((CHARS_128)(table), \
				 (CHARS_128)(index)))
#define VEC_NONZERO(x)	(!__builtin_ia32_ptestz128((QUADS_128)(x), \
						   (QUADS_128)(x)))
#define VEC_HIGH_BITS(x) __builtin_ia32_pmovmskb128((CHARS_128)(x))
#define VEC_SUB_SAT(a, b) SUB_SAT(utf8guard_sse41_vec, 128, a, b)
#include "utf8guard_vector_body.h"

/* AVX2: the same on 32 bytes. */
#define VEC_BYTES	32
#define VEC_PER_SPAN	2	/* 4 spilled registers: slower */
#define VEC_TARGET	"avx2"
#define VEC_NAME(x)	utf8guard_avx2_##x
#define VEC_LOOKUP(table, index) ((utf8guard_avx2_vec) \
	__builtin_ia32_pshufb256((CHARS_256)(table), \
				 (CHARS_256)(index)))
#define VEC_NONZERO(x)	(!__builtin_ia32_ptestz256((QUADS_256)(x), \
						   (QUADS_256)(x)))
#define VEC_HIGH_BITS(x) __builtin_ia32_pmovmskb256((CHARS_256)(x))
#define VEC_SUB_SAT(a, b) SUB_SAT(utf8guard_avx2_vec, 256, a, b)
#include "utf8guard_vector_body.h"

/*
 * AVX-512 (AVX512BW: byte operations on 64 bytes): one vector per block,
 * byte tests into mask registers.  GCC's byte shuffle and saturating
 * subtraction builtins take a merge source and a mask, Clang's do not.
 */
#define VEC_BYTES	64
#define VEC_PER_SPAN	4
#define VEC_TARGET	"avx512f,avx512bw,avx512vbmi"
#define VEC_NAME(x)	utf8guard_avx512_##x
static const CHARS_512 no_bytes_512;
#ifdef __clang__
#define VEC_LOOKUP(table, index) ((utf8guard_avx512_vec) \
	__builtin_ia32_pshufb512((CHARS_512)(table), (CHARS_512)(index)))
#define VEC_PERMUTE(table, index) ((utf8guard_avx512_vec) \
	__builtin_ia32_permvarqi512((CHARS_512)(table), (CHARS_512)(index)))
#define VEC_SUB_SAT(a, b) ((utf8guard_avx512_vec)((a) > (b)) & ((a) - (b)))
#else
#define VEC_LOOKUP(table, index) ((utf8guard_avx512_vec) \
	__builtin_ia32_pshufb512_mask((CHARS_512)(table), \
				      (CHARS_512)(index), \
				      no_bytes_512, ~0ULL))
#define VEC_PERMUTE(table, index) ((utf8guard_avx512_vec) \
	__builtin_ia32_permvarqi512_mask((CHARS_512)(table), \
					 (CHARS_512)(index), \
					 no_bytes_512, ~0ULL))
#define VEC_SUB_SAT(a, b) ((utf8guard_avx512_vec) \
	__builtin_ia32_psubusb512_mask((CHARS_512)(a), (CHARS_512)(b), \
				       no_bytes_512, ~0ULL))
#endif
/* vpcmpb with predicate 4, "not equal" (to 0). */
#define VEC_NONZERO(x)	(__builtin_ia32_cmpb512_mask((CHARS_512)(x), \
						     no_bytes_512, 4, \
						     ~0ULL) != 0)
#define VEC_HIGH_BITS(x) __builtin_ia32_cvtb2mask512((CHARS_512)(x))
#include "utf8guard_vector_body.h"

#endif /* UTF8GUARD_HAVE_VECTOR */

static const char *const isa_names[UTF8GUARD_VECTOR_ISA_COUNT] = {
	[UTF8GUARD_VECTOR_SCALAR] = "scalar",
	[UTF8GUARD_VECTOR_SSE41] = "sse4.1",
	[UTF8GUARD_VECTOR_AVX2] = "avx2",
	[UTF8GUARD_VECTOR_AVX512] = "avx512",
};

/* The choice: -1 until made, then an enum utf8guard_vector_isa. */
static int chosen_isa = -1;
static size_t chosen_min_length = UTF8GUARD_VECTOR_MIN_LENGTH;

/**
 * utf8guard_vector_isa_name() - the name of an instruction set
 * @isa: one of enum utf8guard_vector_isa
 *
 * Return: "scalar", "sse4.1", "avx2" or "avx512"; "?" for anything else.
 */
const char *utf8guard_vector_isa_name(unsigned int isa)
{
	return isa < UTF8GUARD_VECTOR_ISA_COUNT ? isa_names[isa] : "?";
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_isa_name);

/**
 * utf8guard_vector_available() - may this instruction set run here
 * @isa: one of enum utf8guard_vector_isa
 *
 * Return: true if the CPU has @isa and the OS saves its registers (always
 * true for UTF8GUARD_VECTOR_SCALAR).
 */
bool utf8guard_vector_available(unsigned int isa)
{
	switch (isa) {
	case UTF8GUARD_VECTOR_SCALAR:
		return true;
#ifdef UTF8GUARD_HAVE_VECTOR
	case UTF8GUARD_VECTOR_SSE41:
		return utf8guard_cpu_has_sse41();
	case UTF8GUARD_VECTOR_AVX2:
		return utf8guard_cpu_has_avx2();
	case UTF8GUARD_VECTOR_AVX512:
		return utf8guard_cpu_has_avx512();
#endif
	default:
		return false;
	}
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_available);

/**
 * utf8guard_vector_best() - the fastest instruction set available here
 *
 * Return: one of enum utf8guard_vector_isa.
 */
unsigned int utf8guard_vector_best(void)
{
	unsigned int isa = UTF8GUARD_VECTOR_ISA_COUNT - 1;

	while (!utf8guard_vector_available(isa))
		isa--;
	return isa;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_best);

/**
 * utf8guard_vector_use() - change the path while the core may be running
 * @isa: one of enum utf8guard_vector_isa
 *
 * For the administrator's choice (the validator file in sysfs).  Only the
 * instruction set changes, in one atomic store; a validation running
 * meanwhile finishes on the path it read.  Every path gives the same
 * reports, so no verdict depends on the choice.
 *
 * Return: false, changing nothing, if @isa cannot run here.
 */
bool utf8guard_vector_use(unsigned int isa)
{
	if (!utf8guard_vector_available(isa))
		return false;
	__atomic_store_n(&chosen_isa, (int)isa, __ATOMIC_RELAXED);
	return true;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_use);

/**
 * utf8guard_vector_select() - choose the path the core takes
 * @isa: one of enum utf8guard_vector_isa
 * @min_length: buffers shorter than this take the scalar path
 *
 * For tests and benchmarks, which run every path; the default is
 * utf8guard_vector_best() from UTF8GUARD_VECTOR_MIN_LENGTH bytes.  Not
 * for use while the core is running elsewhere.
 *
 * Return: false, changing nothing, if @isa cannot run here.
 */
bool utf8guard_vector_select(unsigned int isa, size_t min_length)
{
	if (!utf8guard_vector_use(isa))
		return false;
	chosen_min_length = min_length;
	return true;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_select);

/**
 * utf8guard_vector_selected() - the path the core takes
 *
 * Return: one of enum utf8guard_vector_isa; utf8guard_vector_best() until
 * utf8guard_vector_select() chose another.
 */
unsigned int utf8guard_vector_selected(void)
{
	int isa = __atomic_load_n(&chosen_isa, __ATOMIC_RELAXED);

	if (isa < 0) {
		/* Every caller that gets here computes the same answer. */
		isa = (int)utf8guard_vector_best();
		__atomic_store_n(&chosen_isa, isa, __ATOMIC_RELAXED);
	}
	return (unsigned int)isa;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_selected);

/**
 * utf8guard_vector_prefix() - the vector part of the core's fast path
 * @buf: bytes, starting at a character boundary
 * @len: number of bytes at @buf
 *
 * Runs the selected vector validator over @buf in chunks of
 * UTF8GUARD_VECTOR_CHUNK bytes, each in its own vector section (in the
 * kernel, kernel_fpu_begin() disables preemption: the chunks bound how
 * long) unless the caller holds one (utf8guard_vector_hold()), and stops
 * at the first chunk that holds an error.
 *
 * Return: a character boundary B such that @buf[0..B) is well-formed:
 * @len if all of @buf is; 0 when the scalar path is selected, @buf is
 * shorter than the selected minimum or the vector registers cannot be
 * used here.  The caller validates @buf[B..@len) with the scalar path.
 */
size_t utf8guard_vector_prefix(const u8 *buf, size_t len)
{
	unsigned int isa;
	size_t done = 0;
#ifdef UTF8GUARD_HAVE_VECTOR
	bool held;
#endif

	if (len < chosen_min_length)
		return 0;
	isa = utf8guard_vector_selected();
	if (isa == UTF8GUARD_VECTOR_SCALAR)
		return 0;
#ifdef UTF8GUARD_HAVE_VECTOR
	held = vector_env_held();
	while (done < len) {
		size_t end = len - done < UTF8GUARD_VECTOR_CHUNK ?
			     len : done + UTF8GUARD_VECTOR_CHUNK;
		bool final = end == len;
		bool clean;

		if (!held && !vector_env_begin())
			break;
		/* A chunk after the first reads the bytes before it in place. */
		if (isa == UTF8GUARD_VECTOR_AVX512)
			done = utf8guard_avx512_prefix(buf, done, end, final,
						       &clean);
		else if (isa == UTF8GUARD_VECTOR_AVX2)
			done = utf8guard_avx2_prefix(buf, done, end, final,
						     &clean);
		else
			done = utf8guard_sse41_prefix(buf, done, end, final,
						      &clean);
		if (!held)
			vector_env_end();
		if (!clean || final)
			break;
	}
#endif
	return done;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_vector_prefix);

/**
 * utf8guard_vector_hold() - one vector section for several calls
 *
 * A caller that validates one text in several pieces (the page fragments
 * of a packet) takes the vector registers once, here, instead of once
 * per piece and per UTF8GUARD_VECTOR_CHUNK bytes.  Between this and
 * utf8guard_vector_release() it calls only the core's functions, from
 * the same context, and holds the section no longer than it would hold
 * a spinlock: preemption is off (and, on some kernels, bottom halves).
 * An interrupt that comes meanwhile takes the scalar path.
 *
 * Context: any context but NMI; does not sleep.
 * Return: true if the section is held: call utf8guard_vector_release();
 * false if the vector registers cannot be used here or are in use (the
 * core then takes the scalar path, or sections of its own).
 */
bool utf8guard_vector_hold(void)
{
	if (utf8guard_vector_selected() == UTF8GUARD_VECTOR_SCALAR)
		return false;
	return vector_env_hold();
}
UTF8GUARD_EXPORT(utf8guard_vector_hold);

/**
 * utf8guard_vector_release() - end a section utf8guard_vector_hold() took
 *
 * Context: the context, and so the CPU, that took it.
 */
void utf8guard_vector_release(void)
{
	vector_env_release();
}
UTF8GUARD_EXPORT(utf8guard_vector_release);
