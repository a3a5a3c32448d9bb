// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_chars: the normalize-reject classes and the
 * filename component rules, on the kernel build of the policy: the
 * boundary code points and text cases of tests/unicode/class_cases.h (the
 * userspace suite runs the same rows), and NFC on a few segments.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "utf8guard.h"
#include "class_cases.h"

static void chars_class_boundaries(struct kunit *test)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(class_cases); k++) {
		const struct class_case *c = &class_cases[k];
		struct utf8guard_report r;
		u8 bytes[4];
		size_t len = test_utf8_encode(c->cp, bytes);
		bool refused = utf8guard_first_violation(c->class, bytes, len,
							 &r);

		KUNIT_EXPECT_EQ_MSG(test, refused,
				    c->reason != UTF8GUARD_REASON_NONE,
				    "U+%04X class 0x%x", c->cp, c->class);
		if (!refused || c->reason == UTF8GUARD_REASON_NONE)
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, utf8guard_reason_name(r.reason),
				       utf8guard_reason_name(c->reason),
				       "U+%04X", c->cp);
		KUNIT_EXPECT_EQ(test, r.offset, 0ULL);
		KUNIT_EXPECT_EQ(test, r.length, (u32)len);
		KUNIT_EXPECT_EQ(test, r.codepoint, c->cp);
	}
}

static void chars_texts(struct kunit *test)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(text_cases); k++) {
		const struct text_case *c = &text_cases[k];
		struct utf8guard_report r;
		bool refused = utf8guard_first_violation(c->classes,
							 (const u8 *)c->text,
							 strlen(c->text), &r);

		KUNIT_EXPECT_EQ_MSG(test, refused,
				    c->reason != UTF8GUARD_REASON_NONE, "%s",
				    c->name);
		if (!refused || c->reason == UTF8GUARD_REASON_NONE)
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, utf8guard_reason_name(r.reason),
				       utf8guard_reason_name(c->reason), "%s",
				       c->name);
		KUNIT_EXPECT_EQ_MSG(test, r.offset, (u64)c->offset, "%s",
				    c->name);
		KUNIT_EXPECT_EQ_MSG(test, r.length, c->length, "%s", c->name);
	}
}

static void chars_name_rules(struct kunit *test)
{
	static char long_name[UTF8GUARD_NAME_MAX + 1];
	struct utf8guard_report r;

	memset(long_name, 'n', sizeof(long_name));
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(0, (const u8 *)"",
							 0, &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_EMPTY_NAME);
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(0, (const u8 *)"..",
							 2, &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_DOT_NAME);
	KUNIT_EXPECT_FALSE(test, utf8guard_name_violation(0,
							  (const u8 *)"...",
							  3, &r));
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(0,
							 (const u8 *)"a/b",
							 3, &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_SLASH);
	KUNIT_EXPECT_EQ(test, r.offset, 1ULL);
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(0,
							 (const u8 *)"a\0b",
							 3, &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_NUL);
	KUNIT_EXPECT_FALSE(test, utf8guard_name_violation(0,
							  (const u8 *)long_name,
							  UTF8GUARD_NAME_MAX,
							  &r));
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(0,
							 (const u8 *)long_name,
							 UTF8GUARD_NAME_MAX + 1,
							 &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_NAME_TOO_LONG);
	KUNIT_EXPECT_EQ(test, r.offset, (u64)UTF8GUARD_NAME_MAX);
	/* The classic attack, as a component. */
	KUNIT_EXPECT_TRUE(test, utf8guard_name_violation(UTF8GUARD_CLASSES_DEFAULT,
							 (const u8 *)"\xc0\xae.",
							 3, &r));
	KUNIT_EXPECT_EQ(test, r.reason, UTF8GUARD_REASON_OVERLONG);
	KUNIT_EXPECT_TRUE(test, r.path_trick);
	/* A path has no component rules. */
	KUNIT_EXPECT_FALSE(test, utf8guard_first_violation(UTF8GUARD_CLASSES_ALL,
							   (const u8 *)"a/../b",
							   6, &r));
}

static void chars_policy_words(struct kunit *test)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];
	struct utf8guard_parse_error error;
	u32 classes = 0;

	KUNIT_EXPECT_LT(test, utf8guard_format_policy(UTF8GUARD_CLASSES_ALL,
						      text, sizeof(text)),
			sizeof(text));
	KUNIT_EXPECT_STREQ(test, text,
			   "strict path-tricks controls bidi ignorables noncharacters bom confusable-path nfc");
	KUNIT_EXPECT_TRUE(test, utf8guard_parse_policy(text, strlen(text), 0,
						       &classes, &error));
	KUNIT_EXPECT_EQ(test, classes, UTF8GUARD_CLASSES_ALL);
	KUNIT_EXPECT_TRUE(test, utf8guard_parse_policy("+nfc -bom", 9,
						       UTF8GUARD_CLASSES_ALL,
						       &classes, &error));
	KUNIT_EXPECT_EQ(test, classes,
			UTF8GUARD_CLASSES_ALL & ~UTF8GUARD_CLASS_BOM);
	KUNIT_EXPECT_FALSE(test, utf8guard_parse_policy("nfd", 3, 0, &classes,
							&error));
}

static struct kunit_case chars_test_cases[] = {
	KUNIT_CASE(chars_class_boundaries),
	KUNIT_CASE(chars_texts),
	KUNIT_CASE(chars_name_rules),
	KUNIT_CASE(chars_policy_words),
	{}
};

static struct kunit_suite chars_test_suite = {
	.name = "utf8guard_chars",
	.test_cases = chars_test_cases,
};
kunit_test_suite(chars_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the utf8guard character classes and name rules");
