// SPDX-License-Identifier: GPL-2.0
/*
 * Exemptions by cgroup (fs/exempt).
 *
 * An entry names a cgroup v2 directory.  A task in it, or in one of its
 * descendants, may create the names the policy refuses: each such name
 * is let through, counted in fs/stats/exempted (and <op>/exempted) and
 * logged "exempt ..." as a refusal would be, with the entry at the end.
 *
 * The path is resolved when the entry is written, with
 * cgroup_get_from_path(), which walks the default (v2) hierarchy from the
 * root of the writer's cgroup namespace (current_cgns_cgroup_dfl(), on
 * 6.1.192 and 6.12 alike): the entry holds a reference to that struct
 * cgroup, dropped when the entry goes, after a grace period.  The hook
 * never looks a path up: under RCU it takes the current task's cgroup on
 * the default hierarchy (task_dfl_cgroup()) and tests it against each
 * entry with cgroup_is_descendant(), at most FS_EXEMPT_MAX of them, only
 * for a name the policy refuses; with no entry at all a static key keeps
 * even that out of the hook.
 *
 * A cgroup removed (rmdir, a unit stopped) while an entry holds it stays
 * allocated until the entry goes, and matches nobody: no task can be in
 * it.  Its entry is no longer shown, and the next write drops it (and
 * logs it).  A cgroup created again under the same path is another
 * cgroup: write the entry again.
 *
 * The list is immutable: a write builds a new one and swaps the pointer
 * under fs_settings.lock (the kit's text setting: parse, then apply
 * unless locked); the old one is freed after a grace period.
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/nsproxy.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "fs_hook.h"
#include "hook_kit.h"

/**
 * struct fs_exempt_entry - one exempt cgroup
 * @cgrp: the cgroup, a reference held
 * @path: its path as written (unescaped)
 */
struct fs_exempt_entry {
	struct cgroup *cgrp;
	char path[FS_SCOPE_PATH_MAX + 1];
};

/**
 * struct fs_exempt_list - the entries of fs/exempt
 * @rcu: frees it after a grace period
 * @count: entries in @entries
 * @entries: each holding a reference to its cgroup
 */
struct fs_exempt_list {
	struct rcu_head rcu;
	unsigned int count;
	struct fs_exempt_entry entries[FS_EXEMPT_MAX];
};

static struct fs_exempt_list __rcu *exempt_list;
DEFINE_STATIC_KEY_FALSE(fs_exempt_used);

/**
 * fs_exempt_current() - the entry that exempts the current task, if any
 *
 * Context: under rcu_read_lock() (a probe handler), which keeps the
 * returned path valid.
 * Return: the path of the first entry whose cgroup holds the current
 * task (on the default hierarchy), or NULL.
 */
const char *fs_exempt_current(void)
{
	const struct fs_exempt_list *list = rcu_dereference(exempt_list);
	struct cgroup *cgrp;
	unsigned int k;

	if (!list)
		return NULL;
	cgrp = task_dfl_cgroup(current);
	for (k = 0; k < list->count; k++) {
		if (!cgroup_is_descendant(cgrp, list->entries[k].cgrp))
			continue;
		/*
		 * The lock freezes the list, not who is in its cgroups: root
		 * joins one (or makes a child of one) with a cgroup write.  So
		 * that a locked guard stays on, exemptions end at the lock
		 * (review round 18).
		 */
		if (utf8guard_locked()) {
			pr_notice_once("fs/exempt: locked: %s exempts no task any more\n",
				       list->entries[k].path);
			return NULL;
		}
		return list->entries[k].path;
	}
	return NULL;
}

/*
 * Whether the entry's cgroup was removed: as the kernel's cgroup_is_dead()
 * (not exported), CSS_ONLINE of its self css, cleared by rmdir under
 * cgroup_mutex (6.1 and 6.12 alike; css_is_dying() tests the reference
 * on 6.1, a flag rmdir does not set on the self css on 6.12).
 */
static bool is_gone(const struct fs_exempt_entry *entry)
{
	return !(READ_ONCE(entry->cgrp->self.flags) & CSS_ONLINE);
}

static void free_list(struct fs_exempt_list *list)
{
	unsigned int k;

	if (!list)
		return;
	for (k = 0; k < list->count; k++)
		cgroup_put(list->entries[k].cgrp);
	kfree(list);
}

/* cgroup_put() may be called from softirq context: it queues the release. */
static void free_list_rcu(struct rcu_head *rcu)
{
	free_list(container_of(rcu, struct fs_exempt_list, rcu));
}

/* An entry's index in @list by cgroup, or by path if @path; else -1. */
static int find_entry(const struct fs_exempt_list *list,
		      const struct cgroup *cgrp, const char *path)
{
	unsigned int k;

	for (k = 0; list && k < list->count; k++)
		if (list->entries[k].cgrp == cgrp ||
		    (path && !strcmp(list->entries[k].path, path)))
			return k;
	return -1;
}

