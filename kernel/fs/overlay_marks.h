/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marks of overlay.c: which task is in which overlayfs operation.  A
 * fixed pool, taken and given without locks or allocation, because every
 * user is a kprobe handler, which runs in NMI context with int3 kprobes
 * (overlay_marks.c).
 */
#ifndef UTF8GUARD_FS_OVERLAY_MARKS_H
#define UTF8GUARD_FS_OVERLAY_MARKS_H

#include <linux/dcache.h>
#include <linux/types.h>

enum mark_kind {
	MARK_COPY_UP,		/* until ovl_copy_up_end(dentry) */
	MARK_OP,		/* until the overlay operation returns */
};

/* What a MARK_OP's overlay operation does with its name. */
enum mark_op {
	MARK_OP_CREATE,		/* create, mkdir, mknod, symlink */
	MARK_OP_LINK,
	MARK_OP_RENAME,
	MARK_OP_REMOVE,		/* unlink, rmdir: a whiteout */
};

/*
 * A mark, as overlay.c reads it: a copy of what it needs (addresses are
 * compared, never dereferenced).  The name is a keyed hash of it.  Whose it
 * is, is kept apart (overlay_marks.c).
 */
struct mark {
	u64 name_hash;
	const void *key;	/* the dentry (copy-up), the instance (op) */
	const void *inode;	/* the dentry's overlay inode */
	u64 judged_under;	/* MARK_OP: how the overlay's hook judged the
				 * name (0: it judged none); see overlay.c
				 */
	u32 len;		/* of the name */
	u8 kind;		/* enum mark_kind */
	u8 op;			/* enum mark_op */
};

void fs_overlay_marks_init(void);
bool fs_overlay_mark_add(enum mark_kind kind, enum mark_op op,
			 const void *key, const struct dentry *dentry,
			 u64 judged_under);
bool fs_overlay_mark_drop(enum mark_kind kind, const void *key);
bool fs_overlay_marks_any(void);
u64 fs_overlay_name_hash(const struct qstr *name);
bool fs_overlay_marks_find(bool (*passes)(const struct mark *m, void *arg),
			   void *arg);
bool fs_overlay_copying_up(const void *inode);
void fs_overlay_marks_forget(void);

#endif /* UTF8GUARD_FS_OVERLAY_MARKS_H */
