// SPDX-License-Identifier: GPL-2.0
/*
 * The /sys/kernel/utf8guard/ control interface (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard):
 *
 *	mode		off audit [enforce]
 *	policy		enabled classes; a full list or +class / -class edits
 *	locked		0, or 1 once mode and policy are frozen until reboot
 *	validator	the validator paths this CPU runs: scalar [avx2]
 *	version		the module version
 *	unicode_version	the Unicode version of the character classes
 *	stats/		checked, rejected, audited, one counter per reason,
 *			and reset
 *
 * Every store checks CAP_SYS_ADMIN in the initial user namespace itself,
 * whatever the file mode says, and a write that does not parse returns
 * -EINVAL and changes nothing.
 */
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "utf8guard_unicode.h"
#include "utf8guard_version.h"
#include "policy_state.h"
#include "stats.h"
#include "sysfs.h"
#include "utf8guard.h"
#include "validator_state.h"

static struct kobject *root_kobj;

/**
 * utf8guard_kobject() - the /sys/kernel/utf8guard directory
 *
 * Hook modules add their own directory under it (e.g. fs/).  It exists
 * as long as utf8guard.ko is loaded, so as long as any module that uses
 * this symbol is.
 *
 * Context: any context.
 * Return: the kobject of /sys/kernel/utf8guard.
 */
struct kobject *utf8guard_kobject(void)
{
	return root_kobj;
}
EXPORT_SYMBOL_GPL(utf8guard_kobject);

static bool may_write(void)
{
	/* capable() checks against the initial user namespace. */
	return capable(CAP_SYS_ADMIN);
}

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	utf8guard_format_mode(utf8guard_policy_get().mode, text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t mode_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	int ret;

	if (!may_write())
		return -EPERM;
	ret = policy_state_store_mode(buf, count);
	return ret ? ret : count;
}

static ssize_t policy_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	utf8guard_format_policy(utf8guard_policy_get().classes, text,
				sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t policy_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int ret;

	if (!may_write())
		return -EPERM;
	ret = policy_state_store_policy(buf, count);
	return ret ? ret : count;
}

static ssize_t locked_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", utf8guard_locked());
}

static ssize_t locked_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	struct utf8guard_parse_error error;
	bool lock;

	if (!may_write())
		return -EPERM;
	if (!utf8guard_parse_flag(buf, count, &lock, &error))
		return -EINVAL;
	if (lock)
		return policy_state_lock() ? : count;
	/* Unlocking is only possible by rebooting. */
	return utf8guard_locked() ? -EPERM : count;
}

static ssize_t validator_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	char text[UTF8GUARD_POLICY_TEXT_MAX];

	validator_state_format(text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t validator_store(struct kobject *kobj,
			       struct kobj_attribute *attr, const char *buf,
			       size_t count)
{
	int ret;

	if (!may_write())
		return -EPERM;
	ret = validator_state_store(buf, count);
	return ret ? ret : count;
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", UTF8GUARD_VERSION);
}

static ssize_t unicode_version_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", utf8guard_unicode_version());
}

static struct kobj_attribute mode_attribute = __ATTR_RW(mode);
static struct kobj_attribute policy_attribute = __ATTR_RW(policy);
static struct kobj_attribute locked_attribute = __ATTR_RW(locked);
static struct kobj_attribute validator_attribute = __ATTR_RW(validator);
static struct kobj_attribute version_attribute = __ATTR_RO(version);
static struct kobj_attribute unicode_version_attribute =
	__ATTR_RO(unicode_version);

static struct attribute *control_attrs[] = {
	&mode_attribute.attr,
	&policy_attribute.attr,
	&locked_attribute.attr,
	&validator_attribute.attr,
	&version_attribute.attr,
	&unicode_version_attribute.attr,
	NULL,
};

static const struct attribute_group control_group = {
	.attrs = control_attrs,
};

/* stats/: one read-only file per counter, named at load time. */
struct counter_attribute {
	struct kobj_attribute kobj_attr;
	enum stat_counter counter;
};

static ssize_t counter_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct counter_attribute *ca =
		container_of(attr, struct counter_attribute, kobj_attr);

	return sysfs_emit(buf, "%llu\n", stats_read(ca->counter));
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct utf8guard_parse_error error;
	bool reset;

	if (!may_write())
		return -EPERM;
	if (!utf8guard_parse_flag(buf, count, &reset, &error) || !reset)
		return -EINVAL;
	stats_reset();
	return count;
}

static struct kobj_attribute reset_attribute = __ATTR_WO(reset);
static struct counter_attribute counter_attrs[STAT_COUNT];
/* Every counter but the reason "none", plus reset and the NULL end. */
static struct attribute *stats_attrs[STAT_COUNT + 1];

static const struct attribute_group stats_group = {
	.name = "stats",
	.attrs = stats_attrs,
};

static const char *counter_name(enum stat_counter counter)
{
	switch (counter) {
	case STAT_CHECKED:
		return "checked";
	case STAT_REJECTED:
		return "rejected";
	case STAT_AUDITED:
		return "audited";
	default:
		return utf8guard_reason_name(counter - STAT_REASON_FIRST);
	}
}

static void build_stats_attrs(void)
{
	unsigned int k, n = 0;

	for (k = 0; k < STAT_COUNT; k++) {
		struct counter_attribute *ca = &counter_attrs[k];

		if (k == STAT_REASON_FIRST + UTF8GUARD_REASON_NONE)
			continue;
		sysfs_attr_init(&ca->kobj_attr.attr);
		ca->kobj_attr.attr.name = counter_name(k);
		ca->kobj_attr.attr.mode = 0444;
		ca->kobj_attr.show = counter_show;
		ca->counter = k;
		stats_attrs[n++] = &ca->kobj_attr.attr;
	}
	stats_attrs[n++] = &reset_attribute.attr;
	stats_attrs[n] = NULL;
}

int sysfs_interface_init(void)
{
	int ret;

	build_stats_attrs();
	root_kobj = kobject_create_and_add("utf8guard", kernel_kobj);
	if (!root_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(root_kobj, &control_group);
	if (ret)
		goto fail;
	ret = sysfs_create_group(root_kobj, &stats_group);
	if (ret)
		goto fail_control;
	return 0;

fail_control:
	sysfs_remove_group(root_kobj, &control_group);
fail:
	kobject_put(root_kobj);
	return ret;
}

void sysfs_interface_exit(void)
{
	sysfs_remove_group(root_kobj, &stats_group);
	sysfs_remove_group(root_kobj, &control_group);
	kobject_put(root_kobj);
}