static void remove_entry(struct fs_exempt_list *list, unsigned int k)
{
	cgroup_put(list->entries[k].cgrp);
	memmove(&list->entries[k], &list->entries[k + 1],
		(list->count - k - 1) * sizeof(list->entries[0]));
	list->count--;
}

/* Why @path resolves to no cgroup (cgroup_get_from_path()'s @err). */
static const char *no_cgroup(long err)
{
	struct cgroup *root;
	bool empty;

	if (err == -ENOTDIR)
		return "not a cgroup (a file of one)";
	root = cgroup_get_from_path("/");
	if (IS_ERR(root))
		return "no such cgroup (cgroup v2 unavailable)";
	empty = !READ_ONCE(root->nr_descendants);
	cgroup_put(root);
	return empty ? "no such cgroup (cgroup v2 has none below /: is cgroup2 mounted?)" :
		       "no such cgroup";
}

/*
 * Parse one line "PATH" or "PATH -" of @len bytes into @list.
 * @old: the entries before the write (a removal of one whose cgroup went
 * succeeds).  @touched: the cgroups this write named so far,
 * @touched_count of them.
 * Return NULL, or why not.
 */
static const char *parse_line(const char *line, size_t len,
			      struct fs_exempt_list *list,
			      const struct fs_exempt_list *old,
			      struct cgroup **touched,
			      unsigned int *touched_count)
{
	char path[FS_SCOPE_PATH_MAX + 1];
	size_t plen = 0, wlen;
	const char *words, *why;
	struct cgroup *cgrp;
	unsigned int k;
	int slot;

	while (plen < len && line[plen] != ' ' && line[plen] != '\t')
		plen++;
	words = line + plen;
	wlen = len - plen;
	while (wlen && (*words == ' ' || *words == '\t')) {
		words++;
		wlen--;
	}
	while (wlen && (words[wlen - 1] == ' ' || words[wlen - 1] == '\t'))
		wlen--;
	if (wlen && !(wlen == 1 && *words == '-'))
		return "expected a cgroup path, or \"PATH -\" to remove its entry";
	why = fs_unescape_path(line, plen, path);
	if (why)
		return why;
	if (path[0] != '/')
		return "the path is not absolute";
	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp)) {
		if (!wlen)
			return no_cgroup(PTR_ERR(cgrp));
		cgrp = NULL;
	} else if (!cgroup_parent(cgrp) || !path[strspn(path, "/")]) {
		cgroup_put(cgrp);
		return "the root cgroup (it would exempt every task)";
	}
	for (k = 0; k < *touched_count; k++) {
		if (cgrp && touched[k] == cgrp) {
			cgroup_put(cgrp);
			return "the same cgroup twice";
		}
	}
	if (wlen) {
		slot = find_entry(list, cgrp, path);
		if (cgrp)
			cgroup_put(cgrp);
		/*
		 * Its cgroup removed (a unit's ExecStopPost= after the unit's
		 * cgroup went, or was made again): the entry is gone already.
		 */
		if (slot < 0 && find_entry(old, NULL, path) >= 0)
			return NULL;
		if (slot < 0)
			return "no entry for this cgroup";
		/* Compared only: touched holds no reference. */
		touched[(*touched_count)++] = list->entries[slot].cgrp;
		remove_entry(list, slot);
		return NULL;
	}
	touched[(*touched_count)++] = cgrp;
	slot = find_entry(list, cgrp, NULL);
	if (slot >= 0) {
		/* Written again: the path as written now. */
		cgroup_put(cgrp);
		strscpy(list->entries[slot].path, path,
			sizeof(list->entries[slot].path));
		return NULL;
	}
	if (list->count == FS_EXEMPT_MAX) {
		cgroup_put(cgrp);
		return "more than 16 entries";
	}
	list->entries[list->count].cgrp = cgrp;
	strscpy(list->entries[list->count].path, path,
		sizeof(list->entries[0].path));
	list->count++;
	return NULL;
}

/* The entries of @old whose cgroup is still there, each held again. */
static struct fs_exempt_list *copy_live(const struct fs_exempt_list *old)
{
	struct fs_exempt_list *list = kzalloc(sizeof(*list), GFP_KERNEL);
	unsigned int k;

	if (!list || !old)
		return list;
	for (k = 0; k < old->count; k++) {
		if (is_gone(&old->entries[k]))
			continue;
		list->entries[list->count] = old->entries[k];
		cgroup_get(old->entries[k].cgrp);
		list->count++;
	}
	return list;
}

void fs_exempt_release(void *parsed)
{
	free_list(parsed);
}

/**
 * struct exempt_write - what parse builds a write in
 * @list: the entries the write makes, given to apply
 * @old: the entries before the write
 * @touched: the cgroups this write named so far (parse_line())
 * @touched_count: their number
 */
struct exempt_write {
	struct fs_exempt_list *list;
	const struct fs_exempt_list *old;
	struct cgroup *touched[FS_EXEMPT_MAX];
	unsigned int touched_count;
};

