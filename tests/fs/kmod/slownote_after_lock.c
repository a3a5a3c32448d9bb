// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_fs_slownote.ko: utf8guard_fs.ko that, between claiming an
 * after-lock slot and writing which operation its function does
 * (after_lock.c, note()), has the registration run on another CPU and
 * waits 200 ms.  Review round 13 (finding 1): the registration, running
 * meanwhile, took the half-written slot and gave a filesystem's
 * ->rename() the ->link() handler (an oops at the first rename).  Every
 * rename and link must still be judged by the right handler.
 *
 * Not from NMI (an int3 probe handler, the debug kernel), where no
 * work may be queued: there the window is only widened.
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#define AFTER_LOCK_NOTE_PAUSE()						\
	do {								\
		unsigned int other = cpumask_any_but(cpu_online_mask,	\
						     smp_processor_id()); \
									\
		if (!in_nmi() && other < nr_cpu_ids)			\
			queue_work_on(other, system_wq, &register_work); \
		mdelay(200);						\
	} while (0)

#include "fs/after_lock.c"
