// SPDX-License-Identifier: GPL-2.0
/*
 * Scope: a policy per mounted filesystem (fs/mounts).
 *
 * An entry names a mount point and either a policy (the words of the
 * policy file) or "off".  The mount point is resolved to its superblock
 * when the entry is written; the hook looks the entry up from the
 * superblock of the directory that gets a name (fs_scope_lookup()): at
 * most FS_SCOPE_MAX loads under RCU, no lock, nothing allocated.  With
 * no entry at all, a static key keeps the lookup out of the hook.
 *
 * Entries are immutable: a write builds new ones and swaps each slot's
 * pointer; the old ones are freed after a grace period.  Every mount of
 * a superblock (bind mounts) shares its entry; a remount keeps the
 * superblock, so the entry stays.  When the superblock is shut down
 * (its last mount gone: generic_shutdown_super(), probed here) its
 * entry is taken out of its slot by the probe handler, and counted
 * (fs/mounts_gone); a work item logs it and frees it.  A superblock's
 * address cannot come back before that, so a stale entry is never
 * matched.
 *
 * Writers hold fs_settings.lock (the kit's text setting: parse, then
 * apply unless locked); the unmount probe never takes it and only ever
 * clears a slot with cmpxchg(), so a writer replaces a slot with
 * cmpxchg() too.  The work item frees what the probe cleared under that
 * lock only, so that entries a writer read stay allocated while it
 * sleeps in a path lookup.  No two entries have one path, and an entry
 * covers a whole filesystem: only the mount of a filesystem's root takes
 * one (a btrfs subvolume's would be every subvolume's).
 */
#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "fs_hook.h"
#include "hook_kit.h"

/**
 * struct fs_scope_entry - the policy of one mounted filesystem
 * @rcu: frees it after a grace period
 * @gone: on the list of entries whose filesystem went
 * @sb: its superblock: compared, never dereferenced once installed
 * @dev: @sb's s_dev, compared too
 * @type: @sb's s_type, compared too: should the unmount probe ever miss,
 *	a new superblock at @sb's address is not taken for it unless it is
 *	the same device of the same type
 * @off: names on it are not checked
 * @classes: else, the classes they are checked under
 * @fstype: the filesystem type's name, for the log
 * @path: the mount point as written (unescaped)
 */
struct fs_scope_entry {
	struct rcu_head rcu;
	struct llist_node gone;
	const struct super_block *sb;
	dev_t dev;
	const struct file_system_type *type;
	bool off;
	u32 classes;
	char fstype[FS_FSTYPE_NAME_MAX + 1];
	char path[FS_SCOPE_PATH_MAX + 1];
};

static struct fs_scope_entry __rcu *slots[FS_SCOPE_MAX];
DEFINE_STATIC_KEY_FALSE(fs_scope_used);
static atomic64_t gone_count = ATOMIC64_INIT(0);
static LLIST_HEAD(gone_list);

static void gone_work_fn(struct work_struct *work);
static DECLARE_WORK(gone_work, gone_work_fn);

/**
 * fs_scope_lookup() - the entry of a superblock, if it has one
 * @sb: the superblock of the directory that gets a name
 * @policy: the global snapshot; its classes replaced by the entry's
 *
 * Context: any (a probe handler); takes no lock, allocates nothing.
 * Return: FS_SCOPE_NONE without an entry, FS_SCOPE_OFF for an entry
 * "off", FS_SCOPE_POLICY when @policy now holds the entry's classes.
 */
enum fs_scope_match fs_scope_lookup(const struct super_block *sb,
				    struct utf8guard_policy *policy)
{
	enum fs_scope_match match = FS_SCOPE_NONE;
	const struct fs_scope_entry *entry;
	unsigned int k;

	rcu_read_lock();
	for (k = 0; k < FS_SCOPE_MAX; k++) {
		entry = rcu_dereference(slots[k]);
		if (!entry || entry->sb != sb || entry->dev != sb->s_dev ||
		    entry->type != sb->s_type)
			continue;
		if (entry->off) {
			match = FS_SCOPE_OFF;
		} else {
			policy->classes = entry->classes;
			match = FS_SCOPE_POLICY;
		}
		break;
	}
	rcu_read_unlock();
	return match;
}

