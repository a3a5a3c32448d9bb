/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How the vector validators get the vector registers where they run, one
 * of the two places where the kernel and userspace differ for them (the
 * other is utf8guard_cpu.h, which instruction sets the CPU and the OS
 * offer; utf8guard_types.h is that place for the rest of the core).
 *
 * Kernel: kernel_fpu_begin()/kernel_fpu_end(), only when irq_fpu_usable()
 * (never in NMI, and not in a hard interrupt that came during another
 * kernel FPU section).  Userspace: the registers are always there.
 *
 * Only included by utf8guard_vector.c.
 */
#ifndef UTF8GUARD_VECTOR_ENV_H
#define UTF8GUARD_VECTOR_ENV_H

#ifdef __KERNEL__
#include <linux/preempt.h>
#include <asm/fpu/api.h>

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
static inline bool vector_env_begin(void)
{
	return true;
}

static inline void vector_env_end(void)
{
}
#endif

#endif /* UTF8GUARD_VECTOR_ENV_H */
