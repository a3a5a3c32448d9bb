/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard_fs.ko internals: the filesystem name-validation hook.
 *
 *	probes.c	the hook on security_inode_*() (an ftrace_ops, or
 *			int3 kprobes), self-test
 *	refuse.c	a handler's refusal: the return functions
 *	selftest.c	each hooked operation through the VFS, on a canary
 *	module_probes.c	kprobes in filesystem modules while they are loaded
 *	btrfs.c		btrfs subvolume and snapshot names
 *	bcachefs.c	bcachefs subvolume and snapshot names
 *	ocfs2.c		ocfs2 reflink names
 *	overlay.c	overlayfs's own renames and links on its upper layer
 *	overlay_seen.c	how the overlay's hook judged a task's name
 *	overlay_stack.c	a user namespace's creds: overlayfs's, or not?
 *	after_lock.c	a rename or link judged again after its inode lock
 *	idle.c		disarm the probes while nothing is to be checked;
 *			told of fs/enabled by the settings' notifier
 *	check.c		what one hooked operation checks and counts
 *	settings.c	enabled, fstypes, check_symlink_target, mounts,
 *			exempt (kit settings, with their module parameters)
 *	scope.c		fs/mounts: a policy per mounted filesystem
 *	exempt.c	fs/exempt: cgroups whose tasks the policy lets through
 *	counters.c	per-operation and per-reason counters (a kit set)
 *	sysfs.c		/sys/kernel/utf8guard/fs/ (a kit directory)
 *	main.c		load and unload
 */
#ifndef UTF8GUARD_FS_HOOK_H
#define UTF8GUARD_FS_HOOK_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include "utf8guard.h"

struct dentry;
struct inode;
struct kobject;
struct kprobe;
struct kretprobe_instance;
struct pt_regs;
struct super_block;
struct task_struct;
struct utf8guard_kit;
struct utf8guard_kit_settings;
struct utf8guard_kit_stats;

/* Operations, as counted in fs/stats/<op>/; the names are ABI. */
enum fs_op {
	FS_OP_CREATE,
	FS_OP_MKDIR,
	FS_OP_MKNOD,
	FS_OP_SYMLINK,
	FS_OP_SYMLINK_TARGET,
	FS_OP_LINK,
	FS_OP_RENAME,
	FS_OP_SUBVOL,
	FS_OP_SNAPSHOT,
	FS_OP_REFLINK,
	FS_OP_COUNT
};

enum fs_outcome {
	FS_CHECKED,
	FS_REJECTED,
	FS_AUDITED,
	FS_EXEMPTED,
	FS_OUTCOME_COUNT
};

const char *fs_op_name(enum fs_op op);

/* check.c: called from the probe handlers, in atomic context. */
bool fs_check_wanted(const struct super_block *sb,
		     struct utf8guard_policy *policy);
int fs_check_bytes(enum fs_op op, const struct utf8guard_policy *policy,
		   const u8 *bytes, size_t len);
int fs_check_new_name(enum fs_op op, const struct inode *dir,
		      const struct dentry *dentry, bool makes_name,
		      const char *target);
int fs_recheck_bytes(enum fs_op op, const char *type, const u8 *bytes,
		     size_t len);
bool fs_rename_makes_name(const struct dentry *new_dentry, unsigned int flags);
int fs_recheck_new_name(enum fs_op op, const struct inode *dir,
			const struct dentry *dentry, bool makes_name);

/* settings.c */
#define FS_FSTYPES_MAX		16
#define FS_FSTYPE_NAME_MAX	31
/* "name name ...\n" at most, with the NUL. */
#define FS_FSTYPES_TEXT_MAX	(FS_FSTYPES_MAX * (FS_FSTYPE_NAME_MAX + 1) + 2)

/* The kit settings of fs_settings, in order (its notifier's actions). */
enum fs_setting {
	FS_SETTING_ENABLED,
	FS_SETTING_FSTYPES,
	FS_SETTING_CHECK_SYMLINK_TARGET,
	FS_SETTING_MOUNTS,
	FS_SETTING_EXEMPT,
	FS_SETTING_COUNT
};

