// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utf8guard_fs_marks: the overlay marks' lock-free pool
 * (kernel/fs/overlay_marks.c, compiled in here, statics and all): a mark
 * is found by its task only, given back once, missed and counted when the
 * task's window is full, taken by the forgetting from under its owner,
 * and seen by other tasks' copy-up checks.  Other tasks are stand-ins:
 * owner words of addresses no task has.
 */
#include <kunit/test.h>
#include <linux/fs.h>

#include "overlay_marks.c"

/* Stand-ins for other tasks: never dereferenced, never a real task. */
static const long other_task = 0x1000;
static const long third_task = 0x2000;

static struct qstr name_of(const char *s)
{
	return (struct qstr)QSTR_INIT(s, strlen(s));
}

/* A dentry with a name, an inode and a super block, never used otherwise. */
struct fake_dentry {
	struct dentry dentry;
	struct inode inode;
	struct super_block sb;
};

static struct fake_dentry *fake(struct kunit *test, const char *name)
{
	struct fake_dentry *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->dentry.d_name = name_of(name);
	f->dentry.d_inode = &f->inode;
	f->dentry.d_sb = &f->sb;
	return f;
}

static bool key_is(const struct mark *m, void *arg)
{
	return m->key == arg;
}

static bool name_is(const struct mark *m, void *arg)
{
	const struct qstr *name = arg;

	return m->len == name->len &&
	       m->name_hash == fs_overlay_name_hash(name);
}

static int marks_test_init(struct kunit *test)
{
	fs_overlay_marks_init();
	fs_overlay_marks_forget();
	return 0;
}

static void marks_test_exit(struct kunit *test)
{
	fs_overlay_marks_forget();
}

/* A mark is found while it lives, by its key and its name, then not. */
static void marks_add_find_drop(struct kunit *test)
{
	struct qstr other = name_of("b\xc0\xae");
	struct fake_dentry *f = fake(test, "a\xc0\xae");
	int key;

	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_any());
	KUNIT_ASSERT_TRUE(test, fs_overlay_mark_add(MARK_OP, MARK_OP_RENAME,
						    &key, &f->dentry, true));
	KUNIT_EXPECT_TRUE(test, fs_overlay_marks_any());
	KUNIT_EXPECT_TRUE(test, fs_overlay_marks_find(key_is, &key));
	KUNIT_EXPECT_TRUE(test, fs_overlay_marks_find(name_is,
						      &f->dentry.d_name));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(name_is, &other));
	/* Wrong kind, then wrong key: nothing goes. */
	KUNIT_EXPECT_FALSE(test, fs_overlay_mark_drop(MARK_COPY_UP, &key));
	KUNIT_EXPECT_FALSE(test, fs_overlay_mark_drop(MARK_OP, f));
	KUNIT_EXPECT_TRUE(test, fs_overlay_marks_find(key_is, &key));
	KUNIT_EXPECT_TRUE(test, fs_overlay_mark_drop(MARK_OP, &key));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(key_is, &key));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_any());
	/* A second drop finds nothing, and counts nothing twice. */
	KUNIT_EXPECT_FALSE(test, fs_overlay_mark_drop(MARK_OP, &key));
	KUNIT_EXPECT_EQ(test, atomic_read(&marks_used), 0);
}

/* Another task's mark in the window is not this task's. */
static void marks_other_task_not_found(struct kunit *test)
{
	struct fake_dentry *f = fake(test, "x");
	unsigned int s;
	int key;

	KUNIT_ASSERT_TRUE(test, fs_overlay_mark_add(MARK_OP, MARK_OP_CREATE,
						    &key, &f->dentry, true));
	s = window_slot(0);
	KUNIT_ASSERT_EQ(test, atomic_long_read(&owners[s]), (long)current);
	/* As if the forgetting gave it back and another task took it. */
	atomic_long_set(&owners[s], other_task);
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(key_is, &key));
	fs_overlay_mark_drop(MARK_OP, &key);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&owners[s]), other_task);
	atomic_long_set(&owners[s], (long)current);
	fs_overlay_mark_drop(MARK_OP, &key);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&owners[s]), 0L);
}

/* A full window: no mark, even with a free slot just past it. */
static void marks_full_window_missed(struct kunit *test)
{
	struct fake_dentry *f = fake(test, "\xed\xa0\x80");
	unsigned int k, last = window_slot(MARKS_WINDOW - 1);
	int key;

	for (k = 0; k < MARKS_WINDOW; k++)
		atomic_long_set(&owners[window_slot(k)], other_task);
	KUNIT_ASSERT_EQ(test, atomic_long_read(&owners[window_slot(k)]), 0L);
	KUNIT_EXPECT_FALSE(test, fs_overlay_mark_add(MARK_OP, MARK_OP_REMOVE,
						     &key, &f->dentry, false));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&owners[window_slot(k)]), 0L);
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(key_is, &key));
	/* The window's last slot, once free, is. */
	atomic_long_set(&owners[last], 0);
	KUNIT_EXPECT_TRUE(test, fs_overlay_mark_add(MARK_OP, MARK_OP_REMOVE,
						    &key, &f->dentry, false));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&owners[last]), (long)current);
	KUNIT_EXPECT_TRUE(test, fs_overlay_marks_find(key_is, &key));
	fs_overlay_mark_drop(MARK_OP, &key);
	for (k = 0; k < MARKS_WINDOW; k++)
		atomic_long_set(&owners[window_slot(k)], 0);
}

