// SPDX-License-Identifier: GPL-2.0
/*
 * Probes in filesystem modules, registered while the module is loaded:
 * - btrfs.ko: btrfs_mksubvol(), where every subvolume and snapshot ioctl
 *   creates its name without any security_inode_*() hook (btrfs.c);
 * - bcachefs.ko: its calls to security_path_mkdir(), made only by its
 *   subvolume and snapshot ioctl, which has no other hook (bcachefs.c);
 * - ocfs2.ko: ocfs2_reflink(), where OCFS2_IOC_REFLINK creates its name
 *   without any hook (ocfs2.c);
 * - overlay.ko: copy-up and its directory operations, to recognise
 *   overlayfs's own renames and links on its upper layer (overlay.c).
 * Documentation/filesystem-hook-design.rst has the inventory.
 *
 * A module notifier registers a module's probes at MODULE_STATE_COMING,
 * before the module's init has registered its filesystem, so no mount
 * exists without them; they go at MODULE_STATE_GOING.  A module already
 * loaded when utf8guard_fs.ko loads is probed at once.  One loading at
 * that very moment may have sent its COMING before the notifier was
 * registered and have no /sys/module entry yet: it is probed at
 * MODULE_STATE_LIVE, and the log says so (its init ran unprobed).  A
 * module's probes are registered all together or not at all.  When they
 * cannot be, the module itself still loads (no filesystem becomes
 * unmountable) and the log says so; where that leaves names unchecked
 * (btrfs, bcachefs, ocfs2), fs/unhooked counts it.  Without overlay.ko's
 * probes, names are still checked: only legacy names cannot be copied up,
 * as before.
 *
 * The probes hold no reference on the module, which can be unloaded as
 * usual.
 */

#include <linux/kobject.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/string.h>

#include "fs_hook.h"

struct module_probe {
	const char *symbol;	/* "module:function", for kallsyms */
	/* A kprobe with pre_handler, or a kretprobe with ret_handler. */
	kprobe_pre_handler_t pre_handler;
	/*
	 * The kprobe is on a function of the kernel's, and pre_handler gets
	 * only the calls made from the module's own code (caller_module).
	 */
	bool from_module;
	struct module *caller_module;
	kretprobe_handler_t entry_handler;
	kretprobe_handler_t ret_handler;
	size_t data_size;
	int maxactive;		/* kretprobe calls in flight at once */
	struct kretprobe rp;	/* rp.kp is the kprobe of both kinds */
	bool registered;
	u64 missed_before;	/* nmissed of earlier registrations */
	/*
	 * A skipped hit is counted by its consequence instead: a copy-up
	 * that ends unmarked (overlay.c), or nothing (a fallback's drop).
	 */
	bool missed_elsewhere;
};

struct probed_module {
	const char *name;	/* as in /sys/module/ */
	bool checks_names;	/* without its probes, names go unchecked */
	const char *without;	/* the log's words for what is lost */
	struct module_probe *probes;
	unsigned int count;
	bool loaded;		/* coming or live */
	bool registered;	/* all its probes are */
	/*
	 * Armed whatever the mode: overlay.ko's probes follow operations
	 * that can outlast a mode off (review round 8: an ovl_link() that
	 * entered unseen while the probes were disarmed, stalled, and made
	 * a refused name on an unwatched upper layer after enforce).
	 */
	bool always_armed;
};

static struct module_probe btrfs_probes[] = {
	{ .symbol = "btrfs:btrfs_mksubvol", .pre_handler = fs_btrfs_mksubvol },
	/* Past btrfs_mksubvol()'s lock: judged again (btrfs.c). */
	{ .symbol = "btrfs:btrfs_check_dir_item_collision",
	  .pre_handler = fs_btrfs_collision },
};

static struct module_probe bcachefs_probes[] = {
	{
		.symbol = "security_path_mkdir",
		.pre_handler = fs_bcachefs_subvolume,
		.from_module = true,
	},
};

static struct module_probe ocfs2_probes[] = {
	{ .symbol = "ocfs2:ocfs2_reflink", .pre_handler = fs_ocfs2_reflink },
};

/*
 * Calls in flight at once, each holding a kretprobe instance (about 64
 * bytes, allocated at registration): tasks wait in ovl_copy_up_start()
 * for a copy-up of the same file, and a call beyond the limit is missed
 * (counted; its legacy name is then checked as new).
 */
#define OVERLAY_COPY_UPS	1024
#define OVERLAY_OPS		512

