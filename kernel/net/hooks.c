// SPDX-License-Identifier: GPL-2.0
/*
 * Netfilter hooks of utf8guard_nf.ko, in every network namespace: IPv4 and
 * IPv6 at LOCAL_IN, and at FORWARD (which does nothing unless net/forward
 * is 1).  They run after the filter and security tables, so that packets
 * the firewall drops anyway are not counted.  The IP defragmenters are
 * enabled in each namespace, so the hooks see whole datagrams.
 *
 * For a UDP or TCP packet to a watched destination port, the L4 payload is
 * validated in place under the current policy: mode enforce drops a
 * violation (NF_DROP), audit lets it through; both count and log it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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
#include <net/netfilter/ipv4/nf_defrag_ipv4.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>
#include <net/netns/generic.h>

#include "net_hook.h"

/* After filter (0) and security (50), in both families. */
#define HOOK_PRIORITY (NF_IP_PRI_SECURITY + 10)

/* Bytes of context logged on each side of the bad span. */
#define LOG_CONTEXT_BYTES 4

/* Where the L4 payload of a packet is, and whose it is. */
struct packet {
	struct net_flow_key key;	/* zeroed: hashed whole */
	u8 protocol;
	unsigned int offset;		/* of the payload in the skb */
	unsigned int len;
	u32 seq;			/* TCP */
	bool fin_or_rst;		/* TCP */
};

static bool parse_l4(struct sk_buff *skb, unsigned int thoff,
		     struct packet *pkt)
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
		pkt->offset = thoff + doff;
		pkt->len = skb->len - pkt->offset;
		/* The data of a SYN (Fast Open) starts after the SYN. */
		pkt->seq = ntohl(th->seq) + th->syn;
		pkt->fin_or_rst = th->fin || th->rst;
		return true;
	}
	return false;
}

enum parse_result { PARSE_OTHER, PARSE_OK, PARSE_BAD };

static enum parse_result parse_ipv4(struct sk_buff *skb, struct packet *pkt)
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

static enum parse_result parse_ipv6(struct sk_buff *skb, struct packet *pkt)
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

static void format_endpoint(char *buf, size_t size, u8 family,
			    const struct in6_addr *addr, __be16 port)
{
	if (family == NFPROTO_IPV4)
		snprintf(buf, size, "%pI4:%u", addr, ntohs(port));
	else
		snprintf(buf, size, "[%pI6c]:%u", addr, ntohs(port));
}

static void log_violation(const struct utf8guard_policy *policy,
			  struct sk_buff *skb, const struct packet *pkt,
			  const u8 *carry, u8 carry_length,
			  const struct utf8guard_report *report)
{
	char from[64], to[64];
	u8 window[2 * LOG_CONTEXT_BYTES + 3];
	u64 start = report->offset, first;
	size_t before, n;
	long long at = (long long)start - carry_length;

	if (!net_ratelimit())
		return;
	before = min_t(u64, start, LOG_CONTEXT_BYTES);
	first = start - before;
	n = net_payload_window(skb, pkt->offset, pkt->len, carry, carry_length,
			       first, before + report->length +
			       LOG_CONTEXT_BYTES, window);
	format_endpoint(from, sizeof(from), pkt->key.family, &pkt->key.saddr,
			pkt->key.sport);
	format_endpoint(to, sizeof(to), pkt->key.family, &pkt->key.daddr,
			pkt->key.dport);
	if (n < before + report->length) {	/* cannot happen */
		pr_warn("%s %s %s -> %s: %s\n",
			policy->mode == UTF8GUARD_MODE_ENFORCE ? "dropped" :
			"audit: would drop",
			pkt->protocol == IPPROTO_TCP ? "tcp" : "udp", from, to,
			utf8guard_reason_name(report->reason));
		return;
	}
	pr_warn("%s %s %s -> %s: %s at payload offset %lld%s: %*ph%s[%*ph]%s%*ph%s\n",
		policy->mode == UTF8GUARD_MODE_ENFORCE ? "dropped" :
		"audit: would drop",
		pkt->protocol == IPPROTO_TCP ? "tcp" : "udp", from, to,
		utf8guard_reason_name(report->reason), at < 0 ? 0 : at,
		at < 0 ? " (continues the previous segment)" : "",
		(int)before, window, before ? " " : "", (int)report->length,
		window + before, n > before + report->length ? " " : "",
		(int)(n - before - report->length),
		window + before + report->length,
		report->path_trick ? " (path trick)" : "");
}

/* Verdict on the payload of a watched packet. */
static unsigned int check_packet(struct sk_buff *skb, struct packet *pkt,
				 const struct utf8guard_policy *policy)
{
	u8 carry[UTF8GUARD_MAX_SHADOW_LENGTH - 1];
	u8 carry_length = 0;
	struct net_payload result;
	bool tcp = pkt->protocol == IPPROTO_TCP;
	bool at_end = !tcp || pkt->fin_or_rst;
	int ret;

	if (tcp && !pkt->len) {
		if (pkt->fin_or_rst)
			net_flow_forget(&pkt->key);
		return NF_ACCEPT;
	}
	if (tcp)
		net_flow_carry(&pkt->key, pkt->seq, carry, &carry_length);
	if (net_payload_check(skb, pkt->offset, pkt->len, carry, carry_length,
			      at_end, policy->classes, &result)) {
		net_count(NET_UNPARSED);
		return policy->mode == UTF8GUARD_MODE_ENFORCE ?
		       NF_DROP : NF_ACCEPT;
	}
	net_count(NET_CHECKED);
	ret = utf8guard_account(policy, result.found ? &result.violation : NULL,
				tcp ? "tcp" : "udp");
	if (result.found) {
		net_count(NET_REASON_FIRST + result.violation.reason);
		net_count(ret ? NET_DROPPED : NET_AUDITED);
		log_violation(policy, skb, pkt, carry, carry_length,
			      &result.violation);
		if (ret)
			return NF_DROP;
	}
	if (!tcp)
		return NF_ACCEPT;
	if (pkt->fin_or_rst)
		net_flow_forget(&pkt->key);
	else if (result.stream.carry_length && !result.found)
		net_flow_store(&pkt->key, pkt->seq + pkt->len,
			       result.stream.carry,
			       result.stream.carry_length);
	return NF_ACCEPT;
}

static unsigned int utf8guard_nf_hook(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct utf8guard_policy policy;
	struct packet pkt;
	enum parse_result parsed;

	if (!net_enabled())
		return NF_ACCEPT;
	if (state->hook == NF_INET_FORWARD && !net_forward())
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
		net_count(NET_UNPARSED);
		if (policy.mode == UTF8GUARD_MODE_ENFORCE && pkt.key.dport &&
		    net_watches(pkt.protocol, ntohs(pkt.key.dport)))
			return NF_DROP;
		return NF_ACCEPT;
	}
	if (!net_watches(pkt.protocol, ntohs(pkt.key.dport)))
		return NF_ACCEPT;
	return check_packet(skb, &pkt, &policy);
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

	ret = nf_defrag_ipv4_enable(net);
	if (ret)
		goto fail;
	ret = nf_defrag_ipv6_enable(net);
	if (ret)
		goto ipv4_disable;
	ret = nf_register_net_hooks(net, hook_ops, ARRAY_SIZE(hook_ops));
	if (ret)
		goto ipv6_disable;
	return 0;

ipv6_disable:
	nf_defrag_ipv6_disable(net);
ipv4_disable:
	nf_defrag_ipv4_disable(net);
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
	nf_defrag_ipv4_disable(net);
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
