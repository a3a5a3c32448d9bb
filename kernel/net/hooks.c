// SPDX-License-Identifier: GPL-2.0
/*
 * Netfilter hooks of utf8guard_nf.ko, in every network namespace: IPv4 and
 * IPv6 at LOCAL_IN, and at FORWARD (which does nothing unless net/forward
 * is 1).  They run after the filter and security tables, so that packets
 * the firewall drops are not counted.  They see whole datagrams: IPv4
 * reassembles before LOCAL_IN, and before FORWARD while net/forward is 1
 * (defrag.c); IPv6 only after LOCAL_IN, so nf_defrag_ipv6 is enabled in
 * each namespace.
 *
 * A packet a watched port cannot be for leaves first, after a few loads
 * (unwatched()).  For a UDP or TCP packet to a watched destination port,
 * the L4 payload is validated in place under the current policy
 * (payload.c): a UDP datagram as a text of its own, a TCP segment as the
 * part of a stream its socket will deliver (tcp.c).  The settings and the
 * policy are read once, here; the verdict is verdict.c's.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>
#include <net/netns/generic.h>

#include "net_hook.h"

/* After filter (0) and security (50), in both families. */
#define HOOK_PRIORITY (NF_IP_PRI_SECURITY + 10)

static bool parse_l4(struct sk_buff *skb, unsigned int thoff,
		     struct net_packet *pkt)
{
	if (pkt->protocol == IPPROTO_UDP) {
		struct udphdr _uh;
		const struct udphdr *uh;
		unsigned int ulen;

		uh = skb_header_pointer(skb, thoff, sizeof(_uh), &_uh);
		if (!uh)
			return false;
		pkt->key.sport = uh->source;
		pkt->key.dport = uh->dest;
		ulen = ntohs(uh->len);
		/* UDP drops datagrams whose length does not fit anyway. */
		if (ulen < sizeof(*uh) || ulen > skb->len - thoff)
			return false;
		pkt->thoff = thoff;
		pkt->offset = thoff + sizeof(*uh);
		pkt->len = ulen - sizeof(*uh);
		return true;
	}
	if (pkt->protocol == IPPROTO_TCP) {
		struct tcphdr _th;
		const struct tcphdr *th;
		unsigned int doff;

		th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
		if (!th)
			return false;
		pkt->key.sport = th->source;
		pkt->key.dport = th->dest;
		doff = th->doff * 4;
		if (doff < sizeof(*th) || doff > skb->len - thoff)
			return false;
		pkt->thoff = thoff;
		pkt->offset = thoff + doff;
		pkt->len = skb->len - pkt->offset;
		/* The data of a SYN (Fast Open) starts after the SYN. */
		pkt->seq = ntohl(th->seq) + th->syn;
		pkt->ack_seq = ntohl(th->ack_seq);
		pkt->ack = th->ack;
		pkt->syn = th->syn;
		pkt->fin = th->fin;
		pkt->rst = th->rst;
		pkt->urg = th->urg;
		return true;
	}
	return false;
}

enum parse_result { PARSE_OTHER, PARSE_OK, PARSE_BAD };

static enum parse_result parse_ipv4(struct sk_buff *skb,
				    struct net_packet *pkt)
{
	const struct iphdr *iph = ip_hdr(skb);

	if (iph->protocol != IPPROTO_UDP && iph->protocol != IPPROTO_TCP)
		return PARSE_OTHER;
	pkt->protocol = iph->protocol;
	memcpy(&pkt->key.saddr, &iph->saddr, sizeof(iph->saddr));
	memcpy(&pkt->key.daddr, &iph->daddr, sizeof(iph->daddr));
	/* A first fragment still shows its ports. */
	if (!(iph->frag_off & htons(IP_OFFSET)) &&
	    !parse_l4(skb, skb_network_offset(skb) + ip_hdrlen(skb), pkt))
		return PARSE_BAD;
	/* Not reassembled although the defragmenter is on. */
	return ip_is_fragment(iph) ? PARSE_BAD : PARSE_OK;
}

static enum parse_result parse_ipv6(struct sk_buff *skb,
				    struct net_packet *pkt)
{
	unsigned int thoff = 0;
	unsigned short fragoff = 0;
	int flags = 0, protocol;