#define OVERLAY_OP(sym, entry) {				\
	.symbol = "overlay:" sym,				\
	.entry_handler = entry,					\
	.ret_handler = fs_overlay_op_return,			\
	.data_size = sizeof(void *),				\
	.maxactive = OVERLAY_OPS,				\
}

static struct module_probe overlay_probes[] = {
	{
		.symbol = "overlay:ovl_copy_up_start",
		.entry_handler = fs_overlay_copy_up_entry,
		.ret_handler = fs_overlay_copy_up_return,
		.data_size = sizeof(void *),
		.maxactive = OVERLAY_COPY_UPS,
		.missed_elsewhere = true,
	},
	{ .symbol = "overlay:ovl_copy_up_end",
	  .pre_handler = fs_overlay_copy_up_end },
	{ .symbol = "overlay:ovl_set_nlink_lower",
	  .pre_handler = fs_overlay_link_up },
	{
		.symbol = "overlay:ovl_copy_up_one",
		.entry_handler = fs_overlay_copy_up_one_entry,
		.ret_handler = fs_overlay_copy_up_one_return,
		.data_size = sizeof(void *),
		.maxactive = OVERLAY_COPY_UPS,
		.missed_elsewhere = true,
	},
	OVERLAY_OP("ovl_create_object", fs_overlay_create_entry),
	OVERLAY_OP("ovl_link", fs_overlay_link_entry),
	OVERLAY_OP("ovl_rename", fs_overlay_rename_entry),
	OVERLAY_OP("ovl_do_remove", fs_overlay_remove_entry),
};

static struct probed_module modules[] = {
	{
		.name = "btrfs",
		.checks_names = true,
		.without = "btrfs subvolume and snapshot names are NOT checked (counted in fs/unhooked)",
		.probes = btrfs_probes,
		.count = ARRAY_SIZE(btrfs_probes),
	},
	{
		.name = "bcachefs",
		.checks_names = true,
		.without = "bcachefs subvolume and snapshot names are NOT checked (counted in fs/unhooked)",
		.probes = bcachefs_probes,
		.count = ARRAY_SIZE(bcachefs_probes),
	},
	{
		.name = "ocfs2",
		.checks_names = true,
		.without = "ocfs2 reflink names are NOT checked (counted in fs/unhooked)",
		.probes = ocfs2_probes,
		.count = ARRAY_SIZE(ocfs2_probes),
	},
	{
		.name = "overlay",
		.without = "overlayfs cannot copy up or delete lower-layer files whose names the policy refuses",
		.probes = overlay_probes,
		.count = ARRAY_SIZE(overlay_probes),
		.always_armed = true,
	},
};

/* Serialises the notifier, arming and the self-test over modules[]. */
static DEFINE_MUTEX(module_probes_mutex);
static bool module_probes_armed = true;

/*
 * A from_module probe's pre-handler: at the probed function's entry the
 * return address is on top of the stack.  caller_module stays valid while
 * the probe is registered: it is unregistered at MODULE_STATE_GOING, before
 * the module's memory goes.
 */
static int pre_from_module(struct kprobe *p, struct pt_regs *regs)
{
	struct module_probe *mp = container_of(p, struct module_probe, rp.kp);
	unsigned long ret = regs_get_kernel_stack_nth(regs, 0);

	/* A caller a return hook hides may be the module: judged (refuse.c). */
	if (!within_module(ret, mp->caller_module) &&
	    !fs_probe_caller_hidden(ret, p))
		return 0;
	return mp->pre_handler(p, regs);
}

static bool armed_now(const struct probed_module *pm)
{
	return module_probes_armed || pm->always_armed;
}

static int probe_register(const struct probed_module *pm,
			  struct module_probe *mp, struct module *mod)
{
	int ret;

	/* A probe is registered again from a clean state. */
	mp->rp = (struct kretprobe) {
		.kp.symbol_name = mp->symbol,
		.kp.flags = armed_now(pm) ? 0 : KPROBE_FLAG_DISABLED,
	};
	if (mp->ret_handler) {
		mp->rp.entry_handler = mp->entry_handler;
		mp->rp.handler = mp->ret_handler;
		mp->rp.data_size = mp->data_size;
		mp->rp.maxactive = mp->maxactive;
		ret = register_kretprobe(&mp->rp);
	} else {
		mp->caller_module = mod;
		mp->rp.kp.pre_handler = mp->from_module ? pre_from_module :
							  mp->pre_handler;
		/* A post_handler only on an int3 kprobe: review round 19. */
		ret = fs_register_kprobe(&mp->rp.kp);
	}
	mp->registered = !ret;
	return ret;
}

