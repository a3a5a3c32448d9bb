// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard validator core: the fast path.  The scalar path is a
 * shift-based DFA (utf8guard_dfa.h); the vector validators
 * (utf8guard_vector.c), when they run, go first.
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl; see
 * utf8guard_core.h for the report semantics.
 */
#include "utf8guard_core.h"
#include "utf8guard_cpu.h"
#include "utf8guard_dfa.h"
#include "utf8guard_scalar.h"

const u64 utf8guard_dfa_row[256] = {
	[0x00 ... 0x7F] = DFA_LEAD(DFA_ACCEPT),
	[0x80 ... 0x8F] = DFA_TAILS | DFA_GOES(DFA_AFTER_ED, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F4, DFA_TAIL2),
	[0x90 ... 0x9F] = DFA_TAILS | DFA_GOES(DFA_AFTER_ED, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F0, DFA_TAIL2),
	[0xA0 ... 0xBF] = DFA_TAILS | DFA_GOES(DFA_AFTER_E0, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F0, DFA_TAIL2),
	[0xC0 ... 0xC1] = 0,
	[0xC2 ... 0xDF] = DFA_LEAD(DFA_TAIL1),
	[0xE0] = DFA_LEAD(DFA_AFTER_E0),
	[0xE1 ... 0xEC] = DFA_LEAD(DFA_TAIL2),
	[0xED] = DFA_LEAD(DFA_AFTER_ED),
	[0xEE ... 0xEF] = DFA_LEAD(DFA_TAIL2),
	[0xF0] = DFA_LEAD(DFA_AFTER_F0),
	[0xF1 ... 0xF3] = DFA_LEAD(DFA_TAIL3),
	[0xF4] = DFA_LEAD(DFA_AFTER_F4),
	[0xF5 ... 0xFF] = 0,
};

/* Bytes the block loop takes at a time: two words. */
#define DFA_BLOCK 16
/*
 * Bytes left from which blocks go in pairs (dfa_block_pair()): below it,
 * as in names, the pair's branches on where a character starts cost more
 * than the second chain saves (measured with make bench).
 */
#define DFA_PAIR_MIN 64
#define HIGH_BITS 0x8080808080808080ULL

static inline u64 load_word(const u8 *p)
{
	u64 word;

	__builtin_memcpy(&word, p, sizeof(word));
	return word;
}

static inline bool block_is_ascii(const u8 *p)
{
	return !((load_word(p) | load_word(p + 8)) & HIGH_BITS);
}

/* Run the DFA over one block; the result is masked, DFA_ERROR is final. */
static inline u64 dfa_block(u64 state, const u8 *p)
{
	unsigned int k;

	/* Unrolled: four instructions a byte, one of them on the chain. */
#pragma GCC unroll 16
	for (k = 0; k < DFA_BLOCK; k++)
		state = utf8guard_dfa_row[p[k]] >> (state & DFA_MASK);
	return state & DFA_MASK;
}

/*
 * Two blocks at once, from a character boundary at @p: the DFA over
 * p[0..16) and, on a second chain that does not wait for the first, over
 * the 16 bytes from the first character start at or after p + 16 (the 0
 * to 3 continuation bytes before it finish the first chain).  Sound
 * because a character start only follows an accepting state: if the
 * first chain does not accept there, the bytes are ill-formed.  Returns
 * the state after the second block (DFA_ERROR for any error) and sets
 * @end to where that is.  Needs 2 * DFA_BLOCK + 3 bytes at @p.
 */
static inline u64 dfa_block_pair(const u8 *p, size_t *end)
{
	const u8 *q = p + DFA_BLOCK;
	u64 first = DFA_ACCEPT, second = DFA_ACCEPT;
	unsigned int k;

	while (is_continuation(*q)) {
		if (q == p + DFA_BLOCK + 3)
			return DFA_ERROR;	/* four in a row */
		q++;
	}
#pragma GCC unroll 16
	for (k = 0; k < DFA_BLOCK; k++) {
		first = utf8guard_dfa_row[p[k]] >> (first & DFA_MASK);
		second = utf8guard_dfa_row[q[k]] >> (second & DFA_MASK);
	}
	for (k = DFA_BLOCK; p + k < q; k++)
		first = utf8guard_dfa_row[p[k]] >> (first & DFA_MASK);
	if ((first & DFA_MASK) != DFA_ACCEPT)
		return DFA_ERROR;
	*end = q - p + DFA_BLOCK;
	return second & DFA_MASK;
}

/*
 * The scalar path: the length of the longest prefix of @buf made of whole
 * well-formed sequences.  Whole blocks of ASCII are skipped a word at a
 * time, other blocks go through the DFA, which is only looked at once per
 * block, two blocks at once from a character boundary while DFA_PAIR_MIN
 * bytes are left; after a pair that fails, one at a time, so that the
 * byte walk starts at most a block before the error.  The byte walk goes
 * on from the DFA's state where the blocks stopped: over the block that
 * failed, or the last, short one, to find the exact end.  Where the
 * blocks stopped is only turned into a character boundary there, once.
 */
/*
 * The DFA's state after the @n bytes at @p (@n < DFA_BLOCK), from @state.
 * At a boundary, a tail of ASCII is tested a word at a time: two words
 * that overlap from 8 bytes on.
 */
static inline u64 tail_state(u64 state, const u8 *p, size_t n)
{
	size_t k;

	if (state == DFA_ACCEPT && n >= 8 &&
	    !((load_word(p) | load_word(p + n - 8)) & HIGH_BITS))
		return DFA_ACCEPT;
	for (k = 0; k < n; k++)
		state = dfa_step(state, p[k]);
	return state;
}