	protocol = ipv6_find_hdr(skb, &thoff, -1, &fragoff, &flags);
	if (protocol < 0)	/* extension headers that cannot be read */
		return PARSE_BAD;
	if (protocol != IPPROTO_UDP && protocol != IPPROTO_TCP)
		return PARSE_OTHER;
	pkt->protocol = protocol;
	pkt->key.saddr = ipv6_hdr(skb)->saddr;
	pkt->key.daddr = ipv6_hdr(skb)->daddr;
	/* A later fragment: @thoff means nothing, the port is unknown. */
	if (fragoff)
		return PARSE_BAD;
	if (!parse_l4(skb, thoff, pkt))
		return PARSE_BAD;
	/* A first fragment, not reassembled although the defragmenter is
	 * on: its ports are known, its payload is not whole.
	 */
	return flags & IP6_FH_F_FRAG ? PARSE_BAD : PARSE_OK;
}

/*
 * Payload bytes per datagram in @skb: the whole payload, or the segment
 * size of a UDP GSO packet (sent with UDP_SEGMENT, or merged by UDP GRO,
 * fraglist GRO included).  Such a packet reaches the hooks whole and is cut
 * into datagrams only for a socket that does not take it whole (UDP_GRO),
 * after the hooks; each datagram is a text of its own either way.
 */
static unsigned int udp_datagram_size(const struct sk_buff *skb,
				      const struct net_packet *pkt)
{
	if (skb_is_gso(skb) &&
	    (skb_shinfo(skb)->gso_type & SKB_GSO_UDP_L4) &&
	    skb_shinfo(skb)->gso_size < pkt->len)
		return skb_shinfo(skb)->gso_size;
	return pkt->len;
}

/*
 * Each UDP datagram is a text of its own, so each datagram of a GSO packet
 * is checked apart: their concatenation could be well-formed while each
 * one delivered is not.  In enforce the first violation drops the packet,
 * every datagram in it; in audit every datagram is checked and counted.
 */
static unsigned int check_udp(struct sk_buff *skb,
			      const struct net_packet *pkt,
			      const struct nf_hook_state *state,
			      const struct utf8guard_policy *policy)
{
	unsigned int size = udp_datagram_size(skb, pkt), done = 0;
	struct net_packet datagram = *pkt;
	struct net_outcome outcome = { .reset = NET_RESET_NONE };
	unsigned int verdict;

	do {
		datagram.offset = pkt->offset + done;
		datagram.len = min(size, pkt->len - done);
		outcome.checked = !net_payload_check(skb, datagram.offset,
						     datagram.len, NULL, 0,
						     true, policy->classes,
						     &outcome.payload);
		outcome.refused = !outcome.checked;
		outcome.why = NET_UNPARSED;
		if (NET_BENCH_STOP(NET_BENCH_BEFORE_VERDICT))
			return NF_ACCEPT;
		verdict = net_verdict(skb, &datagram, state, policy, &outcome);
		done += datagram.len;
	} while (verdict == NF_ACCEPT && done < pkt->len);
	return verdict;
}

/* Headers that cannot be read, to a watched port. */
static unsigned int refuse_unparsed(struct sk_buff *skb,
				    const struct net_packet *pkt,
				    const struct nf_hook_state *state,
				    const struct utf8guard_policy *policy)
{
	struct net_outcome outcome = {
		.refused = true,
		.why = NET_UNPARSED,
		.reset = NET_RESET_NONE,
	};

	return net_verdict(skb, pkt, state, policy, &outcome);
}

/*
 * Whether @skb certainly goes to no watched port: its protocol is neither
 * UDP nor TCP, or has no watched port (a static key), or its destination
 * port is not watched.  Only from headers a few loads find: an IP
 * fragment, an IPv6 extension header or ports outside the linear part
 * take the full parse, which judges them.  Unwatched traffic pays this and
 * no more (Documentation/netfilter-hook-design.rst, "Cost").
 */
static bool unwatched(const struct sk_buff *skb,
		      const struct nf_hook_state *state)
{
	const struct udphdr *ports;
	unsigned int thoff;
	u8 protocol;

	BUILD_BUG_ON(offsetof(struct udphdr, dest) !=
		     offsetof(struct tcphdr, dest));
	if (state->pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		protocol = iph->protocol;
		if (protocol != IPPROTO_UDP && protocol != IPPROTO_TCP)
			return true;
		if (ip_is_fragment(iph))
			return false;
		thoff = skb_network_offset(skb) + ip_hdrlen(skb);
	} else {
		protocol = ipv6_hdr(skb)->nexthdr;
		if (protocol != IPPROTO_UDP && protocol != IPPROTO_TCP)
			return !ipv6_ext_hdr(protocol);
		thoff = skb_network_offset(skb) + sizeof(struct ipv6hdr);
	}
	if (protocol == IPPROTO_UDP ?
	    !static_branch_unlikely(&net_udp_watched) :
	    !static_branch_unlikely(&net_tcp_watched))
		return true;
	/* The ports in the linear part, as good as always. */
	if (thoff + offsetofend(struct udphdr, dest) > skb_headlen(skb))
		return false;
	ports = (const struct udphdr *)(skb->data + thoff);
	return !net_watches(protocol, ntohs(ports->dest));
}