static void probe_unregister(struct module_probe *mp)
{
	if (!mp->registered)
		return;
	if (mp->ret_handler) {
		unregister_kretprobe(&mp->rp);
		mp->missed_before += mp->rp.nmissed;
	} else {
		unregister_kprobe(&mp->rp.kp);
	}
	mp->missed_before += mp->rp.kp.nmissed;
	mp->registered = false;
}

static void module_unprobe(struct probed_module *pm)
{
	unsigned int k;

	lockdep_assert_held(&module_probes_mutex);
	for (k = 0; k < pm->count; k++)
		probe_unregister(&pm->probes[k]);
	pm->registered = false;
}

static void module_probe(struct probed_module *pm, struct module *mod)
{
	unsigned int k;
	int ret = 0;

	lockdep_assert_held(&module_probes_mutex);
	if (pm->registered)
		return;
	for (k = 0; k < pm->count && !ret; k++)
		ret = probe_register(pm, &pm->probes[k], mod);
	if (ret) {
		pr_err("cannot probe %s: error %d; %s\n",
		       pm->probes[k - 1].symbol, ret, pm->without);
		module_unprobe(pm);
		return;
	}
	pm->registered = true;
	pr_info("probed %s (%u %s)\n", pm->name, pm->count,
		pm->count == 1 ? "probe" : "probes");
}

static struct probed_module *probed_module_of(const char *name)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(modules); k++)
		if (!strcmp(name, modules[k].name))
			return &modules[k];
	return NULL;
}

static int module_changed(struct notifier_block *nb, unsigned long state,
			  void *data)
{
	struct module *mod = data;
	struct probed_module *pm = probed_module_of(mod->name);

	if (!pm)
		return NOTIFY_DONE;
	mutex_lock(&module_probes_mutex);
	switch (state) {
	case MODULE_STATE_COMING:
		pm->loaded = true;
		module_probe(pm, mod);
		break;
	case MODULE_STATE_LIVE:
		/*
		 * Its COMING went by before our notifier was registered, and
		 * fs_module_probes_init() looked before /sys/module/NAME
		 * existed (load_module() sets it up after the notification).
		 */
		if (pm->loaded)
			break;
		pr_warn("%s loaded while utf8guard_fs.ko did: probed only once it was live\n",
			pm->name);
		pm->loaded = true;
		module_probe(pm, mod);
		break;
	case MODULE_STATE_GOING:
		module_unprobe(pm);
		pm->loaded = false;
		break;
	}
	mutex_unlock(&module_probes_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block module_notifier = {
	.notifier_call = module_changed,
};

/*
 * NAME's module if it is loaded now: /sys/module/NAME, found from our own
 * module's kset (module_kset is not exported).  A built-in filesystem
 * has no struct module there, and is not looked for.  The module cannot
 * go while module_probes_mutex is held: its MODULE_STATE_GOING notifier
 * waits for it.
 */
static struct module *module_loaded(const char *name)
{
	struct kobject *kobj;
	struct module *mod = NULL;

	lockdep_assert_held(&module_probes_mutex);
	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, name);
	if (kobj) {
		struct module_kobject *mk =
			container_of(kobj, struct module_kobject, kobj);

		if (mk->mod && mk->mod->state != MODULE_STATE_GOING)
			mod = mk->mod;
		kobject_put(kobj);
	}
	return mod;
}

/**
 * fs_module_probes_init() - probe the filesystem modules, now and later
 *
 * Registers the module notifier first, so that no module can come
 * unseen; then probes each module already loaded.  A module coming at the
 * same moment is probed once, by whichever gets the mutex first.
 *
 * Return: 0, or the error of register_module_notifier().
 */
int fs_module_probes_init(void)
{
	unsigned int k;
	int ret;

	ret = register_module_notifier(&module_notifier);
	if (ret)
		return ret;
	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		struct probed_module *pm = &modules[k];
		struct module *mod;

		if (pm->registered)
			continue;
		mod = module_loaded(pm->name);
		if (!mod)
			continue;
		pm->loaded = true;
		module_probe(pm, mod);
	}
	mutex_unlock(&module_probes_mutex);
	return 0;
}

