/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Which instruction sets the CPU and the OS offer, for the vector
 * validators (utf8guard_vector.c) and the scalar path's BMI2 build
 * (utf8guard_scalar.c): one of the two places where the kernel and
 * userspace differ for them (the other is utf8guard_vector_env.h).
 *
 * Kernel: boot_cpu_has() and the xfeatures the kernel enabled.
 * Userspace: GCC/Clang's cpuid cache (which checks that the OS saves the
 * AVX state).
 *
 * UTF8GUARD_X86_CPU: x86-64 with GCC or Clang (the x86 builtins, vector
 * extensions and target attributes); not under sparse, which knows
 * none of them: it checks the rest.  Elsewhere only the plain scalar
 * path is built.
 */
#ifndef UTF8GUARD_CPU_H
#define UTF8GUARD_CPU_H

#include "utf8guard_types.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CHECKER__)
#define UTF8GUARD_X86_CPU 1

#ifdef __KERNEL__
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>

static inline bool utf8guard_cpu_has_sse41(void)
{
	return boot_cpu_has(X86_FEATURE_XMM4_1);
}

static inline bool utf8guard_cpu_has_avx2(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       boot_cpu_has(X86_FEATURE_AVX2) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

/* AVX512BW, and the OS saves the mask and upper ZMM registers. */
static inline bool utf8guard_cpu_has_avx512(void)
{
	return utf8guard_cpu_has_avx2() &&
	       boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       boot_cpu_has(X86_FEATURE_AVX512VBMI) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				 XFEATURE_MASK_AVX512, NULL);
}

/* BMI2 (shrx), for the scalar path: general registers only. */
static inline bool utf8guard_cpu_has_bmi2(void)
{
	return boot_cpu_has(X86_FEATURE_BMI2);
}

#else
static inline bool utf8guard_cpu_has_sse41(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.1");
}

static inline bool utf8guard_cpu_has_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

static inline bool utf8guard_cpu_has_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi");
}

static inline bool utf8guard_cpu_has_bmi2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("bmi2");
}

#endif /* __KERNEL__ */

#endif /* x86-64 */

#endif /* UTF8GUARD_CPU_H */
