// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_policy: mode and policy words, parsing,
 * formatting, the word tokenizer, and which errors each class refuses.
 */
#include <kunit/test.h>

#include "utf8guard.h"

#define S UTF8GUARD_CLASS_STRICT
#define P UTF8GUARD_CLASS_PATH_TRICKS

struct policy_case {
	const char *text;
	size_t len;		/* 0: strlen(text) */
	u32 base;
	bool ok;
	u32 classes;
};

static const struct policy_case policy_cases[] = {
	{ "strict path-tricks", 0, 0, true, S | P },
	{ "strict\n", 0, P, true, S },
	{ "\x20 path-tricks\t\x20\n", 0, S, true, P },
	{ "strict,path-tricks", 0, 0, true, S | P },
	{ "none", 0, S | P, true, 0 },
	{ "+strict", 0, P, true, S | P },
	{ "-strict", 0, S | P, true, P },
	{ "-strict -path-tricks", 0, S | P, true, 0 },
	{ "+strict -strict", 0, 0, true, 0 },
	{ "strict strict", 0, 0, true, S },
	{ "", 0, S, false },
	{ "\x20\n", 0, S, false },
	{ "stric", 0, S, false },
	{ "Strict", 0, S, false },
	{ "strict +path-tricks", 0, S, false },
	{ "+strict path-tricks", 0, S, false },
	{ "+", 0, S, false },
	{ "-", 0, S, false },
	{ "++strict", 0, S, false },
	{ "none strict", 0, S, false },
	{ "strict none", 0, S, false },
	{ "+none", 0, S, false },
	{ "strict\0", 7, S, false },
	{ "strict;path-tricks", 0, S, false },
	{ "strict\xc0\xae", 0, S, false },
};

static void policy_parse(struct kunit *test)
{
	struct utf8guard_parse_error error;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(policy_cases); k++) {
		const struct policy_case *c = &policy_cases[k];
		size_t len = c->len ? c->len : strlen(c->text);
		u32 classes = 0xdead;
		bool ok;

		ok = utf8guard_parse_policy(c->text, len, c->base, &classes,
					    &error);
		KUNIT_EXPECT_EQ_MSG(test, ok, c->ok, "case %zu \"%*pEhp\"", k,
				    (int)len, c->text);
		KUNIT_EXPECT_EQ_MSG(test, classes, c->ok ? c->classes : 0xdead,
				    "case %zu: untouched on failure", k);
	}
}

static void policy_parse_mode(struct kunit *test)
{
	static const char *const good[] = { "off", "audit", "enforce\n",
					    " enforce " };
	static const u32 modes[] = { UTF8GUARD_MODE_OFF, UTF8GUARD_MODE_AUDIT,
				     UTF8GUARD_MODE_ENFORCE,
				     UTF8GUARD_MODE_ENFORCE };
	static const char *const bad[] = { "", "\n", "on", "enforce audit",
					   "[enforce]", "ENFORCE", "1" };
	struct utf8guard_parse_error error;
	u32 mode;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(good); k++) {
		KUNIT_EXPECT_TRUE(test, utf8guard_parse_mode(good[k],
			strlen(good[k]), &mode, &error));
		KUNIT_EXPECT_EQ(test, mode, modes[k]);
	}
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		mode = 77;
		KUNIT_EXPECT_FALSE_MSG(test, utf8guard_parse_mode(bad[k],
			strlen(bad[k]), &mode, &error), "\"%s\"", bad[k]);
		KUNIT_EXPECT_EQ(test, mode, 77U);
	}
}

static void policy_parse_flag(struct kunit *test)
{
	struct utf8guard_parse_error error;
	bool value = false;

	KUNIT_EXPECT_TRUE(test, utf8guard_parse_flag("1\n", 2, &value, &error));
	KUNIT_EXPECT_TRUE(test, value);
	KUNIT_EXPECT_TRUE(test, utf8guard_parse_flag("0", 1, &value, &error));
	KUNIT_EXPECT_FALSE(test, value);
	KUNIT_EXPECT_FALSE(test, utf8guard_parse_flag("1junk", 5, &value,
						      &error));
	KUNIT_EXPECT_FALSE(test, utf8guard_parse_flag("y", 1, &value, &error));
	KUNIT_EXPECT_FALSE(test, utf8guard_parse_flag("1 1", 3, &value,
						      &error));
	KUNIT_EXPECT_FALSE(test, utf8guard_parse_flag("", 0, &value, &error));
}

