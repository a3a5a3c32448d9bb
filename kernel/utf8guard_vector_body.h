/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One vector validator, included once per instruction set by
 * utf8guard_vector.c with these defined (and undefined at the end):
 *
 *	VEC_BYTES	bytes in a vector: 16 (SSE4.1), 32 (AVX2) or 64 (AVX-512)
 *	VEC_TARGET	the target attribute string, e.g. "avx2"
 *	VEC_NAME(x)	prefixes x with the instruction set's name
 *	VEC_LOOKUP(table, index)	pshufb: table[index] in each 16-byte lane
 *	VEC_NONZERO(x)	true if any byte of x is not 0 (ptest; x is
 *			evaluated twice)
 *	VEC_HIGH_BITS(x)	the bytes' top bits as an int (pmovmskb)
 *	VEC_SUB_SAT(a, b)	a - b in each byte, 0 if below (psubusb)
 *
 * The algorithm is "lookup4" by Keiser and Lemire, "Validating UTF-8 In
 * Less Than One Instruction Per Byte" (Software: Practice and Experience,
 * 2021), as in simdjson and simdutf: three 16-entry table lookups on the
 * nibbles of each byte and of the byte before it find every error in a
 * pair of bytes (the tables are in utf8guard_vector.c); a saturating
 * subtraction finds the bytes that must be the third or fourth of a
 * sequence, which the tables count as a misplaced continuation.  Where
 * simdutf shifts the previous vector in (palignr), this reads the bytes
 * before from memory again: every block is preceded by readable bytes,
 * the real ones or NULs (utf8guard_vector.c sees to it).
 *
 * It only says whether a block holds an error: the exact report always
 * comes from the scalar core, which takes over at the character boundary
 * before the block.
 */

typedef u8 VEC_NAME(vec) __attribute__((vector_size(VEC_BYTES)));

#define VEC_PER_BLOCK (UTF8GUARD_VECTOR_BLOCK / VEC_BYTES)
/* Bytes per test of the accumulated errors while none is seen. */
#define VEC_GROUP (4 * UTF8GUARD_VECTOR_BLOCK)

static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(load)(const u8 *p)
{
	VEC_NAME(vec) v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(splat)(u8 byte)
{
	const VEC_NAME(vec) zero = { 0 };

	return zero + byte;
}

/* A 16-entry table in every 16-byte lane. */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(table)(const u8 *table)
{
	VEC_NAME(vec) v;
	unsigned int k;

	for (k = 0; k < VEC_BYTES; k += UTF8GUARD_VECTOR_TABLE)
		__builtin_memcpy((u8 *)&v + k, table, UTF8GUARD_VECTOR_TABLE);
	return v;
}

/*
 * The errors of the vector at @p.  A byte two or three after a 3- or
 * 4-byte lead must be a continuation: the tables give such a byte
 * TWO_CONTS, which must23 (0x80) cancels; anywhere else TWO_CONTS stays,
 * and a missing continuation shows as 0x80.
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(errors)(const u8 *p, VEC_NAME(vec) input)
{
	VEC_NAME(vec) prev1 = VEC_NAME(load)(p - 1);
	VEC_NAME(vec) prev2 = VEC_NAME(load)(p - 2);
	VEC_NAME(vec) prev3 = VEC_NAME(load)(p - 3);
	/* Only E0..FF stay at 0x80 or above, and F0..FF for the fourth. */
	VEC_NAME(vec) third = VEC_SUB_SAT(prev2, VEC_NAME(splat)(0xE0 - 0x80));
	VEC_NAME(vec) fourth = VEC_SUB_SAT(prev3, VEC_NAME(splat)(0xF0 - 0x80));
	VEC_NAME(vec) must23 = (third | fourth) & 0x80;
	VEC_NAME(vec) special =
		VEC_LOOKUP(VEC_NAME(table)(byte_1_high), prev1 >> 4) &
		VEC_LOOKUP(VEC_NAME(table)(byte_1_low), prev1 & 0x0F) &
		VEC_LOOKUP(VEC_NAME(table)(byte_2_high), input >> 4);

	return must23 ^ special;
}

/* Nonzero where a sequence started in the vector at @p is not over. */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(incomplete)(const u8 *p)
{
	VEC_NAME(vec) last = VEC_NAME(splat)(0xFF);

	/* Above these, a lead wants more bytes than the vector has left. */
	last[VEC_BYTES - 3] = 0xF0 - 1;
	last[VEC_BYTES - 2] = 0xE0 - 1;
	last[VEC_BYTES - 1] = 0xC0 - 1;
	return VEC_SUB_SAT(VEC_NAME(load)(p), last);
}

