// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/utf8guard/fs/ (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard-fs):
 *
 *	enabled			0 or 1
 *	fstypes			"*" or filesystem type names
 *	check_symlink_target	0 or 1
 *	missed			hooked operations the kernel did not check
 *	unhooked		hooks not in effect right now (a self-test)
 *	stats/			checked, rejected, audited, one file per
 *				reason, reset, and <op>/{checked,rejected,
 *				audited} per operation
 *
 * Every store checks CAP_SYS_ADMIN itself; a write that does not parse
 * returns -EINVAL and changes nothing; while utf8guard is locked, writes
 * return -EPERM.
 */
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "fs_hook.h"

static struct kobject *fs_kobj;
static struct kobject *stats_kobj;

static ssize_t store_result(int ret, size_t count)
{
	return ret ? ret : count;
}

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", fs_enabled());
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(fs_store_enabled(buf, count), count);
}

static ssize_t check_symlink_target_show(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 char *buf)
{
	return sysfs_emit(buf, "%d\n", fs_check_symlink_target());
}

static ssize_t check_symlink_target_store(struct kobject *kobj,
					  struct kobj_attribute *attr,
					  const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(fs_store_check_symlink_target(buf, count), count);
}

static ssize_t fstypes_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	char text[FS_FSTYPES_TEXT_MAX];

	fs_format_fstypes(text, sizeof(text));
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t fstypes_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(fs_store_fstypes(buf, count), count);
}

static ssize_t missed_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%llu\n", fs_probes_missed());
}

static ssize_t unhooked_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", fs_probes_unhooked());
}

static struct kobj_attribute enabled_attribute = __ATTR_RW(enabled);
static struct kobj_attribute fstypes_attribute = __ATTR_RW(fstypes);
static struct kobj_attribute check_symlink_target_attribute =
	__ATTR_RW(check_symlink_target);
static struct kobj_attribute missed_attribute = __ATTR_RO(missed);
static struct kobj_attribute unhooked_attribute = __ATTR_RO(unhooked);

static struct attribute *fs_attrs[] = {
	&enabled_attribute.attr,
	&fstypes_attribute.attr,
	&check_symlink_target_attribute.attr,
	&missed_attribute.attr,
	&unhooked_attribute.attr,
	NULL,
};

static const struct attribute_group fs_group = {
	.attrs = fs_attrs,
};

/* stats/: counters, built at load from the operation and reason names. */
enum counter_kind { COUNT_TOTAL, COUNT_OP, COUNT_REASON };

struct counter_attribute {
	struct kobj_attribute kobj_attr;
	enum counter_kind kind;
	unsigned int index;	/* operation or reason */
	enum fs_outcome outcome;
};

static ssize_t counter_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct counter_attribute *ca =
		container_of(attr, struct counter_attribute, kobj_attr);
	u64 value;

	switch (ca->kind) {
	case COUNT_TOTAL:
		value = fs_count_read_total(ca->outcome);
		break;
	case COUNT_OP:
		value = fs_count_read(ca->index, ca->outcome);
		break;
	default:
		value = fs_count_read_reason(ca->index);
		break;
	}
	return sysfs_emit(buf, "%llu\n", value);
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct utf8guard_parse_error error;
	bool reset;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!utf8guard_parse_flag(buf, count, &reset, &error) || !reset)
		return -EINVAL;
	fs_count_reset();
	return count;
}

static struct kobj_attribute reset_attribute = __ATTR_WO(reset);

/* Totals, one per reason but "none", reset, NULL. */
#define STATS_ATTRS (FS_OUTCOME_COUNT + UTF8GUARD_REASON_COUNT - 1 + 2)

static struct counter_attribute total_counters[FS_OUTCOME_COUNT];
static struct counter_attribute reason_counters[UTF8GUARD_REASON_COUNT];
static struct counter_attribute op_counters[FS_OP_COUNT][FS_OUTCOME_COUNT];
static struct attribute *stats_attrs[STATS_ATTRS];
static struct attribute *op_attrs[FS_OP_COUNT][FS_OUTCOME_COUNT + 1];

static const struct attribute_group stats_group = {
	.attrs = stats_attrs,
};

static struct attribute_group op_groups[FS_OP_COUNT];
static const struct attribute_group *op_group_list[FS_OP_COUNT + 1];

static struct attribute *counter_init(struct counter_attribute *ca,
				      const char *name, enum counter_kind kind,
				      unsigned int index,
				      enum fs_outcome outcome)
{
	sysfs_attr_init(&ca->kobj_attr.attr);
	ca->kobj_attr.attr.name = name;
	ca->kobj_attr.attr.mode = 0444;
	ca->kobj_attr.show = counter_show;
	ca->kind = kind;
	ca->index = index;
	ca->outcome = outcome;
	return &ca->kobj_attr.attr;
}

static void build_stats_attrs(void)
{
	unsigned int k, op, n = 0;

	for (k = 0; k < FS_OUTCOME_COUNT; k++)
		stats_attrs[n++] = counter_init(&total_counters[k],
						fs_outcome_name(k),
						COUNT_TOTAL, 0, k);
	for (k = 0; k < UTF8GUARD_REASON_COUNT; k++)
		if (k != UTF8GUARD_REASON_NONE)
			stats_attrs[n++] =
				counter_init(&reason_counters[k],
					     utf8guard_reason_name(k),
					     COUNT_REASON, k, FS_CHECKED);
	stats_attrs[n++] = &reset_attribute.attr;
	stats_attrs[n] = NULL;

	for (op = 0; op < FS_OP_COUNT; op++) {
		for (k = 0; k < FS_OUTCOME_COUNT; k++)
			op_attrs[op][k] = counter_init(&op_counters[op][k],
						       fs_outcome_name(k),
						       COUNT_OP, op, k);
		op_attrs[op][k] = NULL;
		op_groups[op].name = fs_op_name(op);
		op_groups[op].attrs = op_attrs[op];
		op_group_list[op] = &op_groups[op];
	}
	op_group_list[op] = NULL;
}

int fs_sysfs_init(struct kobject *parent)
{
	int ret = -ENOMEM;

	build_stats_attrs();
	fs_kobj = kobject_create_and_add("fs", parent);
	if (!fs_kobj)
		return -ENOMEM;
	stats_kobj = kobject_create_and_add("stats", fs_kobj);
	if (!stats_kobj)
		goto put_fs;
	ret = sysfs_create_group(fs_kobj, &fs_group);
	if (ret)
		goto put_stats;
	ret = sysfs_create_group(stats_kobj, &stats_group);
	if (ret)
		goto remove_fs_group;
	ret = sysfs_create_groups(stats_kobj, op_group_list);
	if (ret)
		goto remove_stats_group;
	return 0;

remove_stats_group:
	sysfs_remove_group(stats_kobj, &stats_group);
remove_fs_group:
	sysfs_remove_group(fs_kobj, &fs_group);
put_stats:
	kobject_put(stats_kobj);
put_fs:
	kobject_put(fs_kobj);
	return ret;
}

void fs_sysfs_exit(void)
{
	sysfs_remove_groups(stats_kobj, op_group_list);
	sysfs_remove_group(stats_kobj, &stats_group);
	sysfs_remove_group(fs_kobj, &fs_group);
	kobject_put(stats_kobj);
	kobject_put(fs_kobj);
}