/* On return no probe is registered and no handler runs. */
void fs_module_probes_exit(void)
{
	unsigned int k;

	unregister_module_notifier(&module_notifier);
	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		module_unprobe(&modules[k]);
		modules[k].loaded = false;
	}
	mutex_unlock(&module_probes_mutex);
	fs_overlay_forget();
}

/**
 * fs_module_probes_set_armed() - arm or disarm the registered probes
 * @armed: as fs_probes_set_armed()
 * @changed: set to the number of probes armed or disarmed
 *
 * Probes registered later start in the same state.  overlay.ko's stay
 * armed, and so the marks of its operations in flight stay too (review
 * round 8: forgetting them refused a legacy file's copy-up in flight as
 * the probes were armed); what the hook saw before is forgotten, as the
 * hook's probes change state.
 *
 * Return: 0, or the first error of enable_kprobe() / disable_kprobe().
 */
int fs_module_probes_set_armed(bool armed, unsigned int *changed)
{
	unsigned int k, p;
	int ret = 0;

	*changed = 0;
	mutex_lock(&module_probes_mutex);
	module_probes_armed = armed;
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		for (p = 0; p < modules[k].count; p++) {
			struct module_probe *mp = &modules[k].probes[p];
			int err;

			if (!mp->registered || modules[k].always_armed)
				continue;
			err = armed ? enable_kprobe(&mp->rp.kp) :
				      disable_kprobe(&mp->rp.kp);
			if (err && !ret)
				ret = err;
			(*changed)++;
		}
	}
	mutex_unlock(&module_probes_mutex);
	fs_overlay_seen_forget();
	return ret;
}

/**
 * fs_module_probes_rearm() - disable and enable again every probe armed now
 *
 * For probes.c's rearm(): a probe enabled while kprobes were off as a
 * whole stays disabled when they are back.  overlay.ko's are registered
 * armed and never enabled later: kprobes arm them when they are back.
 *
 * Context: process context; may sleep.
 */
void fs_module_probes_rearm(void)
{
	unsigned int k, p;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		for (p = 0; p < modules[k].count; p++) {
			struct module_probe *mp = &modules[k].probes[p];

			/* overlay.ko's: never cycled, a copy-up would be missed */
			if (!mp->registered || kprobe_gone(&mp->rp.kp) ||
			    modules[k].always_armed || !armed_now(&modules[k]))
				continue;
			disable_kprobe(&mp->rp.kp);
			enable_kprobe(&mp->rp.kp);
		}
	}
	mutex_unlock(&module_probes_mutex);
}

static bool probe_out(const struct probed_module *pm, struct module_probe *mp)
{
	return !mp->registered || kprobe_gone(&mp->rp.kp) ||
	       (armed_now(pm) && kprobe_disabled(&mp->rp.kp));
}

/**
 * fs_module_probes_unhooked() - how many name checks of modules are out
 *
 * A probe counts when it checks names, its module is loaded, and it is
 * not registered, or disabled although armed, or gone.  With every kprobe
 * disarmed at once, probes.c's canary already counts all of them.
 *
 * Return: the number of such probes.
 */
unsigned int fs_module_probes_unhooked(void)
{
	unsigned int k, p, unhooked = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		struct probed_module *pm = &modules[k];

		if (!pm->loaded || !pm->checks_names)
			continue;
		for (p = 0; p < pm->count; p++)
			unhooked += probe_out(pm, &pm->probes[p]);
	}
	mutex_unlock(&module_probes_mutex);
	return unhooked;
}

/* How many name-checking probes there are now (their modules loaded). */
unsigned int fs_module_probes_count(void)
{
	unsigned int k, count = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++)
		if (modules[k].loaded && modules[k].checks_names)
			count += modules[k].count;
	mutex_unlock(&module_probes_mutex);
	return count;
}

/* Hits skipped, over every registration of every probe. */
u64 fs_module_probes_missed(void)
{
	unsigned int k, p;
	u64 sum = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(modules); k++) {
		for (p = 0; p < modules[k].count; p++) {
			const struct module_probe *mp = &modules[k].probes[p];

			if (mp->missed_elsewhere)
				continue;
			sum += mp->missed_before;
			if (!mp->registered)
				continue;
			sum += READ_ONCE(mp->rp.kp.nmissed);
			if (mp->ret_handler)
				sum += READ_ONCE(mp->rp.nmissed);
		}
	}
	mutex_unlock(&module_probes_mutex);
	return sum;
}