/**
 * fs_scope_has_type() - whether an entry names a filesystem of this type
 * @type: a filesystem type's name
 *
 * For the checks that know the type but not the superblock (btrfs.c).
 *
 * Context: any.
 * Return: true if one does.
 */
bool fs_scope_has_type(const char *type)
{
	const struct fs_scope_entry *entry;
	bool found = false;
	unsigned int k;

	if (!static_branch_unlikely(&fs_scope_used))
		return false;
	rcu_read_lock();
	for (k = 0; k < FS_SCOPE_MAX && !found; k++) {
		entry = rcu_dereference(slots[k]);
		found = entry && !strcmp(entry->fstype, type);
	}
	rcu_read_unlock();
	return found;
}

u64 fs_scope_gone(void)
{
	return atomic64_read(&gone_count);
}

/* Whether any slot holds an entry; under fs_settings.lock. */
static bool any_entry(void)
{
	unsigned int k;

	for (k = 0; k < FS_SCOPE_MAX; k++)
		if (rcu_access_pointer(slots[k]))
			return true;
	return false;
}

/*
 * Free the entries the unmount probe took out of their slots.  Under
 * fs_settings.lock: a writer holds it from parse to apply and keeps
 * pointers to the entries it read from the slots meanwhile (sleeping in
 * kern_path()); an entry the probe takes out under it stays allocated
 * until the writer is done (review round 17: freed under a sleeping
 * writer, KASAN use-after-free in fs_scope_parse()).
 */
static void gone_work_fn(struct work_struct *work)
{
	struct fs_scope_entry *entry, *next;
	struct llist_node *list;

	mutex_lock(&fs_settings.lock);
	list = llist_del_all(&gone_list);
	llist_for_each_entry_safe(entry, next, list, gone) {
		if (utf8guard_locked())
			pr_warn("fs/mounts: %s (%s) unmounted: its entry is gone, and cannot be written again while locked\n",
				entry->path, entry->fstype);
		else
			pr_notice("fs/mounts: %s (%s) unmounted: its entry is gone\n",
				  entry->path, entry->fstype);
		kfree_rcu(entry, rcu);
	}
	if (!any_entry())
		static_branch_disable(&fs_scope_used);
	mutex_unlock(&fs_settings.lock);
}

/*
 * void generic_shutdown_super(struct super_block *sb): the superblock's
 * last mount went.  Its entry is taken out here, before the superblock
 * can be freed.
 */
static int pre_shutdown(struct kprobe *p, struct pt_regs *regs)
{
	const void *sb = (const void *)regs_get_kernel_argument(regs, 0);
	struct fs_scope_entry *entry;
	unsigned int k;

	if (!static_branch_unlikely(&fs_scope_used))
		return 0;
	rcu_read_lock();
	for (k = 0; k < FS_SCOPE_MAX; k++) {
		entry = rcu_dereference(slots[k]);
		if (!entry || entry->sb != sb)
			continue;
		if (cmpxchg((struct fs_scope_entry __force **)&slots[k],
			    entry, NULL) != entry)
			continue;
		atomic64_inc(&gone_count);
		llist_add(&entry->gone, &gone_list);
		schedule_work(&gone_work);
	}
	rcu_read_unlock();
	return 0;
}

static struct kprobe shutdown_probe = {
	.symbol_name = "generic_shutdown_super",
	.pre_handler = pre_shutdown,
};

/**
 * fs_scope_missed() - hits of the unmount probe the kernel skipped
 *
 * Each is a superblock shut down while another kprobe ran on its CPU: an
 * fs/mounts entry of it stays (matched by device and type, never again
 * by a superblock that is not of the same device and type).  Summed in
 * fs/missed (fs_probes_missed()); logged the first time it is not 0.
 *
 * Context: any.
 * Return: the probe's nmissed.
 */
