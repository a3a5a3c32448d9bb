// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/utf8guard/net/ (documented in
 * Documentation/ABI/testing/sysfs-kernel-utf8guard-net):
 *
 *	enabled		0 or 1
 *	ports		watched destination ports, "tcp:80 udp:514 ..."
 *	forward		0 or 1: check forwarded packets too
 *	action		drop or reset: what a refused TCP segment does
 *	flows		TCP flows the hook keeps state for now
 *	flows_max	the most it holds (module parameter flows_max)
 *	stats/		checked, dropped, audited, one file per reason,
 *			unparsed, evicted, expired, nomem, reordered,
 *			full, nostate, mptcp, fragmented,
 *			connections_reset; reset (write 1: zero them)
 *
 * The hook kit (hook_kit.h) makes them from the settings (settings.c),
 * the two status files here and the counters (counters.c).  Every store
 * checks CAP_SYS_ADMIN itself; a write that does not parse returns
 * -EINVAL and changes nothing; while utf8guard is locked, writes return
 * -EPERM.
 */
#include <linux/sysfs.h>

#include "hook_kit.h"
#include "net_hook.h"

static ssize_t flows_show(char *buf)
{
	return sysfs_emit(buf, "%u\n", net_flows_count());
}

static ssize_t flows_max_show(char *buf)
{
	return sysfs_emit(buf, "%u\n", net_flows_max());
}

static struct utf8guard_kit_file status_files[] = {
	{ .name = "flows", .show = flows_show },
	{ .name = "flows_max", .show = flows_max_show },
};

struct utf8guard_kit net_kit = {
	.name = "net",
	.settings = &net_settings,
	.status = status_files,
	.status_count = ARRAY_SIZE(status_files),
	.stats = &net_stats,
};
