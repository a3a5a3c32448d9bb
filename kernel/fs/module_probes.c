// SPDX-License-Identifier: GPL-2.0
/*
 * Probes in filesystem modules: paths that create a name without passing
 * any of the security_inode_*() hooks, in code that is only there while
 * its module is loaded.  Today one: btrfs_mksubvol(), which every btrfs
 * subvolume and snapshot ioctl reaches (BTRFS_IOC_SUBVOL_CREATE,
 * BTRFS_IOC_SNAP_CREATE and their _V2 variants; no capability needed).
 * Documentation/filesystem-hook-design.rst has the inventory.
 *
 * A module notifier registers the probe at MODULE_STATE_COMING, before
 * the module's init has registered its filesystem, so no mount exists
 * without it; it unregisters at MODULE_STATE_GOING.  A module already
 * loaded when utf8guard_fs.ko loads is probed at once.  A probe that
 * cannot be registered while its module is loaded is counted in
 * fs/unhooked and logged: the module itself still loads, so that no
 * existing filesystem becomes unmountable.
 *
 * The kprobe holds no reference on the module, which can be unloaded as
 * usual.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/path.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "fs_hook.h"

struct module_probe {
	const char *module;	/* module name, as in /sys/module/ */
	const char *symbol;	/* "module:function", for kallsyms */
	kprobe_pre_handler_t pre_handler;
	struct kprobe kp;
	bool loaded;		/* the module is coming or live */
	bool registered;	/* kp is registered */
	u64 missed_before;	/* nmissed of earlier registrations */
};

/*
 * static noinline int btrfs_mksubvol(const struct path *parent,
 *				      struct mnt_idmap *idmap,
 *				      const char *name, int namelen,
 *				      struct btrfs_root *snap_src,
 *				      bool readonly);
 * (6.1: struct user_namespace *mnt_userns.)  name is a kernel copy;
 * snap_src is NULL for a new subvolume.  Nothing is locked or allocated
 * yet at its entry, so a refusal there only unwinds the ioctl.
 */
static int pre_mksubvol(struct kprobe *p, struct pt_regs *regs)
{
	const struct path *parent =
		(const struct path *)regs_get_kernel_argument(regs, 0);
	const u8 *name = (const u8 *)regs_get_kernel_argument(regs, 2);
	int namelen = (int)regs_get_kernel_argument(regs, 3);
	bool snapshot = regs_get_kernel_argument(regs, 4) != 0;
	struct utf8guard_policy policy;

	if (namelen < 0)
		return 0;
	if (!fs_check_wanted(parent->dentry->d_sb, &policy))
		return 0;
	return fs_probe_refuse(regs, fs_check_bytes(snapshot ? FS_OP_SNAPSHOT :
								 FS_OP_SUBVOL,
						    &policy, name, namelen));
}

/* Never called: keeps the kprobe from being jump-optimized (probes.c). */
static void keep_unoptimized(struct kprobe *p, struct pt_regs *regs,
			     unsigned long flags)
{
}

static struct module_probe module_probes[] = {
	{
		.module = "btrfs",
		.symbol = "btrfs:btrfs_mksubvol",
		.pre_handler = pre_mksubvol,
	},
};

/* Serialises the notifier, arming and the self-test over module_probes. */
static DEFINE_MUTEX(module_probes_mutex);
static bool module_probes_armed = true;

static void probe_register(struct module_probe *mp)
{
	struct kprobe *kp = &mp->kp;
	int ret;

	lockdep_assert_held(&module_probes_mutex);
	if (mp->registered)
		return;
	/* A kprobe is registered again from a clean state. */
	*kp = (struct kprobe) {
		.symbol_name = mp->symbol,
		.pre_handler = mp->pre_handler,
		.post_handler = keep_unoptimized,
		.flags = module_probes_armed ? 0 : KPROBE_FLAG_DISABLED,
	};
	ret = register_kprobe(kp);
	if (ret) {
		pr_err("cannot probe %s: error %d; names it creates are NOT checked (counted in fs/unhooked)\n",
		       mp->symbol, ret);
		return;
	}
	mp->registered = true;
	pr_info("probed %s: its new names are checked\n", mp->symbol);
}

static void probe_unregister(struct module_probe *mp)
{
	lockdep_assert_held(&module_probes_mutex);
	if (!mp->registered)
		return;
	unregister_kprobe(&mp->kp);
	mp->missed_before += mp->kp.nmissed;
	mp->registered = false;
}