u64 fs_scope_missed(void)
{
	u64 missed = READ_ONCE(shutdown_probe.nmissed);

	if (missed)
		pr_warn_once("%llu unmount(s) missed by the probe on generic_shutdown_super: an fs/mounts entry may outlive its filesystem (counted in fs/missed)\n",
			     missed);
	return missed;
}

/*
 * What a write makes of each slot, built by parse, installed by apply;
 * @edited: the slots whose entries the write made or removed so far.
 */
struct scope_write {
	struct fs_scope_entry *old[FS_SCOPE_MAX];
	struct fs_scope_entry *new[FS_SCOPE_MAX];
	struct path held[FS_SCOPE_MAX];
	unsigned int held_count;
	DECLARE_BITMAP(edited, FS_SCOPE_MAX);
};

/**
 * fs_unescape_path() - undo the \ooo escapes of a written path
 * @text: the path as written, \ooo (octal) for the bytes a line cannot hold
 * @len: its length
 * @out: room for FS_SCOPE_PATH_MAX bytes and a NUL
 *
 * For fs/mounts and fs/exempt.
 *
 * Return: NULL, or why not.
 */
const char *fs_unescape_path(const char *text, size_t len, char *out)
{
	size_t k, n = 0;

	for (k = 0; k < len; k++) {
		char c = text[k];

		if (c == '\\') {
			if (k + 3 >= len || text[k + 1] < '0' ||
			    text[k + 1] > '3' || text[k + 2] < '0' ||
			    text[k + 2] > '7' || text[k + 3] < '0' ||
			    text[k + 3] > '7')
				return "bad escape in the path (\\ooo, octal)";
			c = (text[k + 1] - '0') << 6 |
			    (text[k + 2] - '0') << 3 | (text[k + 3] - '0');
			if (!c)
				return "bad escape in the path (\\000)";
			k += 3;
		}
		if (n == FS_SCOPE_PATH_MAX)
			return "path longer than 255 bytes";
		out[n++] = c;
	}
	out[n] = '\0';
	return NULL;
}

/**
 * fs_escape_path() - write a path as fs/mounts and fs/exempt show it
 * @path: a NUL-terminated path
 * @buf: where to write it
 * @size: room at @buf
 *
 * Bytes up to the space, the backslash and DEL are written \ooo (octal).
 *
 * Return: the number of bytes written, without the NUL.
 */
size_t fs_escape_path(const char *path, char *buf, size_t size)
{
	size_t n = 0;

	for (; *path; path++) {
		unsigned char c = *path;

		if (c <= ' ' || c == '\\' || c == 0x7f)
			n += scnprintf(buf + n, size - n, "\\%03o", c);
		else
			n += scnprintf(buf + n, size - n, "%c", c);
	}
	return n;
}

static const char *entry_words(const struct fs_scope_entry *entry, char *buf,
			       size_t size)
{
	if (!entry)
		return "-";
	if (entry->off)
		return "off";
	utf8guard_format_policy(entry->classes, buf, size);
	return buf;
}

/* The slot whose entry (in @w->new) is for @sb or has @path, or -1. */
static int find_slot(const struct scope_write *w,
		     const struct super_block *sb, const char *path)
{
	unsigned int k;

	for (k = 0; k < FS_SCOPE_MAX; k++) {
		const struct fs_scope_entry *e = w->new[k];

		if (e && ((sb && e->sb == sb) || (path && !strcmp(e->path, path))))
			return k;
	}
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The words of a line (a policy, or "off") as an entry's state, edits
 * starting from @base's classes (or the global policy's).  Return NULL,
 * or why not.
 */
static const char *parse_words(const char *words, size_t wlen,
			       const struct fs_scope_entry *base,
			       struct fs_scope_entry *entry)
{
	struct utf8guard_parse_error error;

	if (wlen == 3 && !memcmp(words, "off", 3)) {
		entry->off = true;
		return NULL;
	}
	if (!utf8guard_parse_policy(words, wlen,
				    base && !base->off ? base->classes :
				    utf8guard_policy_get().classes,
				    &entry->classes, &error))
		return error.message;
	return NULL;
}