extern struct utf8guard_kit_settings fs_settings;
int fs_settings_init(void);
void fs_settings_exit(void);
bool fs_enabled(void);
bool fs_check_symlink_target(void);
bool fs_watches(const struct super_block *sb);
bool fs_watches_type(const char *type);
size_t fs_format_fstypes(char *buf, size_t size);

/*
 * Where the benchmark build utf8guard_fs_bench.ko (tests/fs/kmod/bench_*.c,
 * make bench-fs --breakdown) lets a create/mkdir/mknod check stop, to
 * measure the hook in layers.  Always false in utf8guard_fs.ko.
 */
enum fs_bench_stop {
	FS_BENCH_FULL,		/* the whole check */
	FS_BENCH_AT_ENTRY,	/* the pre-handler returns at once */
	FS_BENCH_BEFORE_SCAN,	/* settings and overlay looked at, no scan */
	FS_BENCH_BEFORE_COUNT,	/* the name scanned, nothing counted */
};

#ifndef FS_BENCH_STOP
#define FS_BENCH_STOP(where) false
#endif

/* scope.c: at most FS_SCOPE_MAX fs/mounts entries, paths of 255 bytes */
#define FS_SCOPE_MAX		16
#define FS_SCOPE_PATH_MAX	255

enum fs_scope_match {
	FS_SCOPE_NONE,		/* no entry: fs/fstypes and the policy */
	FS_SCOPE_OFF,		/* an entry "off": not checked */
	FS_SCOPE_POLICY,	/* an entry: its classes */
};

DECLARE_STATIC_KEY_FALSE(fs_scope_used);
enum fs_scope_match fs_scope_lookup(const struct super_block *sb,
				    struct utf8guard_policy *policy);
bool fs_scope_has_type(const char *type);
u64 fs_scope_gone(void);
u64 fs_scope_missed(void);
ssize_t fs_scope_show(char *buf);
int fs_scope_parse(const char *text, size_t len, bool at_load,
		   void **parsed);
void fs_scope_apply(void *parsed, bool at_load);
void fs_scope_release(void *parsed);
int fs_scope_init(void);
void fs_scope_exit(void);
const char *fs_unescape_path(const char *text, size_t len, char *out);
size_t fs_escape_path(const char *path, char *buf, size_t size);
size_t fs_escaped_length(const char *path);

/* exempt.c: at most FS_EXEMPT_MAX fs/exempt cgroups, paths of 255 bytes */
#define FS_EXEMPT_MAX		16

DECLARE_STATIC_KEY_FALSE(fs_exempt_used);
const char *fs_exempt_current(void);
ssize_t fs_exempt_show(char *buf);
int fs_exempt_parse(const char *text, size_t len, bool at_load,
		    void **parsed);
void fs_exempt_apply(void *parsed, bool at_load);
void fs_exempt_release(void *parsed);
void fs_exempt_exit(void);

/* counters.c: a row per operation, a column per outcome */
extern struct utf8guard_kit_stats fs_stats;
void fs_count(enum fs_op op, const struct utf8guard_report *violation,
	      bool refused);
void fs_count_exempted(enum fs_op op);

/* The six probes on security_inode_*(), in order. */
enum fs_probe {
	FS_PROBE_CREATE,
	FS_PROBE_MKDIR,
	FS_PROBE_MKNOD,
	FS_PROBE_SYMLINK,
	FS_PROBE_LINK,
	FS_PROBE_RENAME,
	FS_PROBE_COUNT
};

/* probes.c */
int fs_probes_init(void);
void fs_probes_exit(void);
unsigned int fs_probes_count(void);
unsigned int fs_probes_unhooked(void);
u64 fs_probes_missed(void);
const char *fs_probes_kind(void);
void fs_probes_set_armed(bool armed);

/* refuse.c: for every probe's pre-handler */
int fs_probe_divert(struct pt_regs *regs, long result);
int fs_probe_refuse(struct pt_regs *regs, int verdict);
int fs_probe_check_name(struct pt_regs *regs, enum fs_op op,
			const struct super_block *sb, const u8 *name,
			size_t len);
