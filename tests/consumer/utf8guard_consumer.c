// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_consumer.ko - test module that calls utf8guard.ko's exported
 * helpers, and nothing else of it, the way the hook modules will.
 *
 * /sys/kernel/debug/utf8guard_consumer/:
 *	check_name	write a name: the write fails with the helper's error
 *			(-EILSEQ when refused)
 *	check_path	the same through utf8guard_check_path()
 *	validate	write bytes, read back the first error report
 *	stream		each write is one chunk; read ends the stream and
 *			returns the report of every error, then resets
 *	judge		write bytes: scanned here with the snapshot's classes
 *			and judged by utf8guard_judge(), as a stream user does
 *
 * At load it also checks the exported core against the README's attack.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "utf8guard.h"

#define CONSUMER_MAX_INPUT 4096
#define REPORT_TEXT 2048

static struct dentry *dir;
static DEFINE_MUTEX(consumer_mutex);
static char report_text[REPORT_TEXT];
static size_t report_length;
static struct utf8guard_stream stream;

static void describe(const struct utf8guard_report *r, bool valid)
{
	if (valid) {
		report_length = scnprintf(report_text, REPORT_TEXT, "valid\n");
		return;
	}
	report_length += scnprintf(report_text + report_length,
				   REPORT_TEXT - report_length,
				   "offset=%llu length=%u reason=%s codepoint=%u shadow_length=%u path_trick=%d\n",
				   r->offset, r->length,
				   utf8guard_reason_name(r->reason),
				   r->codepoint, r->shadow_length,
				   r->path_trick);
}

static bool describe_error(const struct utf8guard_report *r, void *arg)
{
	describe(r, false);
	return true;
}

static void *copy_input(const char __user *ubuf, size_t count)
{
	if (count > CONSUMER_MAX_INPUT)
		return ERR_PTR(-E2BIG);
	return memdup_user(ubuf, count);
}

enum consumer_file { CHECK_NAME, CHECK_PATH, VALIDATE, STREAM, JUDGE };

static ssize_t consumer_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	enum consumer_file which = (uintptr_t)file->private_data;
	struct utf8guard_policy policy;
	struct utf8guard_report report;
	bool found;
	u8 *bytes;
	int ret = 0;

	bytes = copy_input(ubuf, count);
	if (IS_ERR(bytes))
		return PTR_ERR(bytes);
	mutex_lock(&consumer_mutex);
	switch (which) {
	case CHECK_NAME:
		ret = utf8guard_check_name(bytes, count, "consumer-name");
		break;
	case CHECK_PATH:
		ret = utf8guard_check_path(bytes, count, "consumer-path");
		break;
	case VALIDATE:
		report_length = 0;
		describe(&report, !utf8guard_first_error(bytes, count, &report));
		break;
	case STREAM:
		utf8guard_stream_feed(&stream, bytes, count, NULL, NULL);
		break;
	case JUDGE:
		policy = utf8guard_policy_get();
		found = utf8guard_first_violation(policy.classes, bytes, count,
						  &report);
		ret = utf8guard_judge(&policy, found ? &report : NULL, bytes,
				      count, "consumer-judge");
		break;
	}
	mutex_unlock(&consumer_mutex);
	kfree(bytes);
	return ret ? ret : count;
}

static ssize_t consumer_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	enum consumer_file which = (uintptr_t)file->private_data;
	ssize_t ret;

	mutex_lock(&consumer_mutex);
	if (which == STREAM && *ppos == 0) {
		report_length = 0;
		/* Errors found while feeding, then those decided at the end. */
		utf8guard_stream_end(&stream, NULL, NULL);
		report_length = scnprintf(report_text, REPORT_TEXT,
					  "errors=%llu consumed=%llu\n",
					  stream.errors, stream.consumed);
		if (stream.errors)
			describe(&stream.first, false);
		utf8guard_stream_init(&stream);
	}
	ret = simple_read_from_buffer(ubuf, count, ppos, report_text,
				      report_length);
	mutex_unlock(&consumer_mutex);
	return ret;
}

static int consumer_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return nonseekable_open(inode, file);
}

static const struct file_operations consumer_fops = {
	.owner = THIS_MODULE,
	.open = consumer_open,
	.read = consumer_read,
	.write = consumer_write,
};

/* Self-check of the exported core at load: the README's attack. */
static int __init self_check(void)
{
	static const u8 attack[] = { 0x2f, 0xc0, 0xae, 0x2e, 0x2f };
	struct utf8guard_report r;
	u64 errors;

	if (!utf8guard_first_error(attack, sizeof(attack), &r) ||
	    r.offset != 1 || r.length != 1 ||
	    r.reason != UTF8GUARD_REASON_OVERLONG || r.codepoint != 0x2e ||
	    r.shadow_length != 2 || !r.path_trick) {
		pr_err("exported core misreports 2f c0 ae 2e 2f\n");
		return -EINVAL;
	}
	errors = utf8guard_scan(attack, sizeof(attack), describe_error, NULL);
	if (errors != 2) {
		pr_err("exported scan found %llu errors in 2f c0 ae 2e 2f, expected 2\n",
		       errors);
		return -EINVAL;
	}
	return 0;
}

static int __init consumer_init(void)
{
	static const char *const names[] = {
		[CHECK_NAME] = "check_name",
		[CHECK_PATH] = "check_path",
		[VALIDATE] = "validate",
		[STREAM] = "stream",
		[JUDGE] = "judge",
	};
	uintptr_t k;
	int ret;

	ret = self_check();
	if (ret)
		return ret;
	utf8guard_stream_init(&stream);
	dir = debugfs_create_dir("utf8guard_consumer", NULL);
	for (k = 0; k < ARRAY_SIZE(names); k++)
		debugfs_create_file(names[k], 0600, dir, (void *)k,
				    &consumer_fops);
	pr_info("exports self-check passed\n");
	return 0;
}

static void __exit consumer_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(consumer_init);
module_exit(consumer_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test consumer of utf8guard.ko's exported helpers");
