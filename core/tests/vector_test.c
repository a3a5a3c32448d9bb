// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_vector: the core's vector paths (SSE4.1, AVX2, and
 * AVX-512 where the CPU has it) as compiled into utf8guard.ko, run in the
 * kernel between kernel_fpu_begin() and kernel_fpu_end(), against its
 * scalar path, and the scalar path's BMI2 build against its plain one.
 * The test VM's emulated CPU (TCG) has no AVX-512: there the suite checks
 * that the path is refused, and the userspace core suites run the AVX-512
 * code on the host.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>

#include "utf8guard.h"
#include "test_utf8_encode.h"
#include "utf8guard_vector.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define BUFFER_MAX (2 * UTF8GUARD_VECTOR_CHUNK + 512)

static u32 rng_state;

static u32 rng(void)
{
	/* xorshift32: the same buffers on every run */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Whole random characters of 1 to 4 bytes up to exactly @len bytes. */
static void fill(u8 *buf, size_t len)
{
	static const u32 base[] = { 0x20, 0xE0, 0x4E00, 0x1F600 };
	u8 one[4];
	size_t pos = 0, n;

	while (pos < len) {
		n = test_utf8_encode(base[rng() % 4] + rng() % 0x50, one);
		if (n > len - pos)
			n = test_utf8_encode('a', one);
		memcpy(buf + pos, one, n);
		pos += n;
	}
}

/* An offset near a 64-byte block edge or the 4096-byte chunk edge. */
static size_t edge_offset(size_t len)
{
	size_t at = rng() % 2 ? (rng() % (len / 64 + 1)) * 64 + rng() % 8 - 4 :
		    UTF8GUARD_VECTOR_CHUNK + rng() % 8 - 4;

	return at < len ? at : rng() % len;
}

/* One of the classic ill-formed sequences, near an edge. */
static void plant(u8 *buf, size_t len)
{
	static const u8 planted[][4] = {
		{ 0xC0, 0xAE },			/* overlong '.' */
		{ 0xE0, 0x80, 0xAF },		/* overlong '/' */
		{ 0xF0, 0x80, 0x80, 0xAE },	/* overlong '.' */
		{ 0xED, 0xA0, 0x80 },		/* surrogate */
		{ 0xF4, 0x90, 0x80, 0x80 },	/* above U+10FFFF */
		{ 0xE2, 0x82 },			/* cut */
		{ 0x80 },			/* stray continuation */
	};
	const u8 *bad = planted[rng() % ARRAY_SIZE(planted)];
	size_t at = edge_offset(len), k;

	for (k = 0; k < 4 && bad[k] && at + k < len; k++)
		buf[at + k] = bad[k];
}

/*
 * Buffer @round of a series: random characters, 0 to 2 random bytes near
 * block or chunk edges, and on odd rounds a classic ill-formed sequence.
 * Returns its length.
 */
static size_t random_buffer(u8 *buf, int round)
{
	size_t len = 1 + (round % 4 ? rng() % 600 : rng() % BUFFER_MAX);
	unsigned int n;

	fill(buf, len);
	for (n = rng() % 3; n; n--)
		buf[edge_offset(len)] = rng();
	if (round % 2)
		plant(buf, len);
	return len;
}

struct outcome {
	bool ill_formed;
	struct utf8guard_report first;
	size_t prefix;
};

static void run_path(struct kunit *test, unsigned int isa, const u8 *buf,
		     size_t len, struct outcome *out)
{
	KUNIT_ASSERT_TRUE(test, utf8guard_vector_select(isa, 0));
	out->ill_formed = utf8guard_first_error(buf, len, &out->first);
	out->prefix = utf8guard_valid_prefix(buf, len);
}

static bool reports_equal(const struct utf8guard_report *a,
			  const struct utf8guard_report *b)
{
	return a->offset == b->offset && a->length == b->length &&
	       a->codepoint == b->codepoint && a->reason == b->reason &&
	       a->shadow_length == b->shadow_length &&
	       a->path_trick == b->path_trick;
}

static bool outcomes_equal(const struct outcome *a, const struct outcome *b)
{
	return a->ill_formed == b->ill_formed && a->prefix == b->prefix &&
	       (!a->ill_formed || reports_equal(&a->first, &b->first));
}

static void restore_default(void)
{
	utf8guard_vector_select(utf8guard_vector_best(),
				UTF8GUARD_VECTOR_MIN_LENGTH);
}

/*
 * The vector paths this CPU has: SSE4.1 and AVX2 (qemu -cpu max has
 * them), AVX-512 exactly when the CPU has AVX512F, AVX512BW and
 * AVX512_VBMI; the best is the last available.
 */
static void vector_paths_available(struct kunit *test)
{
	bool avx512 = boot_cpu_has(X86_FEATURE_AVX512F) &&
		      boot_cpu_has(X86_FEATURE_AVX512BW) &&
		      boot_cpu_has(X86_FEATURE_AVX512VBMI);
	unsigned int isa;

	for (isa = UTF8GUARD_VECTOR_SSE41; isa <= UTF8GUARD_VECTOR_AVX2; isa++)
		KUNIT_EXPECT_TRUE_MSG(test, utf8guard_vector_available(isa),
				      "%s: not offered by this CPU (qemu -cpu max has it)",
				      utf8guard_vector_isa_name(isa));
	KUNIT_EXPECT_EQ(test, utf8guard_vector_available(UTF8GUARD_VECTOR_AVX512),
			avx512);
	KUNIT_EXPECT_EQ(test, utf8guard_vector_best(),
			avx512 ? UTF8GUARD_VECTOR_AVX512 : UTF8GUARD_VECTOR_AVX2);
	kunit_info(test, "avx512: %s", avx512 ? "on this CPU, tested below" :
		   "not on this CPU (tested by the userspace core suites)");
}

/* A path this CPU lacks cannot be selected, and the choice stays. */
static void missing_path_refused(struct kunit *test)
{
	unsigned int isa, before = utf8guard_vector_selected();
	unsigned int missing = 0;

	for (isa = UTF8GUARD_VECTOR_SSE41; isa < UTF8GUARD_VECTOR_ISA_COUNT;
	     isa++) {
		if (utf8guard_vector_available(isa))
			continue;
		missing++;
		KUNIT_EXPECT_FALSE(test, utf8guard_vector_select(isa, 0));
		KUNIT_EXPECT_FALSE(test, utf8guard_vector_use(isa));
		KUNIT_EXPECT_EQ(test, utf8guard_vector_selected(), before);
	}
	KUNIT_EXPECT_FALSE(test, utf8guard_vector_use(UTF8GUARD_VECTOR_ISA_COUNT));
	KUNIT_EXPECT_EQ(test, utf8guard_vector_selected(), before);
	kunit_info(test, "%u vector paths missing on this CPU", missing);
}

/*
 * The vector path really runs: on a well-formed buffer it takes all of it
 * (it takes nothing when the FPU is not usable), in process context and
 * with bottom halves off, as the netfilter hook calls it.
 */
static void vector_prefix_runs_under_fpu(struct kunit *test)
{
	size_t len = UTF8GUARD_VECTOR_CHUNK + 1000;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	unsigned int isa;
	size_t got;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	rng_state = 1;
	fill(buf, len);
	for (isa = UTF8GUARD_VECTOR_SSE41; isa < UTF8GUARD_VECTOR_ISA_COUNT;
	     isa++) {
		if (!utf8guard_vector_available(isa))
			continue;
		KUNIT_ASSERT_TRUE(test, utf8guard_vector_select(isa, 0));
		KUNIT_EXPECT_EQ_MSG(test, utf8guard_vector_prefix(buf, len), len,
				    "%s in process context",
				    utf8guard_vector_isa_name(isa));
		local_bh_disable();
		got = utf8guard_vector_prefix(buf, len);
		local_bh_enable();
		KUNIT_EXPECT_EQ_MSG(test, got, len, "%s with bottom halves off",
				    utf8guard_vector_isa_name(isa));
		/* An error in the second chunk: it stops before it. */
		buf[UTF8GUARD_VECTOR_CHUNK + 100] = 0xC0;
		got = utf8guard_vector_prefix(buf, len);
		KUNIT_EXPECT_LE(test, got, (size_t)UTF8GUARD_VECTOR_CHUNK + 100);
		KUNIT_EXPECT_GE(test, got, (size_t)UTF8GUARD_VECTOR_CHUNK + 100 - 64 - 3);
		rng_state = 1;
		fill(buf, len);
	}
	/* The scalar path takes nothing: the caller does it all. */
	KUNIT_ASSERT_TRUE(test, utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0));
	KUNIT_EXPECT_EQ(test, utf8guard_vector_prefix(buf, len), (size_t)0);
	restore_default();
}

