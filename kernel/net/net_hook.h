/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard_nf.ko internals: the netfilter payload hook.
 *
 *	hooks.c		netfilter hooks in every network namespace,
 *			parsing the headers
 *	tcp.c		TCP: which bytes of a segment the socket will
 *			deliver, and after what
 *	flows.c		per-flow TCP state: split characters, next
 *	mptcp.c		MPTCP: fall back to TCP on watched ports
 *	payload.c	validating an L4 payload in place (non-linear skbs)
 *	verdict.c	the verdict on a packet: counts, log line, drop,
 *			reset
 *	reset.c		net/action reset: resetting refused connections
 *	ports.c		the watched port set: parse and format
 *	settings.c	enabled, ports, forward, action (kit settings, with
 *			their module parameters)
 *	defrag.c	the IPv4 defragmenter while net/forward is 1
 *	counters.c	net/stats/ counters (a kit counter set)
 *	sysfs.c		/sys/kernel/utf8guard/net/ (a kit directory)
 *	main.c		module parameters, load and unload
 *
 * A packet's way runs down the first six in that order (a TCP segment
 * enters flows.c twice: to claim its flow before validation, to settle it
 * after), and no file calls one above it
 * (Documentation/netfilter-hook-design.rst, "Source layout").
 */
#ifndef UTF8GUARD_NET_HOOK_H
#define UTF8GUARD_NET_HOOK_H

#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include "utf8guard.h"

struct kobject;
struct net;
struct utf8guard_kit;
struct utf8guard_kit_settings;
struct utf8guard_kit_stats;
struct nf_hook_state;
struct sk_buff;
struct sock;

/* counters.c: net/stats/<name>; the names are ABI. */
enum net_counter {
	NET_CHECKED,
	NET_DROPPED,
	NET_AUDITED,
	NET_UNPARSED,
	NET_EVICTED,
	NET_EXPIRED,
	NET_NOMEM,
	NET_REORDERED,
	NET_FULL,
	NET_NOSTATE,
	NET_MPTCP,
	NET_FRAGMENTED,
	NET_RESET,
	/*
	 * One per ill-formed reason, NET_REASON_FIRST + enum utf8guard_reason:
	 * payloads are judged by strict and path-tricks only (the character
	 * classes judge names and paths), so no other reason can occur.
	 */
	NET_REASON_FIRST,
	NET_COUNTER_COUNT = NET_REASON_FIRST +
			    UTF8GUARD_REASON_LAST_ILL_FORMED + 1
};

extern struct utf8guard_kit_stats net_stats;
void net_count(enum net_counter counter);

/* ports.c: the set of watched destination ports, per protocol. */
#define NET_PORTS_TEXT_MAX	4096

#define NET_PORT_COUNT		65536

/* One bitmap per protocol, bit = destination port. */
struct net_ports {
	DECLARE_BITMAP(tcp, NET_PORT_COUNT);
	DECLARE_BITMAP(udp, NET_PORT_COUNT);
};

struct net_ports *net_ports_parse(const char *text, size_t len,
				  const char **error);
void net_ports_free(struct net_ports *ports);

/*
 * Whether @port of @protocol (IPPROTO_UDP, or else IPPROTO_TCP) is in
 * @ports.  Inline: every packet of a protocol with a watched port asks.
 */
static inline bool net_ports_has(const struct net_ports *ports, u8 protocol,
				 u16 port)
{
	return test_bit(port, protocol == IPPROTO_UDP ? ports->udp :
			ports->tcp);
}
bool net_ports_any(const struct net_ports *ports, u8 protocol);
size_t net_ports_format(const struct net_ports *ports, char *buf,
			size_t size);

/* settings.c */
/* net/action: what a refused TCP segment does to its connection */
enum net_action {
	NET_ACTION_DROP,	/* nothing: the sender retransmits */
	NET_ACTION_RESET,	/* reset at both ends (reset.c) */
};

/* The kit settings of net_settings, in order. */
enum net_setting {
	NET_SETTING_ENABLED,
	NET_SETTING_PORTS,
	NET_SETTING_FORWARD,
	NET_SETTING_ACTION,
	NET_SETTING_COUNT
};

extern struct utf8guard_kit_settings net_settings;
int net_settings_init(void);
void net_settings_exit(void);
bool net_enabled(void);
bool net_forward(void);
enum net_action net_action(void);
const char *net_action_name(enum net_action action);
size_t net_format_ports(char *buf, size_t size);
extern struct net_ports __rcu *net_watched_ports;