/* The forgetting takes every mark, its owner's and others'. */
static void marks_forget_all(struct kunit *test)
{
	struct fake_dentry *f = fake(test, "y");
	int key;

	KUNIT_ASSERT_TRUE(test, fs_overlay_mark_add(MARK_COPY_UP,
						    MARK_OP_CREATE, &f->dentry,
						    &f->dentry, false));
	KUNIT_ASSERT_TRUE(test, fs_overlay_mark_add(MARK_OP, MARK_OP_LINK,
						    &key, &f->dentry, true));
	KUNIT_EXPECT_EQ(test, atomic_read(&marks_used), 2);
	KUNIT_EXPECT_FALSE(test, bitmap_empty(copy_up_slots, MARKS_MAX));
	fs_overlay_marks_forget();
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_any());
	KUNIT_EXPECT_TRUE(test, bitmap_empty(copy_up_slots, MARKS_MAX));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(key_is, &key));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_find(key_is, &f->dentry));
	/* Its owner's drops afterwards change nothing. */
	fs_overlay_mark_drop(MARK_OP, &key);
	fs_overlay_mark_drop(MARK_COPY_UP, &f->dentry);
	KUNIT_EXPECT_EQ(test, atomic_read(&marks_used), 0);
}

/* Copy-ups of an inode by another task are seen; one's own are not. */
static void marks_copying_up(struct kunit *test)
{
	struct fake_dentry *f = fake(test, "z"), *g = fake(test, "w");
	unsigned int s;

	KUNIT_EXPECT_FALSE(test, fs_overlay_copying_up(&f->inode));
	KUNIT_ASSERT_TRUE(test, fs_overlay_mark_add(MARK_COPY_UP,
						    MARK_OP_CREATE, &f->dentry,
						    &f->dentry, false));
	KUNIT_EXPECT_FALSE(test, fs_overlay_copying_up(&f->inode));
	s = window_slot(0);
	atomic_long_set(&owners[s], third_task);
	KUNIT_EXPECT_TRUE(test, fs_overlay_copying_up(&f->inode));
	KUNIT_EXPECT_FALSE(test, fs_overlay_copying_up(&g->inode));
	/* An operation's mark on that inode is no copy-up. */
	pool[s].kind = MARK_OP;
	KUNIT_EXPECT_FALSE(test, fs_overlay_copying_up(&f->inode));
	pool[s].kind = MARK_COPY_UP;
	/* A slot being written or given back is nobody's. */
	atomic_long_set(&owners[s], MARK_BUSY);
	KUNIT_EXPECT_FALSE(test, fs_overlay_copying_up(&f->inode));
	atomic_long_set(&owners[s], (long)current);
	fs_overlay_mark_drop(MARK_COPY_UP, &f->dentry);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(copy_up_slots, MARKS_MAX));
	KUNIT_EXPECT_FALSE(test, fs_overlay_marks_any());
}

/* Names are told apart by length and keyed hash. */
static void marks_name_hash(struct kunit *test)
{
	struct qstr a = name_of("legacy\xff"), b = name_of("legacy\xfe");
	struct qstr a2 = name_of("legacy\xff");

	KUNIT_EXPECT_EQ(test, fs_overlay_name_hash(&a),
			fs_overlay_name_hash(&a2));
	KUNIT_EXPECT_NE(test, fs_overlay_name_hash(&a),
			fs_overlay_name_hash(&b));
}

static struct kunit_case marks_cases[] = {
	KUNIT_CASE(marks_add_find_drop),
	KUNIT_CASE(marks_other_task_not_found),
	KUNIT_CASE(marks_full_window_missed),
	KUNIT_CASE(marks_forget_all),
	KUNIT_CASE(marks_copying_up),
	KUNIT_CASE(marks_name_hash),
	{}
};

static struct kunit_suite marks_suite = {
	.name = "utf8guard_fs_marks",
	.init = marks_test_init,
	.exit = marks_test_exit,
	.test_cases = marks_cases,
};
kunit_test_suite(marks_suite);

MODULE_DESCRIPTION("KUnit tests of utf8guard_fs's overlay marks");
MODULE_LICENSE("GPL");