static struct module_probe *probe_of(const struct module *mod)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(module_probes); k++)
		if (!strcmp(mod->name, module_probes[k].module))
			return &module_probes[k];
	return NULL;
}

static int module_changed(struct notifier_block *nb, unsigned long state,
			  void *data)
{
	struct module_probe *mp = probe_of(data);

	if (!mp)
		return NOTIFY_DONE;
	mutex_lock(&module_probes_mutex);
	switch (state) {
	case MODULE_STATE_COMING:
		mp->loaded = true;
		probe_register(mp);
		break;
	case MODULE_STATE_GOING:
		probe_unregister(mp);
		mp->loaded = false;
		break;
	}
	mutex_unlock(&module_probes_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block module_notifier = {
	.notifier_call = module_changed,
};

/*
 * Whether NAME is loaded now: /sys/module/NAME, found from our own
 * module's kset (module_kset is not exported).  A built-in filesystem
 * has no struct module there, and is not looked for.
 */
static bool module_loaded(const char *name)
{
	struct kobject *kobj;
	bool loaded = false;

	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, name);
	if (kobj) {
		struct module_kobject *mk =
			container_of(kobj, struct module_kobject, kobj);

		loaded = mk->mod && mk->mod->state != MODULE_STATE_GOING;
		kobject_put(kobj);
	}
	return loaded;
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
	for (k = 0; k < ARRAY_SIZE(module_probes); k++) {
		struct module_probe *mp = &module_probes[k];

		if (mp->registered || !module_loaded(mp->module))
			continue;
		mp->loaded = true;
		probe_register(mp);
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
	for (k = 0; k < ARRAY_SIZE(module_probes); k++) {
		probe_unregister(&module_probes[k]);
		module_probes[k].loaded = false;
	}
	mutex_unlock(&module_probes_mutex);
}

/**
 * fs_module_probes_set_armed() - arm or disarm the registered probes
 * @armed: as fs_probes_set_armed()
 *
 * Probes registered later start in the same state.
 *
 * Return: 0, or the first error of enable_kprobe() / disable_kprobe().
 */
int fs_module_probes_set_armed(bool armed)
{
	unsigned int k;
	int ret = 0;

	mutex_lock(&module_probes_mutex);
	module_probes_armed = armed;
	for (k = 0; k < ARRAY_SIZE(module_probes); k++) {
		struct module_probe *mp = &module_probes[k];
		int err;

		if (!mp->registered)
			continue;
		err = armed ? enable_kprobe(&mp->kp) : disable_kprobe(&mp->kp);
		if (err && !ret)
			ret = err;
	}
	mutex_unlock(&module_probes_mutex);
	return ret;
}

/**
 * fs_module_probes_unhooked() - how many loaded modules' probes are out
 *
 * A probe counts when its module is loaded and the probe is not
 * registered, or is disabled although armed, or gone.  With every kprobe
 * disarmed at once, probes.c's canary already counts all of them.
 *
 * Return: the number of such probes.
 */
unsigned int fs_module_probes_unhooked(void)
{
	unsigned int k, unhooked = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(module_probes); k++) {
		struct module_probe *mp = &module_probes[k];

		if (!mp->loaded)
			continue;
		if (!mp->registered || kprobe_gone(&mp->kp) ||
		    (module_probes_armed && kprobe_disabled(&mp->kp)))
			unhooked++;
	}
	mutex_unlock(&module_probes_mutex);
	return unhooked;
}

/* How many probes are registered (their modules are loaded). */
unsigned int fs_module_probes_count(void)
{
	unsigned int k, count = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(module_probes); k++)
		count += module_probes[k].loaded;
	mutex_unlock(&module_probes_mutex);
	return count;
}

/* Hits skipped, over every registration. */
u64 fs_module_probes_missed(void)
{
	unsigned int k;
	u64 sum = 0;

	mutex_lock(&module_probes_mutex);
	for (k = 0; k < ARRAY_SIZE(module_probes); k++) {
		const struct module_probe *mp = &module_probes[k];

		sum += mp->missed_before;
		if (mp->registered)
			sum += READ_ONCE(mp->kp.nmissed);
	}
	mutex_unlock(&module_probes_mutex);
	return sum;
}
