/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard_nf.ko internals: the netfilter payload hook.
 *
 *	hooks.c		netfilter hooks in every network namespace, the
 *			verdict, the log line
 *	payload.c	validating an L4 payload in place (non-linear skbs)
 *	flows.c		TCP carry state: characters split across segments
 *	ports.c		the watched port set: parse and format
 *	settings.c	enabled, ports, forward
 *	counters.c	net/stats/ counters
 *	sysfs.c		/sys/kernel/utf8guard/net/
 *	main.c		module parameters, load and unload
 */
#ifndef UTF8GUARD_NET_HOOK_H
#define UTF8GUARD_NET_HOOK_H

#include <linux/in6.h>
#include <linux/types.h>

#include "utf8guard.h"

struct kobject;
struct net;
struct sk_buff;

/* counters.c: net/stats/<name>; the names are ABI. */
enum net_counter {
	NET_CHECKED,
	NET_DROPPED,
	NET_AUDITED,
	NET_UNPARSED,
	NET_EVICTED,
	NET_EXPIRED,
	NET_NOMEM,
	/* One per reason, NET_REASON_FIRST + enum utf8guard_reason. */
	NET_REASON_FIRST,
	NET_COUNTER_COUNT = NET_REASON_FIRST + UTF8GUARD_REASON_COUNT
};

int net_counters_init(void);
void net_counters_exit(void);
void net_count(enum net_counter counter);
u64 net_count_read(enum net_counter counter);
void net_count_reset(void);
/* NULL for the unused reason 0 */
const char *net_counter_name(enum net_counter counter);

/* ports.c: the set of watched destination ports, per protocol. */
#define NET_PORTS_TEXT_MAX	4096

struct net_ports;

struct net_ports *net_ports_parse(const char *text, size_t len,
				  const char **error);
void net_ports_free(struct net_ports *ports);
bool net_ports_has(const struct net_ports *ports, u8 protocol, u16 port);
size_t net_ports_format(const struct net_ports *ports, char *buf,
			size_t size);

/* settings.c */
int net_settings_init(bool enabled, const char *ports, bool forward);
void net_settings_exit(void);
bool net_enabled(void);
bool net_forward(void);
bool net_watches(u8 protocol, u16 port);
int net_store_enabled(const char *text, size_t len);
int net_store_forward(const char *text, size_t len);
int net_store_ports(const char *text, size_t len);
size_t net_format_ports(char *buf, size_t size);

/* payload.c */
/**
 * struct net_payload - what was found in one L4 payload
 * @stream: validator state after the payload (its carry is what a TCP
 *	segment leaves undecided at its end)
 * @violation: the first error the policy refuses, when @found
 * @found: whether there is one
 */
struct net_payload {
	struct utf8guard_stream stream;
	struct utf8guard_report violation;
	bool found;
};

int net_payload_check(struct sk_buff *skb, unsigned int offset,
		      unsigned int len, const u8 *carry, u8 carry_length,
		      bool at_end, u32 classes, struct net_payload *result);
size_t net_payload_window(const struct sk_buff *skb, unsigned int offset,
			  unsigned int len, const u8 *carry, u8 carry_length,
			  u64 start, size_t count, u8 *out);

/* flows.c: TCP flows whose last checked segment ended mid-character. */
/**
 * struct net_flow_key - one direction of a TCP connection
 * @net: its network namespace
 * @saddr: source address (IPv4 in the first 4 bytes)
 * @daddr: destination address
 * @sport: source port
 * @dport: destination port
 * @family: NFPROTO_IPV4 or NFPROTO_IPV6
 */
struct net_flow_key {
	const struct net *net;
	struct in6_addr saddr;
	struct in6_addr daddr;
	__be16 sport;
	__be16 dport;
	u8 family;
};

int net_flows_init(unsigned int max, unsigned int timeout_seconds);
void net_flows_exit(void);
void net_flows_flush_net(const struct net *net);
bool net_flow_carry(const struct net_flow_key *key, u32 seq, u8 *carry,
		    u8 *carry_length);
void net_flow_store(const struct net_flow_key *key, u32 seq, const u8 *carry,
		    u8 carry_length);
void net_flow_forget(const struct net_flow_key *key);
unsigned int net_flows_count(void);
unsigned int net_flows_max(void);

/* hooks.c */
int net_hooks_init(void);
void net_hooks_exit(void);

/* sysfs.c */
int net_sysfs_init(struct kobject *parent);
void net_sysfs_exit(void);

#endif /* UTF8GUARD_NET_HOOK_H */