/*
 * A held section (utf8guard_vector_hold(): the netfilter hook's, one per
 * packet): the vector path runs in it without sections of its own, for
 * the context that holds it only.  A hard interrupt that comes meanwhile
 * (faked here with its preempt_count() bits) must not use the registers
 * the holder is using: it takes the scalar path.
 */
static void vector_prefix_runs_in_held_section(struct kunit *test)
{
	size_t len = 3 * UTF8GUARD_VECTOR_CHUNK + 1000;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	size_t got, in_irq;
	bool held, usable;
	unsigned int isa;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	rng_state = 3;
	fill(buf, len);
	for (isa = UTF8GUARD_VECTOR_SSE41; isa < UTF8GUARD_VECTOR_ISA_COUNT;
	     isa++) {
		if (!utf8guard_vector_available(isa))
			continue;
		KUNIT_ASSERT_TRUE(test, utf8guard_vector_select(isa, 0));
		local_bh_disable();
		held = utf8guard_vector_hold();
		/* Taken: nobody else may begin a section on this CPU. */
		usable = irq_fpu_usable();
		got = utf8guard_vector_prefix(buf, len);
		local_irq_disable();
		__preempt_count_add(HARDIRQ_OFFSET);
		in_irq = utf8guard_vector_prefix(buf, len);
		__preempt_count_sub(HARDIRQ_OFFSET);
		local_irq_enable();
		if (held)
			utf8guard_vector_release();
		local_bh_enable();
		KUNIT_EXPECT_TRUE_MSG(test, held, "%s: held",
				      utf8guard_vector_isa_name(isa));
		KUNIT_EXPECT_FALSE(test, usable);
		KUNIT_EXPECT_EQ_MSG(test, got, len, "%s in the held section",
				    utf8guard_vector_isa_name(isa));
		KUNIT_EXPECT_EQ_MSG(test, in_irq, (size_t)0,
				    "%s in an interrupt of the held section",
				    utf8guard_vector_isa_name(isa));
		/* Released: sections of its own again. */
		KUNIT_EXPECT_TRUE(test, irq_fpu_usable());
		KUNIT_EXPECT_EQ(test, utf8guard_vector_prefix(buf, len), len);
	}
	/* The scalar path holds nothing. */
	KUNIT_ASSERT_TRUE(test, utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0));
	KUNIT_EXPECT_FALSE(test, utf8guard_vector_hold());
	restore_default();
}