/* The slot whose entry (in @w->new) was written with @path, or -1. */
static int find_path(const struct scope_write *w, const char *path)
{
	return find_slot(w, NULL, path);
}

/*
 * Why the mount @mnt, at @path, cannot take @entry, or NULL; *@slot: the
 * slot of its filesystem's entry in @w, or -1; @same: the slot of the
 * entry written with @path, or -1.
 */
static const char *mount_refused(const struct scope_write *w,
				 const struct fs_scope_entry *entry,
				 const struct vfsmount *mnt, const char *path,
				 int same, int *slot)
{
	*slot = -1;
	if (!strcmp(entry->fstype, "overlay"))
		return "overlay mounts take no entry (see \"Scope\" in the admin guide)";
	/*
	 * A btrfs subvolume, or a bind mount of a directory: the entry would
	 * be the whole filesystem's, every other subvolume's too (review
	 * round 17).  A mount of its root has to be named.
	 */
	if (mnt->mnt_root != entry->sb->s_root)
		return "mounts part of a filesystem (a subvolume, or a directory bound there): an entry covers all of it, name a mount of its root";
	*slot = find_slot(w, entry->sb, NULL);
	if (*slot >= 0 && strcmp(w->new[*slot]->path, path))
		return "this filesystem has an entry under another path";
	if (*slot < 0 && same >= 0)
		return "an entry with this path is another filesystem's (unmounted lazily, or mounted over): remove it first with \"PATH -\"";
	return NULL;
}

/*
 * Parse one line "PATH WORDS" (or "PATH -") of @len bytes into @data, a
 * struct scope_write.  Return NULL, or why not; *@mount_state tells a
 * line that may be right once the mounts change (no such path, not a
 * mount point...) from a wrong one.
 */
static const char *parse_line(void *data, const char *line, size_t len,
			      bool *mount_state)
{
	struct scope_write *w = data;
	unsigned long *edited = w->edited;
	struct fs_scope_entry *entry;
	const char *words, *why;
	size_t plen = 0, wlen;
	int slot, same;
	char *path;
	struct path p;

	*mount_state = false;
	while (plen < len && !is_blank(line[plen]))
		plen++;
	words = line + plen;
	wlen = len - plen;
	while (wlen && is_blank(*words)) {
		words++;
		wlen--;
	}
	while (wlen && is_blank(words[wlen - 1]))
		wlen--;
	if (!wlen)
		return "no policy after the path (a policy, \"off\" or \"-\")";
	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return "out of memory";
	path = entry->path;
	why = fs_unescape_path(line, plen, path);
	if (!why && path[0] != '/')
		why = "the path is not absolute";
	if (why)
		goto refuse;
	/* No two entries have one path: it names one entry. */
	same = find_path(w, path);
	if (wlen == 1 && *words == '-') {
		slot = same;
		if (slot < 0 && !kern_path(path, LOOKUP_FOLLOW, &p)) {
			slot = p.dentry == p.mnt->mnt_root ?
			       find_slot(w, p.mnt->mnt_sb, NULL) : -1;
			path_put(&p);
		}
		kfree(entry);
		if (slot < 0)
			return "no entry for this path";
		if (test_and_set_bit(slot, edited))
			return "the same entry twice";
		if (w->new[slot] != w->old[slot])
			kfree(w->new[slot]);
		w->new[slot] = NULL;
		return NULL;
	}
	/* Words that mean nothing are wrong whatever is mounted. */
	why = parse_words(words, wlen, NULL, entry);
	if (why)
		goto refuse;
	*mount_state = true;
	if (kern_path(path, LOOKUP_FOLLOW, &p)) {
		why = "no such path";
	} else if (p.dentry != p.mnt->mnt_root) {
		path_put(&p);
		why = "not a mount point";
	}
	/*
	 * Its path no longer leads to the filesystem of the entry written
	 * with it (unmounted lazily, still in use): a line that says what
	 * the entry holds changes nothing, so that a listing read back is
	 * taken.  The path mounted over is refused in mount_refused().
	 */
	if (why && same >= 0 && !test_bit(same, edited) &&
	    !parse_words(words, wlen, w->new[same], entry) &&
	    entry->off == w->new[same]->off &&
	    (entry->off || entry->classes == w->new[same]->classes)) {
		set_bit(same, edited);
		kfree(entry);
		return NULL;
	}
	if (why)
		goto refuse;
	w->held[w->held_count++] = p;
	entry->sb = p.mnt->mnt_sb;
	entry->dev = entry->sb->s_dev;
	entry->type = entry->sb->s_type;
	strscpy(entry->fstype, entry->sb->s_type->name,
		sizeof(entry->fstype));
	why = mount_refused(w, entry, p.mnt, path, same, &slot);
	if (why)
		goto refuse;
	if (slot >= 0 && test_and_set_bit(slot, edited)) {
		why = "the same filesystem twice";
		goto refuse;
	}
	*mount_state = false;
	why = parse_words(words, wlen, slot >= 0 ? w->new[slot] : NULL, entry);
	if (why)
		goto refuse;
	if (slot < 0) {
		for (slot = 0; slot < FS_SCOPE_MAX && w->new[slot]; slot++)
			;
		if (slot == FS_SCOPE_MAX) {
			why = "more than 16 entries";
			goto refuse;
		}
		set_bit(slot, edited);
	} else if (w->new[slot] != w->old[slot]) {
		kfree(w->new[slot]);
	}
	w->new[slot] = entry;
	return NULL;
refuse:
	kfree(entry);
	return why;
}

