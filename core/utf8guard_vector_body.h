/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One vector validator, included once per instruction set by
 * utf8guard_vector.c with these defined (and undefined at the end):
 *
 *	VEC_BYTES	bytes in a vector: 16 (SSE4.1), 32 (AVX2) or 64 (AVX-512)
 *	VEC_PER_SPAN	vectors per ASCII test in a group of blocks (1 to 4),
 *			whichever measured faster (make bench)
 *	VEC_TARGET	the target attribute string, e.g. "avx2"
 *	VEC_NAME(x)	prefixes x with the instruction set's name
 *	VEC_LOOKUP(table, index)	pshufb: table[index] in each 16-byte lane
 *	VEC_NONZERO(x)	true if any byte of x is not 0 (ptest; x is
 *			evaluated twice)
 *	VEC_HIGH_BITS(x)	the bytes' top bits as an int (pmovmskb)
 *	VEC_SUB_SAT(a, b)	a - b in each byte, 0 if below (psubusb)
 *
 * and, where the instruction set has it (AVX-512 with AVX512_VBMI):
 *
 *	VEC_PERMUTE(table, index)	vpermb: table[index & 63]
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
 * the real ones or NULs (prefix() sees to it).
 *
 * It only says whether a block holds an error: the exact report always
 * comes from the scalar core, which takes over at the character boundary
 * before the block.
 */

typedef u8 VEC_NAME(vec) __attribute__((vector_size(VEC_BYTES)));
typedef u16 VEC_NAME(words) __attribute__((vector_size(VEC_BYTES)));

#define VEC_PER_BLOCK (UTF8GUARD_VECTOR_BLOCK / VEC_BYTES)
/* Bytes per test of the accumulated errors while none is seen. */
#define VEC_GROUP (4 * UTF8GUARD_VECTOR_BLOCK)

/*
 * The constants of the loops, made once per call and then kept in
 * registers: left to itself, GCC makes every broadcast constant again in
 * every block (a mov and a vpbroadcastb each, a quarter of the AVX-512
 * block's instructions).
 */
#define VEC_CONSTS VEC_NAME(consts)
struct VEC_CONSTS {
	VEC_NAME(vec) low_nibble;	/* 0x0F */
	VEC_NAME(vec) third_min;	/* 0xE0 - 0x80 */
	VEC_NAME(vec) fourth_min;	/* 0xF0 - 0x80 */
	VEC_NAME(vec) high_bit;		/* 0x80 */
	VEC_NAME(vec) open_max;		/* incomplete()'s thresholds */
	VEC_NAME(vec) byte_1_high;
	VEC_NAME(vec) byte_1_low;
	VEC_NAME(vec) byte_2_high;
};

/* Hide @x's value from the optimizer: it stays in the register it is in. */
#define VEC_KEEP(x) __asm__("" : "+v"(x))

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

static inline __attribute__((target(VEC_TARGET)))
void VEC_NAME(consts_init)(struct VEC_CONSTS *c)
{
	c->low_nibble = VEC_NAME(splat)(0x0F);
	c->third_min = VEC_NAME(splat)(0xE0 - 0x80);
	c->fourth_min = VEC_NAME(splat)(0xF0 - 0x80);
	c->high_bit = VEC_NAME(splat)(0x80);
	/* Above these, a lead wants more bytes than the vector has left. */
	c->open_max = VEC_NAME(splat)(0xFF);
	c->open_max[VEC_BYTES - 3] = 0xF0 - 1;
	c->open_max[VEC_BYTES - 2] = 0xE0 - 1;
	c->open_max[VEC_BYTES - 1] = 0xC0 - 1;
	c->byte_1_high = VEC_NAME(table)(byte_1_high);
	c->byte_1_low = VEC_NAME(table)(byte_1_low);
	c->byte_2_high = VEC_NAME(table)(byte_2_high);
#ifdef VEC_PERMUTE
	{
		/* Entry k of a high-nibble table at k * 4 to k * 4 + 3. */
		VEC_NAME(vec) spread;
		unsigned int k;

		for (k = 0; k < VEC_BYTES; k++)
			spread[k] = k / 4;
		c->byte_1_high = VEC_PERMUTE(c->byte_1_high, spread);
		c->byte_2_high = VEC_PERMUTE(c->byte_2_high, spread);
	}
#endif
#ifndef VEC_PERMUTE
	VEC_KEEP(c->low_nibble);	/* vpermb needs no mask: left unmade */
#endif
	VEC_KEEP(c->third_min);
	VEC_KEEP(c->fourth_min);
	VEC_KEEP(c->high_bit);
	VEC_KEEP(c->open_max);
	VEC_KEEP(c->byte_1_high);
	VEC_KEEP(c->byte_1_low);
	VEC_KEEP(c->byte_2_high);
}

