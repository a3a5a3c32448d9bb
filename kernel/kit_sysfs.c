// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs directory of the hook kit (hook_kit.h):
 *
 *	<name>/<setting>	0644; a flag shows 0 or 1
 *	<name>/<status>		0444
 *	<name>/stats/<column>	the column summed over all rows
 *	<name>/stats/<reason>	one per reason but "none"
 *	<name>/stats/reset	0200; write 1 to zero every counter
 *	<name>/stats/<row>/<column>
 *
 * A hook module adds its directory with utf8guard_kit_attach(), which
 * also ties the module to the lock.
 *
 * Every store checks CAP_SYS_ADMIN in the initial user namespace itself,
 * whatever the file mode says; a write that does not parse returns
 * -EINVAL and changes nothing.
 */
/* utf8guard_kit_attach() logs in the name of the module it attaches. */
#undef pr_fmt
#define pr_fmt(fmt) fmt

#include <linux/capability.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "hook_kit.h"
#include "kit_settings.h"
#include "utf8guard.h"

enum counter_kind { COUNT_COLUMN, COUNT_CELL, COUNT_REASON };

struct counter_attribute {
	struct kobj_attribute kobj_attr;
	const struct utf8guard_kit_stats *stats;
	enum counter_kind kind;
	unsigned int row;
	unsigned int index;	/* column or reason */
};

/* What utf8guard_kit_add() builds, freed by utf8guard_kit_remove(). */
struct utf8guard_kit_attrs {
	struct attribute **attrs;
	struct attribute_group group;
	struct counter_attribute *counters;
	struct attribute **stats_attrs;
	struct attribute_group stats_group;
	struct attribute **row_attrs;
	struct attribute_group *row_groups;
	const struct attribute_group **row_group_list;
};

static ssize_t file_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct utf8guard_kit_file *file =
		container_of(attr, struct utf8guard_kit_file, attr);

	if (file->flag)
		return sysfs_emit(buf, "%d\n", utf8guard_kit_flag(file));
	return file->show(buf);
}

static ssize_t file_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	struct utf8guard_kit_file *file =
		container_of(attr, struct utf8guard_kit_file, attr);
	int ret;

	/* capable() checks against the initial user namespace. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kit_settings_store(file, buf, count);
	return ret ? ret : count;
}

static ssize_t counter_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct counter_attribute *ca =
		container_of(attr, struct counter_attribute, kobj_attr);
	u64 value;

	switch (ca->kind) {
	case COUNT_COLUMN:
		value = utf8guard_kit_read_column(ca->stats, ca->index);
		break;
	case COUNT_CELL:
		value = utf8guard_kit_read(ca->stats, ca->row, ca->index);
		break;
	default:
		value = utf8guard_kit_read_reason(ca->stats, ca->index);
		break;
	}
	return sysfs_emit(buf, "%llu\n", value);
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	struct utf8guard_kit *kit = container_of(attr, struct utf8guard_kit,
						 reset);
	struct utf8guard_parse_error error;
	bool reset;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!utf8guard_parse_flag(buf, count, &reset, &error) || !reset)
		return -EINVAL;
	utf8guard_kit_stats_reset(kit->stats);
	return count;
}

static struct attribute *file_init(struct utf8guard_kit_file *file,
				   umode_t mode)
{
	sysfs_attr_init(&file->attr.attr);
	file->attr.attr.name = file->name;
	file->attr.attr.mode = mode;
	file->attr.show = file_show;
	file->attr.store = mode & 0200 ? file_store : NULL;
	return &file->attr.attr;
}

static struct attribute *counter_init(struct counter_attribute *ca,
				      const struct utf8guard_kit_stats *stats,
				      const char *name, enum counter_kind kind,
				      unsigned int row, unsigned int index)
{
	sysfs_attr_init(&ca->kobj_attr.attr);
	ca->kobj_attr.attr.name = name;
	ca->kobj_attr.attr.mode = 0444;
	ca->kobj_attr.show = counter_show;
	ca->stats = stats;
	ca->kind = kind;
	ca->row = row;
	ca->index = index;
	return &ca->kobj_attr.attr;
}

static void attrs_free(struct utf8guard_kit_attrs *priv)
{
	if (!priv)
		return;
	kfree(priv->attrs);
	kfree(priv->counters);
	kfree(priv->stats_attrs);
	kfree(priv->row_attrs);
	kfree(priv->row_groups);
	kfree(priv->row_group_list);
	kfree(priv);
}

static struct utf8guard_kit_attrs *attrs_alloc(const struct utf8guard_kit *kit)
{
	const struct utf8guard_kit_stats *stats = kit->stats;
	unsigned int settings = kit->settings ? kit->settings->count : 0;
	unsigned int columns = 0, rows = 0, reasons = 0;
	struct utf8guard_kit_attrs *priv;

	if (stats) {
		columns = stats->column_count;
		rows = stats->rows ? stats->row_count : 0;
		reasons = stats->reason_count;
	}
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return NULL;
	priv->attrs = kcalloc(settings + kit->status_count + 1,
			      sizeof(*priv->attrs), GFP_KERNEL);
	priv->counters = kcalloc(columns * (rows + 1) + reasons,
				 sizeof(*priv->counters), GFP_KERNEL);
	/* Columns, reasons, reset, NULL. */
	priv->stats_attrs = kcalloc(columns + reasons + 2,
				    sizeof(*priv->stats_attrs), GFP_KERNEL);
	priv->row_attrs = kcalloc(rows * (columns + 1) + 1,
				  sizeof(*priv->row_attrs), GFP_KERNEL);
	priv->row_groups = kcalloc(rows + 1, sizeof(*priv->row_groups),
				   GFP_KERNEL);
	priv->row_group_list = kcalloc(rows + 1,
				       sizeof(*priv->row_group_list),
				       GFP_KERNEL);
	if (!priv->attrs || !priv->counters || !priv->stats_attrs ||
	    !priv->row_attrs || !priv->row_groups || !priv->row_group_list) {
		attrs_free(priv);
		return NULL;
	}
	return priv;
}