/*
 * Whether packets to @port of @protocol (IPPROTO_UDP or IPPROTO_TCP) are
 * checked.  From a netfilter hook, which runs under rcu_read_lock(): the
 * set it reads stays until the hook returns.  Inline: every packet of a
 * protocol with a watched port asks.
 */
static inline bool net_watches(u8 protocol, u16 port)
{
	const struct net_ports *ports = rcu_dereference(net_watched_ports);

	return ports && net_ports_has(ports, protocol, port);
}
/* On while net/ports has a port of the protocol. */
DECLARE_STATIC_KEY_FALSE(net_tcp_watched);
DECLARE_STATIC_KEY_FALSE(net_udp_watched);

/* defrag.c */
int net_defrag_forward_on(void);
void net_defrag_forward_off(void);

/* payload.c */
/* Bytes of context logged on each side of the bad span. */
#define NET_LOG_CONTEXT_BYTES	4
/* Payload bytes validated in one vector section, at most (and a chunk). */
#define NET_VECTOR_HOLD_BYTES	SZ_64K

/**
 * struct net_payload - what was found in one L4 payload
 * @stream: validator state after the payload (its carry is what a TCP
 *	segment leaves undecided at its end)
 * @violation: the first error the policy refuses, when @found
 * @found: whether there is one
 * @carried: bytes of carry fed before the payload (@violation's offset
 *	counts them first)
 * @window: when @found, the bytes of carry and payload around the
 *	violation, for the log line: up to NET_LOG_CONTEXT_BYTES before it,
 *	its own, up to NET_LOG_CONTEXT_BYTES after it
 * @window_before: how many of @window are before the violation
 * @window_length: how many bytes @window holds (fewer at the payload's
 *	end)
 */
struct net_payload {
	struct utf8guard_stream stream;
	struct utf8guard_report violation;
	bool found;
	u8 carried;
	u8 window[2 * NET_LOG_CONTEXT_BYTES + 3];
	size_t window_before;
	size_t window_length;
};

int net_payload_check(struct sk_buff *skb, unsigned int offset,
		      unsigned int len, const u8 *carry, u8 carry_length,
		      bool at_end, u32 classes, struct net_payload *result);

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

/**
 * struct net_flow_state - what net_flow_lookup() found
 * @carry: the bytes stored for the position asked about
 * @carry_length: their number (0: a character boundary)
 * @has_next: whether @next is known
 * @next: end of the last segment let into a busy socket's backlog
 * @from: net_flow_claim(): where the segment is checked from
 */
struct net_flow_state {
	u32 from;
	u8 carry[UTF8GUARD_MAX_SHADOW_LENGTH - 1];
	u8 carry_length;
	bool has_next;
	u32 next;
};

/* struct net_flow_end flags */
#define NET_FLOW_CREATE		BIT(0)
#define NET_FLOW_NEXT_SET	BIT(1)
#define NET_FLOW_NEXT_MAX	BIT(2)

int net_flows_init(unsigned int max, unsigned int timeout_seconds);
void net_flows_exit(void);
void net_flows_flush_net(const struct net *net);
void net_flow_lookup(const struct net_flow_key *key, const struct sock *sk,
		     u32 seq, struct net_flow_state *state);
int net_flow_claim(const struct net_flow_key *key, struct sock *sk,
		   u32 origin, u32 seq, u32 rcv_nxt, bool busy,
		   struct net_flow_state *state);
void net_flow_forget_stale(const struct net_flow_key *key);
int net_flow_claim_start(const struct net_flow_key *key, struct sock *sk,
			 u32 seq);

/**
 * struct net_flow_end - how a checked segment leaves its flow
 * @refused: it is refused already (a violation, an unreadable payload,
 *	no character boundary where one is needed): nothing is stored
 * @enforce: a refused segment is dropped (mode enforce): it will not reach
 *	TCP, so its claim goes
 * @claimed: it was checked from a claim at @from (net_flow_claim(),
 *	net_flow_claim_start())
 * @from: where
 * @stream: the validator's state after it, whose carry is stored at @seq
 *	unless @refused; NULL: nothing is stored
 * @seq: sequence number of the byte after the segment
 * @frontier: the receiver's rcv_nxt, or a lower bound: carries before it
 *	are no longer needed
 * @flags: NET_FLOW_CREATE: make an entry even without a carry;
 *	NET_FLOW_NEXT_SET: the flow's next becomes @seq;
 *	NET_FLOW_NEXT_MAX: so does it when @seq is beyond it
 * @has_queue: the socket has an out-of-order queue, starting at @queue: a
 *	segment that reaches it must end exactly there and leave the carry
 *	its first segment was checked after
 * @queue: where
 */
