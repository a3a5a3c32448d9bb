// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_sysfs: what the mode and policy store handlers do
 * with well-formed and malformed writes (the live policy is saved before
 * each case and restored after it).
 */
#include <kunit/test.h>

#include "policy_state.h"
#include "utf8guard.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct utf8guard_policy saved;

static int sysfs_test_init(struct kunit *test)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	saved = utf8guard_policy_get();
	/* A known starting point. */
	KUNIT_ASSERT_EQ(test, policy_state_store_mode("enforce", 7), 0);
	utf8guard_format_policy(UTF8GUARD_CLASSES_DEFAULT, text, sizeof(text));
	KUNIT_ASSERT_EQ(test, policy_state_store_policy(text, strlen(text)), 0);
	return 0;
}

static void sysfs_test_exit(struct kunit *test)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];
	const char *mode = utf8guard_mode_name(saved.mode);

	policy_state_store_mode(mode, strlen(mode));
	utf8guard_format_policy(saved.classes, text, sizeof(text));
	policy_state_store_policy(text, strlen(text));
}

static void expect_policy(struct kunit *test, u32 mode, u32 classes,
			  const char *after)
{
	struct utf8guard_policy now = utf8guard_policy_get();

	KUNIT_EXPECT_EQ_MSG(test, now.mode, mode, "after %s", after);
	KUNIT_EXPECT_EQ_MSG(test, now.classes, classes, "after %s", after);
}

static void sysfs_malformed_writes_change_nothing(struct kunit *test)
{
	static const char *const bad_modes[] = {
		"", "\n", "   ", "enforc", "off audit", "[off]", "0",
	};
	static const char *const bad_policies[] = {
		"", "\n", "\t\x20\n", "bogus", "strict bogus", "+bogus",
		"+strict -", "strict +path-tricks", "none strict",
	};
	const u32 classes = UTF8GUARD_CLASSES_DEFAULT;
	const size_t huge_size = PAGE_SIZE;
	char *huge = kunit_kmalloc(test, huge_size, GFP_KERNEL);
	size_t k;

	KUNIT_ASSERT_NOT_NULL(test, huge);
	for (k = 0; k < ARRAY_SIZE(bad_modes); k++) {
		KUNIT_EXPECT_EQ_MSG(test, policy_state_store_mode(bad_modes[k],
				    strlen(bad_modes[k])), -EINVAL, "\"%s\"",
				    bad_modes[k]);
		expect_policy(test, UTF8GUARD_MODE_ENFORCE, classes,
			      bad_modes[k]);
	}
	for (k = 0; k < ARRAY_SIZE(bad_policies); k++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    policy_state_store_policy(bad_policies[k],
				    strlen(bad_policies[k])), -EINVAL,
				    "\"%s\"", bad_policies[k]);
		expect_policy(test, UTF8GUARD_MODE_ENFORCE, classes,
			      bad_policies[k]);
	}
	/* NUL bytes inside a write. */
	KUNIT_EXPECT_EQ(test, policy_state_store_mode("audit\0", 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, policy_state_store_policy("none\0x", 6), -EINVAL);
	/* A page of junk. */
	memset(huge, 'x', huge_size);
	KUNIT_EXPECT_EQ(test, policy_state_store_policy(huge, huge_size),
			-EINVAL);
	expect_policy(test, UTF8GUARD_MODE_ENFORCE, classes, "junk");
}

static void sysfs_good_writes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, policy_state_store_mode("audit\n", 6), 0);
	expect_policy(test, UTF8GUARD_MODE_AUDIT, UTF8GUARD_CLASSES_DEFAULT,
		      "audit");
	KUNIT_EXPECT_EQ(test, policy_state_store_policy("-strict\n", 8), 0);
	expect_policy(test, UTF8GUARD_MODE_AUDIT, UTF8GUARD_CLASS_PATH_TRICKS,
		      "-strict");
	KUNIT_EXPECT_EQ(test, policy_state_store_policy("none", 4), 0);
	expect_policy(test, UTF8GUARD_MODE_AUDIT, 0, "none");
	KUNIT_EXPECT_EQ(test, policy_state_store_policy("+strict", 7), 0);
	expect_policy(test, UTF8GUARD_MODE_AUDIT, UTF8GUARD_CLASS_STRICT,
		      "+strict");
}

static struct kunit_case sysfs_test_cases[] = {
	KUNIT_CASE(sysfs_malformed_writes_change_nothing),
	KUNIT_CASE(sysfs_good_writes),
	{}
};

static struct kunit_suite sysfs_test_suite = {
	.name = "utf8guard_sysfs",
	.init = sysfs_test_init,
	.exit = sysfs_test_exit,
	.test_cases = sysfs_test_cases,
};
kunit_test_suite(sysfs_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the utf8guard sysfs store handlers");