static void policy_format(struct kunit *test)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	utf8guard_format_mode(UTF8GUARD_MODE_ENFORCE, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "off audit [enforce]");
	utf8guard_format_mode(UTF8GUARD_MODE_OFF, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "[off] audit enforce");
	utf8guard_format_policy(S | P, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "strict path-tricks");
	utf8guard_format_policy(P, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "path-tricks");
	utf8guard_format_policy(0, text, sizeof(text));
	KUNIT_EXPECT_STREQ(test, text, "none");
	/* Truncation keeps the NUL and reports the full length. */
	KUNIT_EXPECT_EQ(test, utf8guard_format_policy(S | P, text, 4), 18UL);
	KUNIT_EXPECT_STREQ(test, text, "str");
}

static void policy_classes(struct kunit *test)
{
	static const u8 latin1[] = { 'c', 'a', 'f', 0xe9 };
	static const u8 trick[] = { 'c', 'a', 'f', 0xe9, '/', 0xc0, 0xae };
	struct utf8guard_report r;

	/* path-tricks alone lets legacy Latin-1 through... */
	KUNIT_EXPECT_FALSE(test, utf8guard_first_violation(P, latin1,
							   sizeof(latin1), &r));
	/* ...but not an overlong '.', even after a Latin-1 byte. */
	KUNIT_EXPECT_TRUE(test, utf8guard_first_violation(P, trick,
							  sizeof(trick), &r));
	KUNIT_EXPECT_EQ(test, r.offset, 5ULL);
	KUNIT_EXPECT_EQ(test, r.codepoint, 0x2eU);
	/* strict covers path-tricks and refuses the Latin-1 byte first. */
	KUNIT_EXPECT_TRUE(test, utf8guard_first_violation(S, trick,
							  sizeof(trick), &r));
	KUNIT_EXPECT_EQ(test, r.offset, 3ULL);
	KUNIT_EXPECT_FALSE(test, utf8guard_first_violation(0, trick,
							   sizeof(trick), &r));
}

/* The words utf8guard_next_word() finds, as "word|word|", or "" for none. */
static void words_of(const char *text, unsigned int flags, char *out,
		     size_t size)
{
	size_t pos = 0, start, length, at = 0;

	out[0] = '\0';
	while (utf8guard_next_word(text, strlen(text), flags, &pos, &start,
				   &length))
		at += scnprintf(out + at, size - at, "%.*s|", (int)length,
				text + start);
}

struct next_word_case {
	const char *text;
	unsigned int flags;
	const char *words;
};

#define NL UTF8GUARD_WORDS_NEWLINE
#define TRAIL UTF8GUARD_WORDS_TRAILING_NEWLINE

static const struct next_word_case next_word_cases[] = {
	{ "", 0, "" },
	{ " ,\t", 0, "" },
	{ "a", 0, "a|" },
	{ " ext4, btrfs\txfs ", 0, "ext4|btrfs|xfs|" },
	{ "a,,b", 0, "a|b|" },
	/* The hooks' lists: one trailing newline dropped, others kept. */
	{ "ext4\n", TRAIL, "ext4|" },
	{ "ext4\nbtrfs", TRAIL, "ext4\nbtrfs|" },
	{ "ext4\n\n", TRAIL, "ext4\n|" },
	{ "\n", TRAIL, "" },
	{ "ext4\n", 0, "ext4\n|" },
	/* The policy words: a newline is a blank. */
	{ "strict\npath-tricks\n", NL, "strict|path-tricks|" },
	{ "\n\n", NL, "" },
	{ "a\n\n", NL | TRAIL, "a|" },
};

static void policy_next_word(struct kunit *test)
{
	char words[64];
	size_t k, pos, start = 7, length = 7;

	for (k = 0; k < ARRAY_SIZE(next_word_cases); k++) {
		const struct next_word_case *c = &next_word_cases[k];

		words_of(c->text, c->flags, words, sizeof(words));
		KUNIT_EXPECT_STREQ_MSG(test, words, c->words, "case %zu", k);
	}
	/* At the end, nothing is set. */
	pos = 3;
	KUNIT_EXPECT_FALSE(test, utf8guard_next_word("a b", 3, 0, &pos,
						     &start, &length));
	KUNIT_EXPECT_EQ(test, pos, 3);
	KUNIT_EXPECT_EQ(test, start, 7);
	KUNIT_EXPECT_EQ(test, length, 7);
}

static struct kunit_case policy_test_cases[] = {
	KUNIT_CASE(policy_parse),
	KUNIT_CASE(policy_parse_mode),
	KUNIT_CASE(policy_parse_flag),
	KUNIT_CASE(policy_format),
	KUNIT_CASE(policy_classes),
	KUNIT_CASE(policy_next_word),
	{}
};

static struct kunit_suite policy_test_suite = {
	.name = "utf8guard_policy",
	.test_cases = policy_test_cases,
};
kunit_test_suite(policy_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the utf8guard policy words and classes");