static void build_attrs(struct utf8guard_kit *kit)
{
	struct utf8guard_kit_attrs *priv = kit->priv;
	const struct utf8guard_kit_stats *stats = kit->stats;
	struct counter_attribute *ca = priv->counters;
	struct attribute **row_attrs = priv->row_attrs;
	unsigned int k, row, n = 0;

	for (k = 0; kit->settings && k < kit->settings->count; k++)
		priv->attrs[n++] = file_init(&kit->settings->files[k], 0644);
	for (k = 0; k < kit->status_count; k++)
		priv->attrs[n++] = file_init(&kit->status[k], 0444);
	priv->attrs[n] = NULL;
	priv->group.attrs = priv->attrs;
	if (!stats)
		return;

	n = 0;
	for (k = 0; k < stats->column_count; k++)
		priv->stats_attrs[n++] = counter_init(ca++, stats,
						      stats->columns[k],
						      COUNT_COLUMN, 0, k);
	for (k = 0; k < stats->reason_count; k++)
		if (k != UTF8GUARD_REASON_NONE)
			priv->stats_attrs[n++] =
				counter_init(ca++, stats,
					     utf8guard_reason_name(k),
					     COUNT_REASON, 0, k);
	sysfs_attr_init(&kit->reset.attr);
	kit->reset.attr.name = "reset";
	kit->reset.attr.mode = 0200;
	kit->reset.store = reset_store;
	priv->stats_attrs[n++] = &kit->reset.attr;
	priv->stats_attrs[n] = NULL;
	priv->stats_group.attrs = priv->stats_attrs;

	for (row = 0; stats->rows && row < stats->row_count; row++) {
		priv->row_groups[row].name = stats->rows[row];
		priv->row_groups[row].attrs = row_attrs;
		for (k = 0; k < stats->column_count; k++)
			*row_attrs++ = counter_init(ca++, stats,
						    stats->columns[k],
						    COUNT_CELL, row, k);
		*row_attrs++ = NULL;
		priv->row_group_list[row] = &priv->row_groups[row];
	}
	priv->row_group_list[row] = NULL;
}

/**
 * utf8guard_kit_add() - create a module's directory and its files
 * @kit: the directory's description; its settings initialised with
 *	utf8guard_kit_settings_init(), its stats with
 *	utf8guard_kit_stats_init()
 * @parent: where, e.g. utf8guard_kobject()
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM or another error of sysfs; nothing is left then.
 */
