// SPDX-License-Identifier: GPL-2.0
/*
 * Mode off and fs/enabled 0 cost nothing measurable: an armed probe still
 * traps on every create, only for its handler to find nothing to do.  So
 * once no name has been to be checked for IDLE_DELAY, the probes are
 * disarmed; any change that wants names checked again (a mode write, an
 * fs/enabled write) arms them before that write returns.  A mode that
 * flips faster than IDLE_DELAY (a test's flipper) never disarms them.
 *
 * Serialised by idle_mutex: the disarming work checks again, under it,
 * that nothing is to be checked, and every change calls fs_idle_update()
 * after it is in effect, so whichever comes last decides.  Changes come
 * from utf8guard.ko's mode notifier and from the fs settings' kit
 * notifier (an fs/enabled store): the settings never call in here.
 */
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>

#include "fs_hook.h"
#include "hook_kit.h"

#define IDLE_DELAY	HZ

static DEFINE_MUTEX(idle_mutex);
static void idle_disarm(struct work_struct *work);
static DECLARE_DELAYED_WORK(idle_work, idle_disarm);

static bool names_wanted(void)
{
	return utf8guard_policy_get().mode != UTF8GUARD_MODE_OFF &&
	       fs_enabled();
}

static void idle_disarm(struct work_struct *work)
{
	mutex_lock(&idle_mutex);
	if (!names_wanted())
		fs_probes_set_armed(false);
	mutex_unlock(&idle_mutex);
}

/**
 * fs_idle_update() - follow a change of the mode or of fs/enabled
 *
 * Arms the probes at once if names are to be checked, otherwise disarms
 * them after IDLE_DELAY unless that changes again.
 *
 * Context: process context, after the change is in effect; may sleep.
 */
static void fs_idle_update(void)
{
	mutex_lock(&idle_mutex);
	if (names_wanted()) {
		cancel_delayed_work(&idle_work);
		fs_probes_set_armed(true);
	} else {
		mod_delayed_work(system_wq, &idle_work, IDLE_DELAY);
	}
	mutex_unlock(&idle_mutex);
}

static int mode_changed(struct notifier_block *nb, unsigned long mode,
			void *unused)
{
	fs_idle_update();
	return NOTIFY_DONE;
}

static struct notifier_block mode_notifier = {
	.notifier_call = mode_changed,
};

static int setting_stored(struct notifier_block *nb, unsigned long setting,
			  void *file)
{
	if (setting == FS_SETTING_ENABLED)
		fs_idle_update();
	return NOTIFY_DONE;
}

static struct notifier_block setting_notifier = {
	.notifier_call = setting_stored,
};

/* At load, with the probes registered (and armed). */
int fs_idle_init(void)
{
	int ret = utf8guard_mode_notifier_register(&mode_notifier);

	if (ret)
		return ret;
	utf8guard_kit_notifier_register(&fs_settings, &setting_notifier);
	fs_idle_update();
	return 0;
}

/* At unload, before the probes go: the work cannot run any more. */
void fs_idle_exit(void)
{
	utf8guard_kit_notifier_unregister(&fs_settings, &setting_notifier);
	utf8guard_mode_notifier_unregister(&mode_notifier);
	cancel_delayed_work_sync(&idle_work);
}