/*
 * A packet a watched port may get.  Not inlined: the fast way out in
 * utf8guard_nf_hook() then needs no stack frame for struct net_packet.
 */
static noinline unsigned int check_packet(struct sk_buff *skb,
					  const struct nf_hook_state *state)
{
	struct utf8guard_policy policy;
	struct net_packet pkt;
	enum parse_result parsed;

	if (!net_enabled() || NET_BENCH_STOP(NET_BENCH_AT_CHECK))
		return NF_ACCEPT;
	policy = utf8guard_policy_get();
	if (policy.mode == UTF8GUARD_MODE_OFF)
		return NF_ACCEPT;

	memset(&pkt, 0, sizeof(pkt));
	pkt.key.net = state->net;
	pkt.key.family = state->pf;
	parsed = state->pf == NFPROTO_IPV4 ? parse_ipv4(skb, &pkt) :
		 parse_ipv6(skb, &pkt);
	if (parsed == PARSE_OTHER)
		return NF_ACCEPT;
	if (parsed == PARSE_BAD) {
		/* A malformed header, or a fragment the defragmenter did
		 * not reassemble: counted; dropped in enforce when its port
		 * is known and watched (a later fragment's port is not).
		 */
		if (pkt.key.dport &&
		    net_watches(pkt.protocol, ntohs(pkt.key.dport)))
			return refuse_unparsed(skb, &pkt, state, &policy);
		net_count(NET_UNPARSED);
		return NF_ACCEPT;
	}
	if (!net_watches(pkt.protocol, ntohs(pkt.key.dport)))
		return NF_ACCEPT;
	pkt.action = net_action();
	if (NET_BENCH_STOP(NET_BENCH_BEFORE_PAYLOAD))
		return NF_ACCEPT;
	if (pkt.protocol == IPPROTO_TCP)
		return net_tcp_check(skb, &pkt, state, &policy);
	return check_udp(skb, &pkt, state, &policy);
}

static unsigned int utf8guard_nf_hook(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	if (state->hook == NF_INET_FORWARD && !net_forward())
		return NF_ACCEPT;
	if (unwatched(skb, state))
		return NF_ACCEPT;
	return check_packet(skb, state);
}

static const struct nf_hook_ops hook_ops[] = {
	{
		.hook = utf8guard_nf_hook,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = HOOK_PRIORITY,
	},
	{
		.hook = utf8guard_nf_hook,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_FORWARD,
		.priority = HOOK_PRIORITY,
	},
	{
		.hook = utf8guard_nf_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = HOOK_PRIORITY,
	},
	{
		.hook = utf8guard_nf_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_FORWARD,
		.priority = HOOK_PRIORITY,
	},
};

/*
 * The hooks go in pre_exit: the namespace core waits for an RCU grace
 * period between pre_exit and exit, so no hook of @net runs any more when
 * exit frees its flows.
 */
static int __net_init hooks_net_init(struct net *net)
{
	int ret;

	ret = nf_defrag_ipv6_enable(net);
	if (ret)
		goto fail;
	ret = nf_register_net_hooks(net, hook_ops, ARRAY_SIZE(hook_ops));
	if (ret)
		goto ipv6_disable;
	return 0;

ipv6_disable:
	nf_defrag_ipv6_disable(net);
fail:
	pr_err("cannot hook a network namespace: %d\n", ret);
	return ret;
}

static void __net_exit hooks_net_pre_exit(struct net *net)
{
	nf_unregister_net_hooks(net, hook_ops, ARRAY_SIZE(hook_ops));
}

static void __net_exit hooks_net_exit(struct net *net)
{
	nf_defrag_ipv6_disable(net);
	net_flows_flush_net(net);
}

static struct pernet_operations hooks_net_ops = {
	.init = hooks_net_init,
	.pre_exit = hooks_net_pre_exit,
	.exit = hooks_net_exit,
};

/* Hooks every namespace that exists, and every one created later. */
int net_hooks_init(void)
{
	return register_pernet_subsys(&hooks_net_ops);
}

/*
 * nf_unregister_net_hooks() does not wait for hooks still running; the
 * grace period between pre_exit and exit does, so when this returns no
 * hook runs and the module can free the flows, ports and counters.
 */
void net_hooks_exit(void)
{
	unregister_pernet_subsys(&hooks_net_ops);
}