/**
 * fs_escaped_length() - the length fs_escape_path() writes @path in
 * @path: a path, unescaped
 *
 * Return: its length once escaped.
 */
size_t fs_escaped_length(const char *path)
{
	size_t n = 0;

	for (; *path; path++) {
		unsigned char c = *path;

		n += c <= ' ' || c == '\\' || c == 0x7f ? 4 : 1;
	}
	return n;
}

/* The length of @entry's line in the listing (fs_scope_show()). */
static size_t line_length(const struct fs_scope_entry *entry)
{
	char words[UTF8GUARD_POLICY_TEXT_MAX];

	return fs_escaped_length(entry->path) + 1 +
	       strlen(entry_words(entry, words, sizeof(words))) + 1;
}

/*
 * Whether the listing of the entries of @data, a struct scope_write, fits
 * in a sysfs page: what fs_scope_show() lists must, to read back.
 */
static bool listing_fits(const void *data)
{
	const struct scope_write *w = data;
	size_t n = 0;
	unsigned int k;

	for (k = 0; k < FS_SCOPE_MAX; k++)
		if (w->new[k])
			n += line_length(w->new[k]);
	return n < PAGE_SIZE;
}

void fs_scope_release(void *parsed)
{
	struct scope_write *w = parsed;
	unsigned int k;

	for (k = 0; k < FS_SCOPE_MAX; k++)
		if (w->new[k] != w->old[k])
			kfree(w->new[k]);
	for (k = 0; k < w->held_count; k++)
		path_put(&w->held[k]);
	kfree(w);
}

static const struct utf8guard_kit_lines scope_lines = {
	.module = KBUILD_MODNAME,
	.path = "fs/mounts",
	.param = "mounts",
	.max_lines = FS_SCOPE_MAX,
	.no_entry = "no entry (\"PATH POLICY\", \"PATH off\" or \"PATH -\")",
	/*
	 * At load (modprobe at boot) the filesystem may not be mounted
	 * yet: its line is skipped, loudly, rather than leave every
	 * filesystem unchecked by refusing the load.
	 */
	.not_yet = "it is mounted",
	.full = "the entries would not fit in fs/mounts' 4095 bytes",
	.line = parse_line,
	.fits = listing_fits,
};

