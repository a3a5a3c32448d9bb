// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard_nf.ko (net/stats/): a kit counter set from
 * utf8guard.ko (hook_kit.h).  checked = clean + dropped + audited; the reasons sum to
 * dropped + audited.
 */
#include "hook_kit.h"
#include "net_hook.h"

static const char *const names[NET_REASON_FIRST] = {
	[NET_CHECKED] = "checked",
	[NET_DROPPED] = "dropped",
	[NET_AUDITED] = "audited",
	[NET_UNPARSED] = "unparsed",
	[NET_EVICTED] = "evicted",
	[NET_EXPIRED] = "expired",
	[NET_NOMEM] = "nomem",
	[NET_REORDERED] = "reordered",
	[NET_FULL] = "full",
	[NET_NOSTATE] = "nostate",
	[NET_MPTCP] = "mptcp",
	[NET_FRAGMENTED] = "fragmented",
	[NET_RESET] = "connections_reset",
};

/* One row: a counter's index is its enum net_counter. */
struct utf8guard_kit_stats net_stats = {
	.columns = names,
	.column_count = NET_REASON_FIRST,
	.reason_count = NET_COUNTER_COUNT - NET_REASON_FIRST,
};

void net_count(enum net_counter counter)
{
	utf8guard_kit_count(&net_stats, 0, counter);
}