/* A line of @data, a struct exempt_write: parse_line(). */
static const char *exempt_line(void *data, const char *line, size_t len,
			       bool *not_yet)
{
	struct exempt_write *w = data;
	const char *why;

	why = parse_line(line, len, w->list, w->old, w->touched,
			 &w->touched_count);
	/*
	 * At load the cgroup may not exist yet (a unit not started,
	 * cgroup2 not mounted): the line is skipped, loudly, rather than
	 * leave every filesystem unchecked by refusing the load.
	 */
	*not_yet = why && !strncmp(why, "no such cgroup", 14);
	return why;
}

/* Whether fs_exempt_show() can list @data's, a struct exempt_write's. */
static bool listing_fits(const void *data)
{
	const struct exempt_write *w = data;
	size_t n = 0;
	unsigned int k;

	for (k = 0; k < w->list->count; k++)
		n += fs_escaped_length(w->list->entries[k].path) + 1;
	return n < PAGE_SIZE;
}

/*
 * Paths resolve from the writer's cgroup namespace root, but are listed
 * and removed as written: from another namespace, "/a" would name
 * another cgroup than the host's "/a" (review round 18).
 */
static const char *cgroup_ns_refused(void)
{
	if (current->nsproxy->cgroup_ns != init_task.nsproxy->cgroup_ns)
		return "written from a cgroup namespace of its own: write it from the host's";
	return NULL;
}

static const struct utf8guard_kit_lines exempt_lines = {
	.module = KBUILD_MODNAME,
	.path = "fs/exempt",
	.param = "exempt",
	.max_lines = FS_EXEMPT_MAX,
	.no_entry = "no entry (\"CGROUP\" or \"CGROUP -\")",
	.not_yet = "the cgroup exists",
	.full = "the entries would not fit in fs/exempt's 4095 bytes",
	.check = cgroup_ns_refused,
	.line = exempt_line,
	.fits = listing_fits,
};

/* Under fs_settings.lock. */
int fs_exempt_parse(const char *text, size_t len, bool at_load, void **parsed)
{
	struct exempt_write w = { };
	int ret;

	w.old = rcu_dereference_protected(exempt_list,
					  lockdep_is_held(&fs_settings.lock));
	w.list = copy_live(w.old);
	if (!w.list)
		return -ENOMEM;
	ret = utf8guard_kit_parse_lines(&exempt_lines, text, len, at_load, &w);
	if (ret) {
		free_list(w.list);
		return ret;
	}
	*parsed = w.list;
	return 0;
}

/* Log what the write changed: @old's entries against @new's. */
static void log_changes(const struct fs_exempt_list *old,
			const struct fs_exempt_list *new)
{
	unsigned int k;

	for (k = 0; old && k < old->count; k++) {
		const struct fs_exempt_entry *e = &old->entries[k];

		if (find_entry(new, e->cgrp, NULL) >= 0)
			continue;
		if (is_gone(e))
			pr_notice("fs/exempt: %s: the cgroup was removed: its entry is gone\n",
				  e->path);
		else
			pr_notice("fs/exempt: %s removed (by %s[%d])\n",
				  e->path, current->comm, task_pid_nr(current));
	}
	for (k = 0; new && k < new->count; k++)
		if (find_entry(old, new->entries[k].cgrp, NULL) < 0)
			pr_notice("fs/exempt: %s added (by %s[%d])\n",
				  new->entries[k].path, current->comm,
				  task_pid_nr(current));
}

/* Under fs_settings.lock. */
void fs_exempt_apply(void *parsed, bool at_load)
{
	struct fs_exempt_list *list = parsed, *old;

	if (!list->count) {
		kfree(list);
		list = NULL;
	} else {
		static_branch_enable(&fs_exempt_used);
	}
	old = rcu_replace_pointer(exempt_list, list,
				  lockdep_is_held(&fs_settings.lock));
	log_changes(old, list);
	if (!list)
		static_branch_disable(&fs_exempt_used);
	if (old)
		call_rcu(&old->rcu, free_list_rcu);
}

ssize_t fs_exempt_show(char *buf)
{
	const struct fs_exempt_list *list;
	size_t n = 0;
	unsigned int k;

	rcu_read_lock();
	list = rcu_dereference(exempt_list);
	for (k = 0; list && k < list->count; k++) {
		if (is_gone(&list->entries[k]))
			continue;
		n += fs_escape_path(list->entries[k].path, buf + n,
				    PAGE_SIZE - n);
		n += scnprintf(buf + n, PAGE_SIZE - n, "\n");
	}
	rcu_read_unlock();
	return n;
}

/* At unload, once no hook can run. */
void fs_exempt_exit(void)
{
	static_branch_disable(&fs_exempt_used);
	free_list(rcu_dereference_protected(exempt_list, true));
	RCU_INIT_POINTER(exempt_list, NULL);
	/* The lists replaced before: their callbacks are in this module. */
	rcu_barrier();
}