int utf8guard_kit_add(struct utf8guard_kit *kit, struct kobject *parent)
{
	int ret = -ENOMEM;

	kit->priv = attrs_alloc(kit);
	if (!kit->priv)
		return -ENOMEM;
	build_attrs(kit);
	kit->kobj = kobject_create_and_add(kit->name, parent);
	if (!kit->kobj)
		goto free_attrs;
	ret = sysfs_create_group(kit->kobj, &kit->priv->group);
	if (ret)
		goto put_kobj;
	if (!kit->stats)
		return 0;
	ret = -ENOMEM;
	kit->stats_kobj = kobject_create_and_add("stats", kit->kobj);
	if (!kit->stats_kobj)
		goto remove_group;
	ret = sysfs_create_group(kit->stats_kobj, &kit->priv->stats_group);
	if (ret)
		goto put_stats;
	ret = sysfs_create_groups(kit->stats_kobj,
				  kit->priv->row_group_list);
	if (ret)
		goto remove_stats_group;
	return 0;

remove_stats_group:
	sysfs_remove_group(kit->stats_kobj, &kit->priv->stats_group);
put_stats:
	kobject_put(kit->stats_kobj);
remove_group:
	sysfs_remove_group(kit->kobj, &kit->priv->group);
put_kobj:
	kobject_put(kit->kobj);
free_attrs:
	attrs_free(kit->priv);
	kit->priv = NULL;
	return ret;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_add);

/**
 * utf8guard_kit_remove() - undo utf8guard_kit_add()
 * @kit: a directory utf8guard_kit_add() created
 *
 * Waits for every show and store of its files to return.
 *
 * Context: process context; may sleep.
 */
void utf8guard_kit_remove(struct utf8guard_kit *kit)
{
	if (kit->stats) {
		sysfs_remove_groups(kit->stats_kobj,
				    kit->priv->row_group_list);
		sysfs_remove_group(kit->stats_kobj, &kit->priv->stats_group);
		kobject_put(kit->stats_kobj);
	}
	sysfs_remove_group(kit->kobj, &kit->priv->group);
	kobject_put(kit->kobj);
	attrs_free(kit->priv);
	kit->priv = NULL;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_remove);

/**
 * utf8guard_kit_attach() - add a hook module's directory and tie it to the lock
 * @kit: the directory's description, prepared as for utf8guard_kit_add()
 * @parent: where: utf8guard_kobject(), /sys/kernel/utf8guard (the caller
 *	asks sysfs.c, so that the kit calls nothing above it)
 * @owner: the hook module (THIS_MODULE)
 *
 * Creates @parent/<name> (utf8guard_kit_add()), logging in @owner's name
 * if it cannot, then
 * attaches @owner to the lock (utf8guard_hook_attach()).  Call it from
 * the hook module's init once its hooks are in place, and
 * utf8guard_kit_detach() from its exit.
 *
 * Context: process context; may sleep.
 * Return: 0, or the error of utf8guard_kit_add() or
 * utf8guard_hook_attach(); nothing is left then.
 */
int utf8guard_kit_attach(struct utf8guard_kit *kit, struct kobject *parent,
			 struct module *owner)
{
	int ret;

	ret = utf8guard_kit_add(kit, parent);
	if (ret) {
		pr_err("%s: cannot create /sys/kernel/utf8guard/%s: %d\n",
		       module_name(owner), kit->name, ret);
		return ret;
	}
	ret = utf8guard_hook_attach(owner);
	if (ret)
		utf8guard_kit_remove(kit);
	return ret;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_attach);

/**
 * utf8guard_kit_detach() - undo utf8guard_kit_attach()
 * @kit: the directory given to utf8guard_kit_attach()
 * @owner: the module given to it
 *
 * Context: process context (module exit); may sleep.
 */
void utf8guard_kit_detach(struct utf8guard_kit *kit, struct module *owner)
{
	utf8guard_hook_detach(owner);
	utf8guard_kit_remove(kit);
}
EXPORT_SYMBOL_GPL(utf8guard_kit_detach);
