/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hook kit: what every utf8guard module with a directory under
 * /sys/kernel/utf8guard has in common, kept once in utf8guard.ko and
 * exported to the hook modules (Documentation/kernel-api.rst).
 *
 *	struct utf8guard_kit_stats	per-CPU counters, a table of rows and
 *					columns plus one per reason
 *					(kit_stats.c)
 *	struct utf8guard_kit_settings	0/1 flags and text settings, the
 *					mutex of their writers, refused while
 *					utf8guard is locked, and a notifier
 *					chain told of every store
 *					(kit_settings.c)
 *	struct utf8guard_kit_lines	a text setting of one entry per line:
 *					the checks and log lines of a write
 *					around the module's parse of each
 *					line (kit_lines.c)
 *	struct utf8guard_kit		a sysfs directory: the settings, the
 *					read-only status files and stats/
 *					with its reset (kit_sysfs.c); a hook
 *					module's, attached to the lock with
 *					utf8guard_kit_attach()
 *	UTF8GUARD_KIT_FILE_PARAM()	a setting's load-time module
 *					parameter (UTF8GUARD_KIT_PARAM():
 *					one the module applies itself)
 *
 * A module declares these statically and hands them to the kit; its own
 * code keeps only what it hooks and checks.
 */
#ifndef UTF8GUARD_HOOK_KIT_H
#define UTF8GUARD_HOOK_KIT_H

#include <linux/kobject.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/types.h>

#include "utf8guard_counters.h"

struct module;

/**
 * struct utf8guard_kit_stats - counters shown in a stats/ directory
 * @columns: names of the counters of a row, shown in stats/ as the sum
 *	over all rows, and in stats/<row>/ per row
 * @column_count: number of @columns
 * @rows: names of the rows, the subdirectories of stats/; NULL for one
 *	row without a subdirectory
 * @row_count: number of @rows (ignored when @rows is NULL)
 * @reason_count: counters per reason (enum utf8guard_reason) after the
 *	table, shown as stats/<reason name>, all but the reason "none"
 * @counters: private: the counter set
 * @reason_first: private: index of the first reason counter
 *
 * Counter k of row r has the index r * @column_count + k, the reasons
 * follow the table; with one row, a counter's index is its column.
 */
struct utf8guard_kit_stats {
	const char *const *columns;
	unsigned int column_count;
	const char *const *rows;
	unsigned int row_count;
	unsigned int reason_count;
	struct utf8guard_counters counters;
	unsigned int reason_first;
};

int utf8guard_kit_stats_init(struct utf8guard_kit_stats *stats);
void utf8guard_kit_stats_destroy(struct utf8guard_kit_stats *stats);
u64 utf8guard_kit_read(const struct utf8guard_kit_stats *stats,
		       unsigned int row, unsigned int column);
u64 utf8guard_kit_read_column(const struct utf8guard_kit_stats *stats,
			      unsigned int column);
u64 utf8guard_kit_read_reason(const struct utf8guard_kit_stats *stats,
			      unsigned int reason);
void utf8guard_kit_stats_reset(struct utf8guard_kit_stats *stats);

/**
 * utf8guard_kit_count() - count one event in a table cell
 * @stats: an initialised set
 * @row: the row, 0 with a single row
 * @column: the column; with a single row, any index of the set
 *
 * Context: any context; does not sleep.
 */
static inline void utf8guard_kit_count(struct utf8guard_kit_stats *stats,
				       unsigned int row, unsigned int column)
{
	utf8guard_counters_inc(&stats->counters,
			       row * stats->column_count + column);
}

/**
 * utf8guard_kit_count_reason() - count one event of a reason
 * @stats: an initialised set
 * @reason: an enum utf8guard_reason; one the set has no counter for is
 *	not counted
 *
 * Context: any context; does not sleep.
 */
static inline void
utf8guard_kit_count_reason(struct utf8guard_kit_stats *stats,
			   unsigned int reason)
{
	if (reason < stats->reason_count)
		utf8guard_counters_inc(&stats->counters,
				       stats->reason_first + reason);
}

struct utf8guard_kit_settings;

/*
 * Added to a settings notifier's action (the file's index): a 0/1 setting
 * is about to become 1, not stored yet.  The call after the store follows.
 */
