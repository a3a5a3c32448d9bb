// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_core: the validator core as compiled into the
 * kernel, called through utf8guard.ko's exports.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/vmalloc.h>

#include "utf8guard.h"

struct core_case {
	const char *name;
	const char *hex;	/* the bytes, as hex digits */
	bool valid;
	u64 offset;
	u32 length;
	u8 reason;
	u32 codepoint;
	u8 shadow_length;
	bool path_trick;
};

#define VALID(name, hex) { name, hex, true }
#define BAD(name, hex, off, len, why, cp, shadow, trick) \
	{ name, hex, false, off, len, UTF8GUARD_REASON_##why, cp, shadow, trick }

static const struct core_case core_cases[] = {
	VALID("ascii", "612f2e"),
	VALID("two-byte", "c3a9"),
	VALID("three-byte edges", "e0a080ed9fbf"),
	VALID("four-byte edges", "f0908080f48fbfbf"),
	BAD("classic /../ attack", "2fc0ae2e2f", 1, 1, OVERLONG, 0x2e, 2, true),
	BAD("overlong NUL", "c080", 0, 1, OVERLONG, 0, 2, true),
	BAD("three-byte overlong NUL", "e08080", 0, 1, OVERLONG, 0, 3, true),
	BAD("surrogate", "eda080", 0, 1, SURROGATE, 0xd800, 3, false),
	BAD("CESU-8 pair", "eda18cedbeb4", 0, 1, SURROGATE, 0xd84c, 3, false),
	BAD("above U+10FFFF", "f4908080", 0, 1, OUT_OF_RANGE, 0x110000, 4,
	    false),
	BAD("five-byte form", "f888808080", 0, 1, OUT_OF_RANGE, 0x200000, 5,
	    false),
	BAD("six-byte overlong slash", "fc80808080af", 0, 1, OVERLONG, 0x2f, 6,
	    true),
	BAD("truncated at end", "61e282", 1, 2, TRUNCATED, 0, 0, false),
	BAD("lone continuation", "80", 0, 1, UNEXPECTED_CONTINUATION, 0, 0,
	    false),
	BAD("FE", "fe", 0, 1, INVALID_BYTE, 0, 0, false),
	BAD("C0 before ASCII", "c061", 0, 1, INVALID_BYTE, 0, 0, false),
};

/* Decode a case's hex into @buf; returns the length. */
static size_t case_bytes(struct kunit *test, const struct core_case *c,
			 u8 *buf, size_t size)
{
	size_t len = strlen(c->hex) / 2;

	KUNIT_ASSERT_LE(test, len, size);
	KUNIT_ASSERT_EQ(test, hex2bin(buf, c->hex, len), 0);
	return len;
}

static void check_report(struct kunit *test, const struct core_case *c,
			 bool error, const struct utf8guard_report *r)
{
	KUNIT_EXPECT_EQ_MSG(test, !error, c->valid, "%s", c->name);
	if (!error || c->valid)
		return;
	KUNIT_EXPECT_EQ_MSG(test, r->offset, c->offset, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, r->length, c->length, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, r->reason, c->reason, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, r->codepoint, c->codepoint, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, r->shadow_length, c->shadow_length, "%s",
			    c->name);
	KUNIT_EXPECT_EQ_MSG(test, r->path_trick, c->path_trick, "%s", c->name);
}

static void core_table(struct kunit *test)
{
	struct utf8guard_report r;
	u8 buf[16];
	size_t k, len;

	for (k = 0; k < ARRAY_SIZE(core_cases); k++) {
		const struct core_case *c = &core_cases[k];

		len = case_bytes(test, c, buf, sizeof(buf));
		check_report(test, c, utf8guard_first_error(buf, len, &r), &r);
	}
}

/* Byte-at-a-time streaming gives the same first report. */
static void core_stream_byte_by_byte(struct kunit *test)
{
	struct utf8guard_stream stream;
	u8 buf[16];
	size_t k, i, len;

	for (k = 0; k < ARRAY_SIZE(core_cases); k++) {
		const struct core_case *c = &core_cases[k];

		len = case_bytes(test, c, buf, sizeof(buf));
		utf8guard_stream_init(&stream);
		for (i = 0; i < len; i++)
			utf8guard_stream_feed(&stream, buf + i, 1, NULL, NULL);
		utf8guard_stream_end(&stream, NULL, NULL);
		KUNIT_EXPECT_EQ_MSG(test, stream.consumed, (u64)len, "%s",
				    c->name);
		check_report(test, c, stream.errors != 0, &stream.first);
	}
}

/* Fill @buf[@from..@to) with whole @n-byte @filler characters, then 'x'. */
static void fill(u8 *buf, size_t from, size_t to, const u8 *filler, size_t n)
{
	while (from < to) {
		if (to - from >= n) {
			memcpy(buf + from, filler, n);
			from += n;
		} else {
			buf[from++] = 'x';
		}
	}
}

/*
 * The fast path's 16-byte blocks, as the kernel compiles them: every table
 * case put across the first and second block boundary of a 48-byte buffer
 * of 1- to 4-byte characters gives the case's own report, and that of the
 * same buffer streamed byte by byte (which never fills a block).
 */
static void core_blocks_match_bytewise(struct kunit *test)
{
	static const u8 fillers[][4] = {
		{ 'a' }, { 0xc3, 0xa9 }, { 0xe2, 0x82, 0xac },
		{ 0xf0, 0x9f, 0x98, 0x80 },
	};
	static const size_t offsets[] = { 11, 13, 15, 16, 17, 29, 31, 32 };
	struct utf8guard_stream stream;
	struct utf8guard_report whole;
	u8 bytes[16], buf[48];
	size_t k, f, o, i, len, at;
	bool bad;

	for (k = 0; k < ARRAY_SIZE(core_cases); k++) {
		const struct core_case *c = &core_cases[k];

		len = case_bytes(test, c, bytes, sizeof(bytes));
		for (f = 0; f < ARRAY_SIZE(fillers); f++) {
			for (o = 0; o < ARRAY_SIZE(offsets); o++) {
				at = offsets[o];
				fill(buf, 0, at, fillers[f], f + 1);
				memcpy(buf + at, bytes, len);
				fill(buf, at + len, sizeof(buf), fillers[f],
				     f + 1);

				bad = utf8guard_first_error(buf, sizeof(buf),
							    &whole);
				utf8guard_stream_init(&stream);
				for (i = 0; i < sizeof(buf); i++)
					utf8guard_stream_feed(&stream, buf + i,
							      1, NULL, NULL);
				utf8guard_stream_end(&stream, NULL, NULL);
				KUNIT_EXPECT_EQ_MSG(test, bad, !c->valid,
						    "%s, filler %zu, at %zu",
						    c->name, f, at);
				KUNIT_EXPECT_EQ_MSG(test, stream.errors != 0,
						    bad, "%s, filler %zu, at %zu",
						    c->name, f, at);
				if (!bad || !stream.errors)
					continue;
				KUNIT_EXPECT_EQ_MSG(test, whole.offset,
						    at + c->offset,
						    "%s, filler %zu, at %zu",
						    c->name, f, at);
				KUNIT_EXPECT_EQ(test, whole.offset,
						stream.first.offset);
				KUNIT_EXPECT_EQ(test, whole.length,
						stream.first.length);
				KUNIT_EXPECT_EQ(test, whole.reason,
						stream.first.reason);
				KUNIT_EXPECT_EQ(test, whole.codepoint,
						stream.first.codepoint);
			}
		}
	}
}

static void core_scan_counts_maximal_subparts(struct kunit *test)
{
	/* c0 | ae | 41 | 80: three errors, as three U+FFFD. */
	static const u8 bytes[] = { 0xc0, 0xae, 0x41, 0x80 };
	/* e0 80 | 80: the second 80 is its own error. */
	static const u8 overlong[] = { 0xe0, 0x80, 0x80 };

	KUNIT_EXPECT_EQ(test, utf8guard_scan(bytes, sizeof(bytes), NULL, NULL),
			3ULL);
	KUNIT_EXPECT_EQ(test, utf8guard_scan(overlong, sizeof(overlong), NULL,
					     NULL), 3ULL);
}

/* A large buffer: valid text, then one error near the end. */
static void core_large_buffer(struct kunit *test)
{
	static const u8 pattern[] = { 'a', 0xc3, 0xa9, 0xe2, 0x82, 0xac,
				      0xf0, 0x9f, 0x98, 0x80 };
	const size_t size = 1 << 20;
	struct utf8guard_report r;
	u8 *buf = vmalloc(size);
	size_t k;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (k = 0; k + sizeof(pattern) <= size; k += sizeof(pattern))
		memcpy(buf + k, pattern, sizeof(pattern));
	memset(buf + k, 'z', size - k);
	KUNIT_EXPECT_FALSE(test, utf8guard_first_error(buf, size, &r));
	buf[size - 2] = 0xc0;
	buf[size - 1] = 0xaf;
	KUNIT_EXPECT_TRUE(test, utf8guard_first_error(buf, size, &r));
	KUNIT_EXPECT_EQ(test, r.offset, (u64)(size - 2));
	KUNIT_EXPECT_EQ(test, r.codepoint, 0x2fU);
	vfree(buf);
}

static void core_reason_words(struct kunit *test)
{
	static const char *const words[] = {
		"none", "truncated", "unexpected-continuation", "invalid-byte",
		"overlong", "surrogate", "out-of-range", "control", "bidi",
		"ignorable", "noncharacter", "bom", "confusable-path",
		"not-nfc", "empty-name", "dot-name", "slash", "nul",
		"name-too-long",
	};
	unsigned int k;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(words), UTF8GUARD_REASON_COUNT);
	for (k = 0; k < ARRAY_SIZE(words); k++) {
		KUNIT_EXPECT_STREQ(test, utf8guard_reason_name(k), words[k]);
		KUNIT_EXPECT_EQ(test, utf8guard_reason_from_name(words[k],
								 strlen(words[k])),
				(int)k);
	}
	KUNIT_EXPECT_EQ(test, utf8guard_reason_from_name("overlon", 7), -1);
	KUNIT_EXPECT_STREQ(test, utf8guard_reason_name(99), "unknown");
}

static struct kunit_case core_test_cases[] = {
	KUNIT_CASE(core_table),
	KUNIT_CASE(core_stream_byte_by_byte),
	KUNIT_CASE(core_blocks_match_bytewise),
	KUNIT_CASE(core_scan_counts_maximal_subparts),
	KUNIT_CASE(core_large_buffer),
	KUNIT_CASE(core_reason_words),
	{}
};

static struct kunit_suite core_test_suite = {
	.name = "utf8guard_core",
	.test_cases = core_test_cases,
};
kunit_test_suite(core_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the utf8guard validator core");