struct net_flow_end {
	bool refused;
	bool enforce;
	bool claimed;
	u32 from;
	const struct utf8guard_stream *stream;
	u32 seq;
	u32 frontier;
	unsigned int flags;
	bool has_queue;
	u32 queue;
};

int net_flow_settle(const struct net_flow_key *key, struct sock *sk,
		    const struct net_flow_end *end);
unsigned int net_flows_count(void);
unsigned int net_flows_max(void);
unsigned int net_flows_buckets(void);
size_t net_flow_size(void);

/**
 * struct net_packet - where the L4 payload of a packet is, and whose it is
 * @key: its flow (zeroed first: hashed whole)
 * @protocol: IPPROTO_UDP or IPPROTO_TCP
 * @thoff: offset of the L4 header in the skb
 * @offset: offset of the payload in the skb
 * @len: payload length
 * @skip: leading payload bytes not checked (TCP delivered them before)
 * @seq: TCP: sequence number of the first payload byte
 * @ack_seq: TCP: the acknowledgment number, when @ack
 * @ack: TCP flags
 * @syn: TCP flags
 * @fin: TCP flags
 * @rst: TCP flags
 * @urg: TCP flags
 * @action: net/action, read with the policy
 */
struct net_packet {
	struct net_flow_key key;
	u8 protocol;
	unsigned int thoff;
	unsigned int offset;
	unsigned int len;
	unsigned int skip;
	u32 seq;
	u32 ack_seq;
	bool ack, syn, fin, rst, urg;
	enum net_action action;
};

/* hooks.c */
int net_hooks_init(void);
void net_hooks_exit(void);

/*
 * Where the benchmark build utf8guard_nf_bench.ko (tests/net/kmod/,
 * bench/nf-udp.sh --stop) lets the check of a packet to a watched port
 * stop, to measure the hook in layers.  Always false in utf8guard_nf.ko.
 */
enum net_bench_stop {
	NET_BENCH_FULL,			/* the whole check */
	NET_BENCH_AT_CHECK,		/* the hook call and the port lookup */
	NET_BENCH_BEFORE_PAYLOAD,	/* headers, settings and policy read */
	NET_BENCH_BEFORE_VERDICT,	/* payload validated, nothing counted */
};

#ifndef NET_BENCH_STOP
#define NET_BENCH_STOP(where) false
#endif

/* verdict.c */
/* Whom net/action reset resets for a segment refused for its payload. */
enum net_reset_target {
	NET_RESET_NONE,		/* no one: UDP, or TCP would not take it */
	NET_RESET_SENDER,	/* a RST to its sender (REJECT's) */
	NET_RESET_SOCKET,	/* the local connection, at both ends */
};

/**
 * struct net_outcome - what the stages before the verdict found
 * @payload: what the validator found, when @checked
 * @checked: whether the payload was validated
 * @refused: whether the packet is refused although @payload holds no
 *	violation: it cannot be checked as it will be delivered
 * @why: the counter that says why, when @refused
 * @reset: whom net/action reset resets for a violation
 * @sk: the local full socket, for NET_RESET_SOCKET
 */
struct net_outcome {
	struct net_payload payload;
	bool checked;
	bool refused;
	enum net_counter why;
	enum net_reset_target reset;
	struct sock *sk;
};

/* Whether @outcome refuses the packet: net_verdict() drops it in enforce. */
static inline bool net_outcome_refuses(const struct net_outcome *outcome)
{
	return outcome->refused || (outcome->checked && outcome->payload.found);
}

unsigned int net_verdict(struct sk_buff *skb, const struct net_packet *pkt,
			 const struct nf_hook_state *state,
			 const struct utf8guard_policy *policy,
			 const struct net_outcome *outcome);

/* tcp.c */
unsigned int net_tcp_check(struct sk_buff *skb, struct net_packet *pkt,
			   const struct nf_hook_state *state,
			   const struct utf8guard_policy *policy);

/* mptcp.c */
int net_mptcp_strip(struct sk_buff *skb, const struct net_packet *pkt,
		    const struct utf8guard_policy *policy);

/* reset.c */
bool net_reset_socket(struct sock *sk);
void net_reset_segment(struct sk_buff *skb, const struct nf_hook_state *state,
		       struct sock *sk);
void net_reset_init(unsigned int max);
void net_reset_exit(void);

/* sysfs.c: the kit directory net/ (its settings and stats live above) */
extern struct utf8guard_kit net_kit;

#endif /* UTF8GUARD_NET_HOOK_H */
