// SPDX-License-Identifier: GPL-2.0
/*
 * Mode off and fs/enabled 0 cost nothing measurable: an armed probe still
 * traps on every create, only for its handler to find nothing to do.  So
 * once no name has been to be checked for IDLE_DELAY, the probes are
 * disarmed; any change that wants names checked again (a mode write, an
 * fs/enabled write) arms them before it is in effect.  A mode that
 * flips faster than IDLE_DELAY (a test's flipper) never disarms them.
 *
 * Serialised by idle_mutex: the disarming work checks again, under it,
 * that nothing is to be checked, and every change calls idle_update()
 * (before a change that checks is in effect, after one that stops
 * checking), so whichever comes last decides.  Changes come
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

/*
 * The mode and fs/enabled as the notifiers last told them, under
 * idle_mutex: a mode that checks, or fs/enabled 1, is told before it is
 * in effect, so that the probes are armed before anyone reads it (review
 * round 6: "mode enforce" read back while the probes were still being
 * disarmed after a mode off, and names went unchecked).
 */
static bool mode_checks;
static bool mode_told;		/* a mode change was notified since load */
static bool enabled;

static bool names_wanted(void)
{
	return mode_checks && enabled;
}

static void idle_disarm(struct work_struct *work)
{
	mutex_lock(&idle_mutex);
	if (!names_wanted())
		fs_probes_set_armed(false);
	mutex_unlock(&idle_mutex);
}

/*
 * Follow a change of the mode or of fs/enabled, under idle_mutex: arm the
 * probes at once if names are to be checked, otherwise disarm them after
 * IDLE_DELAY unless that changes again.  May sleep.
 */
static void idle_update(void)
{
	lockdep_assert_held(&idle_mutex);
	if (names_wanted()) {
		cancel_delayed_work(&idle_work);
		fs_probes_set_armed(true);
	} else {
		mod_delayed_work(system_wq, &idle_work, IDLE_DELAY);
	}
}

static int mode_changed(struct notifier_block *nb, unsigned long mode,
			void *unused)
{
	/* An operation seen before the change is judged again after it. */
	fs_after_lock_flush();
	mutex_lock(&idle_mutex);
	mode_checks = mode != UTF8GUARD_MODE_OFF;
	mode_told = true;
	idle_update();
	mutex_unlock(&idle_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block mode_notifier = {
	.notifier_call = mode_changed,
};

static int setting_stored(struct notifier_block *nb, unsigned long action,
			  void *file)
{
	fs_after_lock_flush();
	if ((action & ~UTF8GUARD_KIT_TURNING_ON) != FS_SETTING_ENABLED)
		return NOTIFY_DONE;
	mutex_lock(&idle_mutex);
	enabled = (action & UTF8GUARD_KIT_TURNING_ON) || fs_enabled();
	idle_update();
	mutex_unlock(&idle_mutex);
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
	mutex_lock(&idle_mutex);
	/*
	 * Unless a change was told already: its mode may not be in effect
	 * yet (told before), and must not be overwritten by the old one.
	 */
	if (!mode_told)
		mode_checks = utf8guard_policy_get().mode !=
			      UTF8GUARD_MODE_OFF;
	enabled = fs_enabled();
	idle_update();
	mutex_unlock(&idle_mutex);
	return 0;
}

/* At unload, before the probes go: the work cannot run any more. */
void fs_idle_exit(void)
{
	utf8guard_kit_notifier_unregister(&fs_settings, &setting_notifier);
	utf8guard_mode_notifier_unregister(&mode_notifier);
	cancel_delayed_work_sync(&idle_work);
}