int fs_register_kprobe(struct kprobe *kp);
bool fs_probe_caller_hidden(unsigned long ret, const struct kprobe *p);

/* after_lock.c */
void fs_after_lock_note(const struct inode *dir);
void fs_after_lock_flush(void);
int fs_after_lock_set_armed(bool arm);
void fs_after_lock_rearm(void);
u64 fs_after_lock_missed(void);
int fs_after_lock_init(void);
void fs_after_lock_exit(void);

/* selftest.c: what a probe makes the canary's operation return */
#define FS_CANARY_RESULT 1
/* While the self-test runs: its task, and its canary's new name. */
struct fs_canary {
	const struct task_struct *task;
	const struct dentry *dentry;
};
extern struct fs_canary fs_canary;
int fs_selftest_vfs(unsigned long *through);
void fs_selftest_exit(void);

/* module_probes.c */
int fs_module_probes_init(void);
void fs_module_probes_exit(void);
int fs_module_probes_set_armed(bool armed, unsigned int *changed);
void fs_module_probes_rearm(void);
unsigned int fs_module_probes_unhooked(void);
unsigned int fs_module_probes_count(void);
u64 fs_module_probes_missed(void);

/* btrfs.c, bcachefs.c, ocfs2.c: the probe handlers */
int fs_btrfs_mksubvol(struct kprobe *p, struct pt_regs *regs);
int fs_btrfs_collision(struct kprobe *p, struct pt_regs *regs);
int fs_bcachefs_subvolume(struct kprobe *p, struct pt_regs *regs);
int fs_ocfs2_reflink(struct kprobe *p, struct pt_regs *regs);

/* overlay.c: the probe handlers, and what the hooks ask */
int fs_overlay_copy_up_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs);
int fs_overlay_copy_up_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs);
int fs_overlay_copy_up_end(struct kprobe *p, struct pt_regs *regs);
int fs_overlay_copy_up_one_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs);
int fs_overlay_copy_up_one_return(struct kretprobe_instance *ri,
				  struct pt_regs *regs);
int fs_overlay_create_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs);
int fs_overlay_link_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
int fs_overlay_rename_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs);
int fs_overlay_remove_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs);
int fs_overlay_op_return(struct kretprobe_instance *ri, struct pt_regs *regs);
int fs_overlay_link_up(struct kprobe *p, struct pt_regs *regs);

/* What overlay.c says of a new name on an upper layer. */
enum fs_overlay_name {
	FS_OVERLAY_NOT_OWN,	/* check it as any new name */
	FS_OVERLAY_OWN,		/* an existing or temporary name: it passes */
	FS_OVERLAY_JUDGED,	/* judged on the overlay under these settings */
	FS_OVERLAY_CHECK,	/* the user's, judged under other settings */
	/* made with a user namespace's creds: checked if an overlay's */
	FS_OVERLAY_USER_NS,
};

enum fs_overlay_name fs_overlay_internal(const struct dentry *new_dentry,
					 enum fs_op op,
					 const struct utf8guard_policy *policy);
void fs_overlay_forget(void);
/* overlay_seen.c: the settings the overlay's hook judged a name under */
void fs_overlay_seen_record(const struct dentry *dentry,
			    const struct utf8guard_policy *policy, bool watched);
bool fs_overlay_seen_take(const struct dentry *dentry,
			  struct utf8guard_policy *policy, bool *watched);
void fs_overlay_seen_forget(void);
void fs_overlay_init(void);
u64 fs_overlay_missed(void);
/* overlay_stack.c: is the current task's name overlayfs's to make? */
bool fs_overlay_on_stack(bool untold);

/* idle.c */
int fs_idle_init(void);
void fs_idle_exit(void);

/* sysfs.c: the kit directory fs/ (its settings and stats live above) */
extern struct utf8guard_kit fs_kit;

#endif /* UTF8GUARD_FS_HOOK_H */