#define UTF8GUARD_KIT_TURNING_ON	0x100

/**
 * struct utf8guard_kit_file - one file of a module's sysfs directory
 * @name: the file name
 * @flag: a 0/1 setting the kit keeps in @value, shown as "0\n" or "1\n",
 *	stored with utf8guard_hook_store_flag(); the callbacks unused
 * @value: the flag's value; read it with utf8guard_kit_flag().  Its
 *	initialiser is the default, which UTF8GUARD_KIT_FILE_PARAM() lets a
 *	module parameter replace before the module's init runs
 * @show: for another file: sysfs_emit() its text into @buf
 * @store: for a setting that honours utf8guard_locked() itself
 *	(utf8guard.ko's own): parse and apply the written bytes, and return
 *	0, or -EINVAL (nothing changed) or -EPERM (locked); NULL with @parse
 * @parse: for a text setting the kit stores: parse @len bytes of @text
 *	into *@parsed and return 0, or -EINVAL having logged why (a write
 *	refused or, @at_load, the module parameter), or -ENOMEM; called
 *	under the settings' @lock, before the kit checks utf8guard_locked()
 *	(a write that does not parse is -EINVAL, locked or not)
 * @apply: make what @parse returned the setting's value (it is the
 *	setting's from then on) and log a change unless @at_load; called
 *	under the lock, only while not locked or @at_load
 * @release: free what @parse returned when the lock refuses it; NULL if
 *	there is nothing to free
 * @param: for a text setting: the text utf8guard_kit_settings_init()
 *	applies, @at_load; its initialiser is the default, which
 *	UTF8GUARD_KIT_FILE_PARAM() lets a module parameter replace; NULL to
 *	apply none
 * @attr: private: the sysfs attribute
 * @path: private: "<directory>/<name>", for the log lines of a flag
 * @settings: private: the settings it belongs to, NULL for a status file
 *
 * Every store checks CAP_SYS_ADMIN in the initial user namespace first,
 * whatever the file mode says, and returns the number of bytes written
 * on success.  A setting with @parse returns -EPERM while
 * utf8guard_locked() and changes nothing.
 */
struct utf8guard_kit_file {
	const char *name;
	bool flag;
	bool value;
	ssize_t (*show)(char *buf);
	int (*store)(const char *text, size_t len);
	int (*parse)(const char *text, size_t len, bool at_load,
		     void **parsed);
	void (*apply)(void *parsed, bool at_load);
	void (*release)(void *parsed);
	char *param;
	struct kobj_attribute attr;
	char path[40];
	struct utf8guard_kit_settings *settings;
};

/**
 * struct utf8guard_kit_settings - a module's writable settings
 * @files: the settings, mode 0644
 * @count: number of @files
 * @lock: serialises the writers of every setting; the kit holds it
 *	around a text setting's @parse and @apply
 * @notifier: private: told of each successful store, with the index of
 *	the file in @files as the action
 */
struct utf8guard_kit_settings {
	struct utf8guard_kit_file *files;
	unsigned int count;
	struct mutex lock;
	struct blocking_notifier_head notifier;
};

int utf8guard_kit_settings_init(struct utf8guard_kit_settings *settings,
				const char *dir);
int utf8guard_kit_notifier_register(struct utf8guard_kit_settings *settings,
				    struct notifier_block *nb);
int utf8guard_kit_notifier_unregister(struct utf8guard_kit_settings *settings,
				      struct notifier_block *nb);

/**
 * struct utf8guard_kit_lines - a text setting of one entry per line
 * @module: the module's name (KBUILD_MODNAME), which starts its log lines
 * @path: the setting under /sys/kernel/utf8guard, e.g. "fs/mounts"
 * @param: its module parameter, e.g. "mounts"
 * @max_lines: the most non-empty lines a write may have
 * @no_entry: why a write without one is refused
 * @not_yet: when a line skipped at load may be written again, after
 *	"write it to <path> once", e.g. "it is mounted"
 * @full: why a write is refused whose entries would not fit in the page
 *	the setting is read back from
 * @check: NULL, or the check of every write before any other: why it is
 *	refused, or NULL
 * @line: parse @len bytes of @line (no newline) into @data and return
 *	NULL, or why not, setting *@not_yet if what it names may be there
 *	later (at load, the line is then skipped with a warning)
 * @fits: whether the entries in @data would fit in the page
 *
 * Given to utf8guard_kit_parse_lines() by the setting's @parse.
 */
