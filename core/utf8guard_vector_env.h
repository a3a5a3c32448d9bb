/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How the vector validators get the vector registers where they run, one
 * of the two places where the kernel and userspace differ for them (the
 * other is utf8guard_cpu.h, which instruction sets the CPU and the OS
 * offer; utf8guard_types.h is that place for the rest of the core).
 *
 * Kernel: kernel_fpu_begin()/kernel_fpu_end(), only when irq_fpu_usable()
 * (never in NMI, and not in a hard interrupt that came during another
 * kernel FPU section), or one section a caller holds across several
 * calls (utf8guard_vector_hold()).  Userspace: the registers are always
 * there.
 *
 * Only included by utf8guard_vector.c.
 */
#ifndef UTF8GUARD_VECTOR_ENV_H
#define UTF8GUARD_VECTOR_ENV_H

#ifdef __KERNEL__
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <asm/fpu/api.h>

/*
 * A held section: the context holding it on this CPU, as the bits of
 * preempt_count() that tell apart contexts which can interrupt one
 * another (task, serving a softirq, hard interrupt, NMI), or
 * VECTOR_NOT_HELD.  A section disables preemption, so while it is held
 * only its holder and what interrupts the holder run on the CPU, and an
 * interrupt's bits are never its holder's.  PREEMPT_RT serves softirqs
 * in tasks, never in an interrupt's exit, so the task bits are enough
 * there.
 */
#define VECTOR_CONTEXT_BITS	(NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)
#define VECTOR_NOT_HELD		UINT_MAX

static DEFINE_PER_CPU(unsigned int, vector_holder) = VECTOR_NOT_HELD;

static inline unsigned int vector_context(void)
{
	return preempt_count() & VECTOR_CONTEXT_BITS;
}

/* Whether this context holds a section on this CPU: begin nothing. */
static inline bool vector_env_held(void)
{
	return this_cpu_read(vector_holder) == vector_context();
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

static inline bool vector_env_hold(void)
{
	if (!vector_env_begin())
		return false;
	this_cpu_write(vector_holder, vector_context());
	return true;
}

static inline void vector_env_release(void)
{
	this_cpu_write(vector_holder, VECTOR_NOT_HELD);
	vector_env_end();
}
#else
static inline bool vector_env_held(void)
{
	return false;
}

static inline bool vector_env_begin(void)
{
	return true;
}

static inline void vector_env_end(void)
{
}

/* Userspace has nothing to save: no section to hold. */
static inline bool vector_env_hold(void)
{
	return false;
}

static inline void vector_env_release(void)
{
}
#endif

#endif /* UTF8GUARD_VECTOR_ENV_H */
