// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_slow_hook.ko - a test module that attaches to utf8guard.ko's
 * lock as a hook module does, and takes its time to go.
 *
 *	insmod utf8guard_slow_hook.ko exit_delay_ms=N
 *
 * Its exit sleeps N ms before it detaches: for that long the module is
 * being removed (rmmod has begun, its references can no longer be taken)
 * yet still attached.  Writing 1 to /sys/kernel/utf8guard/locked then
 * must fail with EBUSY: pinning a module whose removal has begun would
 * not keep it, and the lock would claim a hook that is about to be gone
 * (integration_test.sh).
 */

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "utf8guard.h"

static unsigned int exit_delay_ms;
module_param(exit_delay_ms, uint, 0);
MODULE_PARM_DESC(exit_delay_ms, "Sleep this long in exit before detaching");

static int __init slow_hook_init(void)
{
	int ret = utf8guard_hook_attach(THIS_MODULE);

	if (ret)
		pr_err("utf8guard_hook_attach: %d\n", ret);
	return ret;
}

static void __exit slow_hook_exit(void)
{
	pr_info("exit: detaching in %u ms\n", exit_delay_ms);
	msleep(exit_delay_ms);
	utf8guard_hook_detach(THIS_MODULE);
}

module_init(slow_hook_init);
module_exit(slow_hook_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("utf8guard test: a hook module slow to go");