struct utf8guard_kit_lines {
	const char *module;
	const char *path;
	const char *param;
	unsigned int max_lines;
	const char *no_entry;
	const char *not_yet;
	const char *full;
	const char *(*check)(void);
	const char *(*line)(void *data, const char *line, size_t len,
			    bool *not_yet);
	bool (*fits)(const void *data);
};

int utf8guard_kit_parse_lines(const struct utf8guard_kit_lines *lines,
			      const char *text, size_t len, bool at_load,
			      void *data);

/**
 * utf8guard_kit_flag() - the value of a 0/1 setting
 * @file: a file with @flag set
 *
 * Context: any context; lockless.
 * Return: the value.
 */
static inline bool utf8guard_kit_flag(const struct utf8guard_kit_file *file)
{
	return READ_ONCE(file->value);
}

/**
 * struct utf8guard_kit - a module's directory under /sys/kernel/utf8guard
 * @name: the directory name, e.g. "fs"
 * @settings: its writable files, or NULL
 * @status: its read-only files (@show only), or NULL
 * @status_count: number of @status files
 * @stats: what stats/ shows and stats/reset zeroes, or NULL for no stats/
 * @kobj: private: the directory
 * @stats_kobj: private: stats/
 * @reset: private: stats/reset
 * @priv: private: the attributes built for the directory
 */
struct utf8guard_kit {
	const char *name;
	struct utf8guard_kit_settings *settings;
	struct utf8guard_kit_file *status;
	unsigned int status_count;
	struct utf8guard_kit_stats *stats;
	struct kobject *kobj;
	struct kobject *stats_kobj;
	struct kobj_attribute reset;
	struct utf8guard_kit_attrs *priv;
};

int utf8guard_kit_add(struct utf8guard_kit *kit, struct kobject *parent);
void utf8guard_kit_remove(struct utf8guard_kit *kit);
int utf8guard_kit_attach(struct utf8guard_kit *kit, struct kobject *parent,
			 struct module *owner);
void utf8guard_kit_detach(struct utf8guard_kit *kit, struct module *owner);

/**
 * UTF8GUARD_KIT_PARAM() - a module parameter read once, at load
 * @name: the parameter name; its value is in the variable name##_param
 * @type: its moduleparam type (bool, charp, ...)
 * @desc: what modinfo says of it
 *
 * For a setting whose module applies the parameter itself (utf8guard.ko,
 * before its directory exists); a kit setting's is
 * UTF8GUARD_KIT_FILE_PARAM().  Not shown under /sys/module: the setting's
 * file under /sys/kernel/utf8guard takes over once loaded.
 */
#define UTF8GUARD_KIT_PARAM(name, type, desc)			\
	module_param_named(name, name##_param, type, 0);	\
	MODULE_PARM_DESC(name, desc)

/**
 * UTF8GUARD_KIT_FILE_PARAM() - a kit setting's module parameter, read at load
 * @name: the parameter name
 * @file: the setting, an element of the module's static array of
 *	struct utf8guard_kit_file
 * @type: bool for a 0/1 setting (the parameter sets its @value before
 *	the module's init), charp for a text setting (it sets its @param,
 *	which utf8guard_kit_settings_init() applies)
 * @desc: what modinfo says of it
 *
 * Not shown under /sys/module: the setting's file under
 * /sys/kernel/utf8guard takes over once loaded.
 */
#define UTF8GUARD_KIT_FILE_PARAM(name, file, type, desc)		\
	module_param_named(name, __UTF8GUARD_KIT_FILE_PARAM_##type(file), \
			   type, 0);					\
	MODULE_PARM_DESC(name, desc)
#define __UTF8GUARD_KIT_FILE_PARAM_bool(file)	((file).value)
#define __UTF8GUARD_KIT_FILE_PARAM_charp(file)	((file).param)

#endif /* UTF8GUARD_HOOK_KIT_H */