static inline size_t scalar_prefix_body(const u8 *buf, size_t len)
{
	size_t boundary;
	size_t i = 0;
	size_t step;
	bool pairs = true;
	u64 state = DFA_ACCEPT;	/* of the bytes before i */
	u64 next;

	while (len - i >= DFA_BLOCK) {
		if (state == DFA_ACCEPT && block_is_ascii(buf + i)) {
			i += DFA_BLOCK;
			continue;
		}
		if (pairs && state == DFA_ACCEPT && len - i >= DFA_PAIR_MIN) {
			next = dfa_block_pair(buf + i, &step);
			if (next != DFA_ERROR) {
				i += step;
				state = next;
				continue;
			}
			pairs = false;	/* state is still DFA_ACCEPT at i */
		}
		next = dfa_block(state, buf + i);
		if (next == DFA_ERROR)
			break;
		i += DFA_BLOCK;
		state = next;
	}

	/*
	 * The tail under a block, when the loop did not stop at an error:
	 * well-formed as a rule (a filename is often all of it).  Its end
	 * state alone says so, a byte's DFA step or a word of ASCII at a
	 * time; the exact end is looked for only on an error.
	 */
	if (len - i < DFA_BLOCK &&
	    tail_state(state, buf + i, len - i) == DFA_ACCEPT)
		return len;
	/* The DFA accepted all before a sequence that may be unfinished. */
	boundary = state == DFA_ACCEPT ? i : utf8guard_last_char_start(buf, i);
	for (; i < len; i++) {
		state = dfa_step(state, buf[i]);
		if (state == DFA_ERROR)
			break;
		boundary = state == DFA_ACCEPT ? i + 1 : boundary;
	}
	return boundary;
}

/*
 * The scalar path compiled twice.  Each DFA step is a shift by a count
 * that the step before computed: BMI2's shrx is one micro-op on any
 * register, where plain x86-64 moves the count to cl for a shr of two or
 * three.  BMI2 uses no vector register (no kernel_fpu_begin()); the CPU
 * says which runs (utf8guard_scalar_bmi2()).  flatten: the DFA helpers
 * are inlined into each, with its instructions.
 */
__attribute__((flatten))
static size_t scalar_prefix_plain(const u8 *buf, size_t len)
{
	return scalar_prefix_body(buf, len);
}

#ifdef UTF8GUARD_X86_CPU
__attribute__((target("bmi2"), flatten))
static size_t scalar_prefix_bmi2(const u8 *buf, size_t len)
{
	return scalar_prefix_body(buf, len);
}
#endif

static size_t scalar_prefix(const u8 *buf, size_t len)
{
#ifdef UTF8GUARD_X86_CPU
	if (utf8guard_scalar_bmi2())
		return scalar_prefix_bmi2(buf, len);
#endif
	return scalar_prefix_plain(buf, len);
}

/* The scalar path's build: -1 until asked, then 1 for BMI2, 0 without. */
static int scalar_bmi2 = -1;

static bool scalar_bmi2_available(void)
{
#ifdef UTF8GUARD_X86_CPU
	return utf8guard_cpu_has_bmi2();
#else
	return false;
#endif
}

/**
 * utf8guard_scalar_bmi2() - does the scalar path take its BMI2 build
 *
 * Return: true if the scalar path (above), compiled twice,
 * plain x86-64 and with BMI2, takes its BMI2 build: where the CPU has
 * BMI2, unless utf8guard_scalar_use_bmi2() said otherwise.  Both builds
 * give the same results.
 */
bool utf8guard_scalar_bmi2(void)
{
	int state = __atomic_load_n(&scalar_bmi2, __ATOMIC_RELAXED);

	if (state < 0) {
		/* Every caller that gets here computes the same answer. */
		state = scalar_bmi2_available();
		__atomic_store_n(&scalar_bmi2, state, __ATOMIC_RELAXED);
	}
	return state;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_scalar_bmi2);

/**
 * utf8guard_scalar_use_bmi2() - choose the scalar path's build
 * @on: true for the BMI2 build, false for plain x86-64
 *
 * For tests and benchmarks, which run both builds.  Not for use while the
 * core is running elsewhere.
 *
 * Return: false, changing nothing, if @on and the CPU has no BMI2.
 */
bool utf8guard_scalar_use_bmi2(bool on)
{
	if (on && !scalar_bmi2_available())
		return false;
	__atomic_store_n(&scalar_bmi2, (int)on, __ATOMIC_RELAXED);
	return true;
}
UTF8GUARD_EXPORT_FOR_KUNIT(utf8guard_scalar_use_bmi2);


/**
 * utf8guard_valid_prefix() - length of the well-formed start of a buffer
 * @buf: bytes
 * @len: number of bytes at @buf
 *
 * The validator's fast path on its own: how many bytes at the start of
 * @buf are whole well-formed characters.  The vector path
 * (utf8guard_vector_prefix()) goes as far as it sees no error, then the
 * scalar path finds the exact end.
 *
 * Context: any context.
 * Return: @len if @buf is well-formed, else the offset of the first
 * ill-formed (or cut-off) sequence.
 */
size_t utf8guard_valid_prefix(const u8 *buf, size_t len)
{
	size_t done = utf8guard_vector_prefix(buf, len);

	if (done == len)
		return len;
	return done + scalar_prefix(buf + done, len - done);
}
UTF8GUARD_EXPORT(utf8guard_valid_prefix);