/*
 * The entries of @table for the high nibble of each byte of @x.  pshufb
 * reads an index's low 4 bits (and gives 0 where its top bit is set): a
 * 16-bit shift by 4, which brings in the next byte's low bits, then the
 * low nibble.  vpermb (VEC_PERMUTE) reads an index's low 6 bits: a shift
 * by 2 alone, into a 64-entry table that holds each entry four times
 * (consts_init()).
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(by_high_nibble)(const struct VEC_CONSTS *c,
				       VEC_NAME(vec) table, VEC_NAME(vec) x)
{
#ifdef VEC_PERMUTE
	(void)c;	/* no mask */
	return VEC_PERMUTE(table, (VEC_NAME(vec))((VEC_NAME(words))x >> 2));
#else
	return VEC_LOOKUP(table, (VEC_NAME(vec))((VEC_NAME(words))x >> 4) &
				 c->low_nibble);
#endif
}

/*
 * The entries of @table for the low nibble of each byte of @x: the table
 * is in every 16-byte lane, so for vpermb it repeats every 16 entries.
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(by_low_nibble)(const struct VEC_CONSTS *c,
				      VEC_NAME(vec) table, VEC_NAME(vec) x)
{
#ifdef VEC_PERMUTE
	(void)c;	/* no mask */
	return VEC_PERMUTE(table, x);
#else
	return VEC_LOOKUP(table, x & c->low_nibble);
#endif
}

/*
 * The errors of the vector at @p.  A byte two or three after a 3- or
 * 4-byte lead must be a continuation: the tables give such a byte
 * TWO_CONTS, which must23 (0x80) cancels; anywhere else TWO_CONTS stays,
 * and a missing continuation shows as 0x80.
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(errors)(const struct VEC_CONSTS *c,
			       const u8 *p, VEC_NAME(vec) input)
{
	VEC_NAME(vec) prev1 = VEC_NAME(load)(p - 1);
	/* Only E0..FF stay at 0x80 or above, and F0..FF for the fourth. */
	VEC_NAME(vec) third = VEC_SUB_SAT(VEC_NAME(load)(p - 2), c->third_min);
	VEC_NAME(vec) fourth = VEC_SUB_SAT(VEC_NAME(load)(p - 3),
					   c->fourth_min);
	VEC_NAME(vec) must23 = (third | fourth) & c->high_bit;
	VEC_NAME(vec) special =
		VEC_NAME(by_high_nibble)(c, c->byte_1_high, prev1) &
		VEC_NAME(by_low_nibble)(c, c->byte_1_low, prev1) &
		VEC_NAME(by_high_nibble)(c, c->byte_2_high, input);

	return must23 ^ special;
}

/* Nonzero where a sequence started in the vector at @p is not over. */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(incomplete)(const struct VEC_CONSTS *c,
				   const u8 *p)
{
	return VEC_SUB_SAT(VEC_NAME(load)(p), c->open_max);
}

/*
 * The errors of the @count vectors at @p (1 to 4); 3 readable
 * bytes before them, VEC_BYTES if they are all ASCII.  One ASCII test for
 * them all: if they are not all ASCII, the tables read the ASCII among
 * them as well as the rest.
 */
static inline __attribute__((target(VEC_TARGET)))
VEC_NAME(vec) VEC_NAME(span)(const struct VEC_CONSTS *c, const u8 *p,
			     unsigned int count)
{
	VEC_NAME(vec) any = { 0 };
	VEC_NAME(vec) error = { 0 };
	unsigned int k;

	/*
	 * Unrolled.  Each vector is loaded again for the tables: the
	 * compiler keeps the first load's register (no array here, which
	 * KASAN's stack instrumentation would keep in memory).
	 */
#pragma GCC unroll 4
	for (k = 0; k < count; k++)
		any |= VEC_NAME(load)(p + k * VEC_BYTES);
	/* ASCII: fine unless a sequence was left open before it. */
	if (!VEC_HIGH_BITS(any))
		return VEC_NAME(incomplete)(c, p - VEC_BYTES);
#pragma GCC unroll 4
	for (k = 0; k < count; k++)
		error |= VEC_NAME(errors)(c, p + k * VEC_BYTES,
					  VEC_NAME(load)(p + k * VEC_BYTES));
	return error;
}

