// SPDX-License-Identifier: GPL-2.0
/*
 * Counters of utf8guard_nf.ko (net/stats/): a counter set from
 * utf8guard.ko.  checked = clean + dropped + audited; the reasons sum to
 * dropped + audited.
 */
#include "net_hook.h"
#include "utf8guard_counters.h"

static struct utf8guard_counters counters;

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

const char *net_counter_name(enum net_counter counter)
{
	if (counter < NET_REASON_FIRST)
		return names[counter];
	if (counter == NET_REASON_FIRST + UTF8GUARD_REASON_NONE ||
	    counter >= NET_COUNTER_COUNT)
		return NULL;
	return utf8guard_reason_name(counter - NET_REASON_FIRST);
}

int net_counters_init(void)
{
	return utf8guard_counters_init(&counters, NET_COUNTER_COUNT);
}

void net_counters_exit(void)
{
	utf8guard_counters_destroy(&counters);
}

void net_count(enum net_counter counter)
{
	utf8guard_counters_inc(&counters, counter);
}

u64 net_count_read(enum net_counter counter)
{
	return utf8guard_counters_read(&counters, counter);
}

void net_count_reset(void)
{
	utf8guard_counters_reset(&counters);
}
