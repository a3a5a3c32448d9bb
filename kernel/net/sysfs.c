// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/utf8guard/net/ (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard-net):
 *
 *	enabled		0 or 1
 *	ports		watched destination ports, "tcp:80 udp:514 ..."
 *	forward		0 or 1: check forwarded packets too
 *	action		drop or reset: what a refused TCP segment does
 *	flows		TCP flows the hook keeps state for now
 *	flows_max	the most it holds (module parameter flows_max)
 *	stats/		checked, dropped, audited, one file per reason,
 *			unparsed, evicted, expired, nomem, reordered,
 *			full, nostate, mptcp, fragmented,
 *			connections_reset; reset (write 1: zero them)
 *
 * Every store checks CAP_SYS_ADMIN itself; a write that does not parse
 * returns -EINVAL and changes nothing; while utf8guard is locked, writes
 * return -EPERM.
 */
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "net_hook.h"

static struct kobject *net_kobj;
static struct kobject *stats_kobj;

static ssize_t store_result(int ret, size_t count)
{
	return ret ? ret : count;
}

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", net_enabled());
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(net_store_enabled(buf, count), count);
}

static ssize_t forward_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", net_forward());
}

static ssize_t forward_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(net_store_forward(buf, count), count);
}

static ssize_t action_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", net_action_name(net_action()));
}

static ssize_t action_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(net_store_action(buf, count), count);
}

static ssize_t ports_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	char *text = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	ssize_t n;

	if (!text)
		return -ENOMEM;
	net_format_ports(text, NET_PORTS_TEXT_MAX);
	n = sysfs_emit(buf, "%s\n", text);
	kfree(text);
	return n;
}

static ssize_t ports_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return store_result(net_store_ports(buf, count), count);
}

static ssize_t flows_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", net_flows_count());
}

static ssize_t flows_max_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", net_flows_max());
}

static struct kobj_attribute enabled_attribute = __ATTR_RW(enabled);
static struct kobj_attribute ports_attribute = __ATTR_RW(ports);
static struct kobj_attribute forward_attribute = __ATTR_RW(forward);
static struct kobj_attribute action_attribute = __ATTR_RW(action);
static struct kobj_attribute flows_attribute = __ATTR_RO(flows);
static struct kobj_attribute flows_max_attribute = __ATTR_RO(flows_max);

static struct attribute *net_attrs[] = {
	&enabled_attribute.attr,
	&ports_attribute.attr,
	&forward_attribute.attr,
	&action_attribute.attr,
	&flows_attribute.attr,
	&flows_max_attribute.attr,
	NULL,
};

static const struct attribute_group net_group = {
	.attrs = net_attrs,
};

/* stats/: one file per named counter, built at load. */
struct counter_attribute {
	struct kobj_attribute kobj_attr;
	enum net_counter counter;
};

static ssize_t counter_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct counter_attribute *ca =
		container_of(attr, struct counter_attribute, kobj_attr);

	return sysfs_emit(buf, "%llu\n", net_count_read(ca->counter));
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
	net_count_reset();
	return count;
}

static struct kobj_attribute reset_attribute = __ATTR_WO(reset);

static struct counter_attribute counters[NET_COUNTER_COUNT];
/* every named counter, reset, NULL */
static struct attribute *stats_attrs[NET_COUNTER_COUNT + 2];

static const struct attribute_group stats_group = {
	.attrs = stats_attrs,
};

static void build_stats_attrs(void)
{
	unsigned int k, n = 0;

	for (k = 0; k < NET_COUNTER_COUNT; k++) {
		struct counter_attribute *ca = &counters[k];
		const char *name = net_counter_name(k);

		if (!name)
			continue;
		sysfs_attr_init(&ca->kobj_attr.attr);
		ca->kobj_attr.attr.name = name;
		ca->kobj_attr.attr.mode = 0444;
		ca->kobj_attr.show = counter_show;
		ca->counter = k;
		stats_attrs[n++] = &ca->kobj_attr.attr;
	}
	stats_attrs[n++] = &reset_attribute.attr;
	stats_attrs[n] = NULL;
}

int net_sysfs_init(struct kobject *parent)
{
	int ret = -ENOMEM;

	build_stats_attrs();
	net_kobj = kobject_create_and_add("net", parent);
	if (!net_kobj)
		return -ENOMEM;
	stats_kobj = kobject_create_and_add("stats", net_kobj);
	if (!stats_kobj)
		goto put_net;
	ret = sysfs_create_group(net_kobj, &net_group);
	if (ret)
		goto put_stats;
	ret = sysfs_create_group(stats_kobj, &stats_group);
	if (ret)
		goto remove_net_group;
	return 0;

remove_net_group:
	sysfs_remove_group(net_kobj, &net_group);
put_stats:
	kobject_put(stats_kobj);
put_net:
	kobject_put(net_kobj);
	return ret;
}

void net_sysfs_exit(void)
{
	sysfs_remove_group(stats_kobj, &stats_group);
	sysfs_remove_group(net_kobj, &net_group);
	kobject_put(stats_kobj);
	kobject_put(net_kobj);
}