/* True if the 64-byte block at @p holds an error. */
static inline __attribute__((target(VEC_TARGET)))
bool VEC_NAME(block_bad)(const struct VEC_CONSTS *c, const u8 *p)
{
	return VEC_NONZERO(VEC_NAME(span)(c, p, VEC_PER_BLOCK));
}

/*
 * True if the VEC_GROUP bytes at @p hold an error: one test for several
 * blocks, which the single blocks then narrow down.
 */
static inline __attribute__((target(VEC_TARGET)))
bool VEC_NAME(group_bad)(const struct VEC_CONSTS *c, const u8 *p)
{
	VEC_NAME(vec) error = { 0 };
	unsigned int k;

#pragma GCC unroll 4
	for (k = 0; k < VEC_GROUP; k += VEC_PER_SPAN * VEC_BYTES)
		error |= VEC_NAME(span)(c, p + k, VEC_PER_SPAN);
	return VEC_NONZERO(error);
}

/**
 * VEC_NAME(prefix)() - the vector validator of one instruction set
 * @buf: bytes
 * @start: where to begin, a character boundary; @buf[0..@start) is
 *	well-formed (and readable)
 * @len: where to end: @buf has @len bytes, of which this reads no more
 * @final: @buf ends where the input ends (else more may follow)
 * @clean: set to true if no ill-formed sequence was seen
 *
 * Return: a character boundary B such that @buf[@start..B) is
 * well-formed.  If *@clean, B is @len when @final, else the end of the
 * last whole 64-byte block or the start of the sequence it leaves open.
 * Otherwise B is the boundary before the 64-byte block where an error was
 * seen: the scalar core finds it exactly from there.
 */
/* flatten: every helper above inlined into the loop, whatever the flags. */
__attribute__((target(VEC_TARGET), flatten))
size_t VEC_NAME(prefix)(const u8 *buf, size_t start, size_t len, bool final,
			bool *clean)
{
	/* A block with the VEC_BYTES before it: at the start, and the end. */
	u8 edge[VEC_BYTES + UTF8GUARD_VECTOR_BLOCK];
	struct VEC_CONSTS c;
	size_t i = start;

	VEC_NAME(consts_init)(&c);
	*clean = false;
	if (start < VEC_BYTES && len - start >= UTF8GUARD_VECTOR_BLOCK) {
		/*
		 * Fewer than VEC_BYTES before the first block: NULs instead,
		 * a boundary, as at @start.
		 */
		__builtin_memset(edge, 0, VEC_BYTES);
		__builtin_memcpy(edge + VEC_BYTES, buf + i,
				 UTF8GUARD_VECTOR_BLOCK);
		if (VEC_NAME(block_bad)(&c, edge + VEC_BYTES))
			return i;
		i += UTF8GUARD_VECTOR_BLOCK;
	}
	/* After a group with an error, the blocks one by one find it. */
	while (len - i >= VEC_GROUP && !VEC_NAME(group_bad)(&c, buf + i))
		i += VEC_GROUP;
	for (; len - i >= UTF8GUARD_VECTOR_BLOCK; i += UTF8GUARD_VECTOR_BLOCK)
		if (VEC_NAME(block_bad)(&c, buf + i))
			return utf8guard_boundary_before(buf, start, i);
	if (!final) {
		*clean = true;
		if (i > start &&
		    VEC_NONZERO(VEC_NAME(incomplete)(&c, buf + i - VEC_BYTES)))
			return utf8guard_last_char_start(buf, i);
		return i;
	}
	if (i < len) {
		/* The rest, padded with NULs: an open sequence is then cut. */
		__builtin_memset(edge, 0, sizeof(edge));
		if (i > start)
			__builtin_memcpy(edge, buf + i - VEC_BYTES, VEC_BYTES);
		__builtin_memcpy(edge + VEC_BYTES, buf + i, len - i);
		if (VEC_NAME(block_bad)(&c, edge + VEC_BYTES))
			return utf8guard_boundary_before(buf, start, i);
	} else if (i > start &&
		   VEC_NONZERO(VEC_NAME(incomplete)(&c, buf + i - VEC_BYTES))) {
		return utf8guard_last_char_start(buf, i);
	}
	*clean = true;
	return len;
}

#undef VEC_PER_BLOCK
#undef VEC_GROUP
#undef VEC_PER_SPAN
#undef VEC_KEEP
#undef VEC_CONSTS
#undef VEC_BYTES
#undef VEC_TARGET
#undef VEC_NAME
#undef VEC_LOOKUP
#undef VEC_NONZERO
#undef VEC_HIGH_BITS
#undef VEC_SUB_SAT
#undef VEC_PERMUTE