/* Under fs_settings.lock. */
int fs_scope_parse(const char *text, size_t len, bool at_load,
		       void **parsed)
{
	struct scope_write *w;
	unsigned int k;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	/*
	 * The unmount probe may take any of these out of its slot meanwhile,
	 * but it is freed only under fs_settings.lock (gone_work_fn()).
	 */
	for (k = 0; k < FS_SCOPE_MAX; k++)
		w->old[k] = w->new[k] =
			rcu_dereference_protected(slots[k],
						  lockdep_is_held(&fs_settings.lock));
	ret = utf8guard_kit_parse_lines(&scope_lines, text, len, at_load, w);
	if (ret) {
		fs_scope_release(w);
		return ret;
	}
	*parsed = w;
	return 0;
}

static void log_change(const struct fs_scope_entry *old,
		       const struct fs_scope_entry *new)
{
	char a[UTF8GUARD_POLICY_TEXT_MAX], b[UTF8GUARD_POLICY_TEXT_MAX];
	const struct fs_scope_entry *e = new ? new : old;

	pr_notice("fs/mounts: %s (%s) \"%s\" -> \"%s\" (by %s[%d])\n",
		  e->path, e->fstype, entry_words(old, a, sizeof(a)),
		  entry_words(new, b, sizeof(b)), current->comm,
		  task_pid_nr(current));
}

/* Under fs_settings.lock, with every named filesystem held. */
void fs_scope_apply(void *parsed, bool at_load)
{
	struct scope_write *w = parsed;
	struct fs_scope_entry *old;
	unsigned int k;

	for (k = 0; k < FS_SCOPE_MAX; k++)
		if (w->new[k])
			static_branch_enable(&fs_scope_used);
	for (k = 0; k < FS_SCOPE_MAX; k++) {
		if (w->new[k] == w->old[k])
			continue;
		old = cmpxchg((struct fs_scope_entry __force **)&slots[k],
			      w->old[k], w->new[k]);
		if (old != w->old[k]) {
			/*
			 * The unmount probe emptied the slot meanwhile: w->old[k]
			 * went with its filesystem (gone_work_fn() frees it).  A
			 * new entry is for a filesystem this write holds, never
			 * the one that went: it takes the empty slot.
			 */
			w->old[k] = NULL;
			if (!w->new[k])
				continue;
			rcu_assign_pointer(slots[k], w->new[k]);
		}
		log_change(w->old[k], w->new[k]);
		if (w->old[k])
			kfree_rcu(w->old[k], rcu);
		w->old[k] = w->new[k];
	}
	if (!any_entry())
		static_branch_disable(&fs_scope_used);
	fs_scope_release(w);
}

ssize_t fs_scope_show(char *buf)
{
	char words[UTF8GUARD_POLICY_TEXT_MAX];
	const struct fs_scope_entry *entry;
	size_t n = 0;
	unsigned int k;

	rcu_read_lock();
	for (k = 0; k < FS_SCOPE_MAX; k++) {
		entry = rcu_dereference(slots[k]);
		if (!entry)
			continue;
		n += fs_escape_path(entry->path, buf + n, PAGE_SIZE - n);
		n += scnprintf(buf + n, PAGE_SIZE - n, " %s\n",
			       entry_words(entry, words, sizeof(words)));
	}
	rcu_read_unlock();
	return n;
}

/* At load, before the settings: the probe that forgets unmounted ones. */
int fs_scope_init(void)
{
	int ret = register_kprobe(&shutdown_probe);

	if (ret)
		pr_err("cannot probe generic_shutdown_super (%d): fs/mounts needs it\n",
		       ret);
	return ret;
}

/* At unload, once no hook can run. */
void fs_scope_exit(void)
{
	unsigned int k;

	unregister_kprobe(&shutdown_probe);
	flush_work(&gone_work);
	gone_work_fn(NULL);
	for (k = 0; k < FS_SCOPE_MAX; k++) {
		kfree(rcu_dereference_protected(slots[k], true));
		RCU_INIT_POINTER(slots[k], NULL);
	}
	static_branch_disable(&fs_scope_used);
	synchronize_rcu();
}