/* Every vector path gives the scalar path's report, on 3000 buffers. */
static void vector_paths_match_scalar(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, BUFFER_MAX, GFP_KERNEL);
	struct outcome scalar, other;
	unsigned int isa, mismatches = 0, compared = 0;
	size_t len;
	int round;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	rng_state = 2026;
	for (round = 0; round < 3000; round++) {
		len = random_buffer(buf, round);
		run_path(test, UTF8GUARD_VECTOR_SCALAR, buf, len, &scalar);
		for (isa = UTF8GUARD_VECTOR_SSE41;
		     isa < UTF8GUARD_VECTOR_ISA_COUNT; isa++) {
			if (!utf8guard_vector_available(isa))
				continue;
			run_path(test, isa, buf, len, &other);
			compared++;
			if (outcomes_equal(&other, &scalar))
				continue;
			if (mismatches++ < 5)
				KUNIT_FAIL(test, "%s: length %zu: prefix %zu, first error at %llu (%s); scalar: prefix %zu, first error at %llu (%s)",
					   utf8guard_vector_isa_name(isa), len,
					   other.prefix, other.first.offset,
					   other.ill_formed ? "ill-formed" : "well-formed",
					   scalar.prefix, scalar.first.offset,
					   scalar.ill_formed ? "ill-formed" : "well-formed");
		}
	}
	restore_default();
	kunit_info(test, "%u comparisons, %u mismatches", compared, mismatches);
	KUNIT_EXPECT_GT(test, compared, 0U);
	KUNIT_EXPECT_EQ(test, mismatches, 0U);
}

/*
 * The scalar path takes its BMI2 build exactly where the CPU has BMI2
 * (qemu -cpu max has it), and its plain build gives the same reports, on
 * 3000 buffers.
 */
static void scalar_builds_match(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, BUFFER_MAX, GFP_KERNEL);
	struct outcome bmi2, plain;
	unsigned int mismatches = 0, compared = 0;
	size_t len;
	int round;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, utf8guard_scalar_bmi2(),
			boot_cpu_has(X86_FEATURE_BMI2));
	if (!boot_cpu_has(X86_FEATURE_BMI2)) {
		KUNIT_EXPECT_FALSE(test, utf8guard_scalar_use_bmi2(true));
		KUNIT_EXPECT_FALSE(test, utf8guard_scalar_bmi2());
		return;
	}
	rng_state = 2027;
	for (round = 0; round < 3000; round++) {
		len = random_buffer(buf, round);
		run_path(test, UTF8GUARD_VECTOR_SCALAR, buf, len, &bmi2);
		KUNIT_ASSERT_TRUE(test, utf8guard_scalar_use_bmi2(false));
		run_path(test, UTF8GUARD_VECTOR_SCALAR, buf, len, &plain);
		KUNIT_ASSERT_TRUE(test, utf8guard_scalar_use_bmi2(true));
		compared++;
		if (outcomes_equal(&plain, &bmi2))
			continue;
		if (mismatches++ < 5)
			KUNIT_FAIL(test, "length %zu: plain: prefix %zu, first error at %llu; bmi2: prefix %zu, first error at %llu",
				   len, plain.prefix, plain.first.offset,
				   bmi2.prefix, bmi2.first.offset);
	}
	restore_default();
	kunit_info(test, "%u comparisons, %u mismatches", compared, mismatches);
	KUNIT_EXPECT_EQ(test, mismatches, 0U);
}

static struct kunit_case vector_cases[] = {
	KUNIT_CASE(vector_paths_available),
	KUNIT_CASE(missing_path_refused),
	KUNIT_CASE(vector_prefix_runs_under_fpu),
	KUNIT_CASE(vector_prefix_runs_in_held_section),
	KUNIT_CASE(vector_paths_match_scalar),
	KUNIT_CASE(scalar_builds_match),
	{}
};

static struct kunit_suite vector_suite = {
	.name = "utf8guard_vector",
	.test_cases = vector_cases,
};
kunit_test_suite(vector_suite);

MODULE_DESCRIPTION("KUnit tests of the utf8guard core's vector paths");
MODULE_LICENSE("GPL");
