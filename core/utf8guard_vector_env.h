/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the vector validators (and the scalar path's BMI2 build) need from
 * where they run, the one place where the kernel and userspace differ for
 * them (as utf8guard_types.h is for the rest of the core): which
 * instruction sets the CPU and the OS offer, and how to get the vector
 * registers.
 *
 * Kernel: boot_cpu_has() and the xfeatures the kernel enabled;
 * kernel_fpu_begin()/kernel_fpu_end(), only when irq_fpu_usable() (never
 * in NMI, and not in a hard interrupt that came during another kernel
 * FPU section).  Userspace: GCC/Clang's cpuid cache (which checks that
 * the OS saves the AVX state); the registers are always there.
 *
 * Only included by utf8guard_vector.c, and only on x86-64.
 */
#ifndef UTF8GUARD_VECTOR_ENV_H
#define UTF8GUARD_VECTOR_ENV_H

#ifdef __KERNEL__
#include <linux/preempt.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>

static inline bool vector_env_has_sse41(void)
{
	return boot_cpu_has(X86_FEATURE_XMM4_1);
}

static inline bool vector_env_has_avx2(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       boot_cpu_has(X86_FEATURE_AVX2) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

/* AVX512BW, and the OS saves the mask and upper ZMM registers. */
static inline bool vector_env_has_avx512(void)
{
	return vector_env_has_avx2() &&
	       boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       boot_cpu_has(X86_FEATURE_AVX512VBMI) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				 XFEATURE_MASK_AVX512, NULL);
}

/* BMI2 (shrx), for the scalar path: general registers only. */
static inline bool vector_env_has_bmi2(void)
{
	return boot_cpu_has(X86_FEATURE_BMI2);
}

/* false: use the scalar path this time. */
static inline bool vector_env_begin(void)
{
	if (in_nmi() || !irq_fpu_usable())
		return false;
	kernel_fpu_begin();
	return true;
}

static inline void vector_env_end(void)
{
	kernel_fpu_end();
}
#else
static inline bool vector_env_has_sse41(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.1");
}

static inline bool vector_env_has_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

static inline bool vector_env_has_avx512(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi");
}

static inline bool vector_env_has_bmi2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("bmi2");
}

static inline bool vector_env_begin(void)
{
	return true;
}

static inline void vector_env_end(void)
{
}
#endif

#endif /* UTF8GUARD_VECTOR_ENV_H */