/*
 * The errors of the 64-byte block at @p; 3 readable bytes before it
 * (VEC_BYTES for an ASCII block).
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(block)(const u8 *p)
{
	VEC_NAME(vec) in[VEC_PER_BLOCK];
	VEC_NAME(vec) any = { 0 };
	VEC_NAME(vec) error = { 0 };
	unsigned int k;

	/* Unrolled, so that in[] stays in registers. */
#pragma GCC unroll 4
	for (k = 0; k < VEC_PER_BLOCK; k++) {
		in[k] = VEC_NAME(load)(p + k * VEC_BYTES);
		any |= in[k];
	}
	/* ASCII: fine unless a sequence was left open before it. */
	if (!VEC_HIGH_BITS(any))
		return VEC_NAME(incomplete)(p - VEC_BYTES);
#pragma GCC unroll 4
	for (k = 0; k < VEC_PER_BLOCK; k++)
		error |= VEC_NAME(errors)(p + k * VEC_BYTES, in[k]);
	return error;
}

/* True if the 64-byte block at @p holds an error. */
static inline __attribute__((target(VEC_TARGET)))
bool VEC_NAME(block_bad)(const u8 *p)
{
	return VEC_NONZERO(VEC_NAME(block)(p));
}

/*
 * True if the VEC_GROUP bytes at @p hold an error: one test for several
 * blocks, which the single blocks then narrow down.
 */
static inline __attribute__((target(VEC_TARGET)))
bool VEC_NAME(group_bad)(const u8 *p)
{
	VEC_NAME(vec) error = { 0 };
	unsigned int k;

#pragma GCC unroll 4
	for (k = 0; k < VEC_GROUP; k += UTF8GUARD_VECTOR_BLOCK)
		error |= VEC_NAME(block)(p + k);
	return VEC_NONZERO(error);
}

/**
 * VEC_NAME(prefix)() - the vector validator of one instruction set
 * @buf: bytes, starting at a character boundary
 * @len: number of bytes at @buf
 * @final: @buf ends where the input ends (else more may follow)
 * @clean: set to true if no ill-formed sequence was seen
 *
 * Return: a character boundary B such that @buf[0..B) is well-formed.
 * If *@clean, B is @len when @final, else the end of the last whole
 * 64-byte block or the start of the sequence it leaves open.  Otherwise
 * B is the boundary before the 64-byte block where an error was seen:
 * the scalar core finds it exactly from there.
 */
/* flatten: every helper above inlined into the loop, whatever the flags. */
__attribute__((target(VEC_TARGET), flatten))
size_t VEC_NAME(prefix)(const u8 *buf, size_t len, bool final, bool *clean)
{
	/* A block with the VEC_BYTES before it: at the start, and the end. */
	u8 edge[VEC_BYTES + UTF8GUARD_VECTOR_BLOCK];
	size_t i = 0;

	*clean = false;
	if (len >= UTF8GUARD_VECTOR_BLOCK) {
		/* NULs before the first block: a boundary, as @buf starts. */
		__builtin_memset(edge, 0, VEC_BYTES);
		__builtin_memcpy(edge + VEC_BYTES, buf, UTF8GUARD_VECTOR_BLOCK);
		if (VEC_NAME(block_bad)(edge + VEC_BYTES))
			return 0;
		i = UTF8GUARD_VECTOR_BLOCK;
	}
	/* After a group with an error, the blocks one by one find it. */
	while (len - i >= VEC_GROUP && !VEC_NAME(group_bad)(buf + i))
		i += VEC_GROUP;
	for (; len - i >= UTF8GUARD_VECTOR_BLOCK; i += UTF8GUARD_VECTOR_BLOCK)
		if (VEC_NAME(block_bad)(buf + i))
			return utf8guard_last_char_start(buf, i);
	if (!final) {
		*clean = true;
		if (i && VEC_NONZERO(VEC_NAME(incomplete)(buf + i - VEC_BYTES)))
			return utf8guard_last_char_start(buf, i);
		return i;
	}
	if (i < len) {
		/* The rest, padded with NULs: an open sequence is then cut. */
		__builtin_memset(edge, 0, sizeof(edge));
		if (i)
			__builtin_memcpy(edge, buf + i - VEC_BYTES, VEC_BYTES);
		__builtin_memcpy(edge + VEC_BYTES, buf + i, len - i);
		if (VEC_NAME(block_bad)(edge + VEC_BYTES))
			return i ? utf8guard_last_char_start(buf, i) : 0;
	} else if (i && VEC_NONZERO(VEC_NAME(incomplete)(buf + i - VEC_BYTES))) {
		return utf8guard_last_char_start(buf, i);
	}
	*clean = true;
	return len;
}

#undef VEC_PER_BLOCK
#undef VEC_GROUP
#undef VEC_BYTES
#undef VEC_TARGET
#undef VEC_NAME
#undef VEC_LOOKUP
#undef VEC_NONZERO
#undef VEC_HIGH_BITS
#undef VEC_SUB_SAT
