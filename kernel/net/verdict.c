// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict on the payload of a watched packet: validated under the
 * current policy, mode enforce drops a violation (NF_DROP), audit lets it
 * through; both count it and log it (rate-limited) with addresses, ports,
 * reason and the bad span in hex.
 */

#include <linux/netfilter.h>
#include <linux/skbuff.h>

#include "net_hook.h"

static void format_endpoint(char *buf, size_t size, u8 family,
			    const struct in6_addr *addr, __be16 port)
{
	if (family == NFPROTO_IPV4)
		snprintf(buf, size, "%pI4:%u", addr, ntohs(port));
	else
		snprintf(buf, size, "[%pI6c]:%u", addr, ntohs(port));
}

static const char *protocol_name(const struct net_packet *pkt)
{
	return pkt->protocol == IPPROTO_TCP ? "tcp" : "udp";
}

static void log_violation(const struct utf8guard_policy *policy,
			  const struct net_packet *pkt,
			  const struct net_payload *payload)
{
	const struct utf8guard_report *report = &payload->violation;
	const char *verb = policy->mode == UTF8GUARD_MODE_ENFORCE ?
			   "dropped" : "audit: would drop";
	char from[64], to[64];
	const u8 *window = payload->window;
	size_t before = payload->window_before, n = payload->window_length;
	long long at = (long long)report->offset - payload->carried;

	if (!net_ratelimit())
		return;
	format_endpoint(from, sizeof(from), pkt->key.family, &pkt->key.saddr,
			pkt->key.sport);
	format_endpoint(to, sizeof(to), pkt->key.family, &pkt->key.daddr,
			pkt->key.dport);
	if (n < before + report->length) {	/* cannot happen */
		pr_warn("%s %s %s -> %s: %s\n", verb, protocol_name(pkt), from,
			to, utf8guard_reason_name(report->reason));
		return;
	}
	pr_warn("%s %s %s -> %s: %s at payload offset %lld%s: %*ph%s[%*ph]%s%*ph%s\n",
		verb, protocol_name(pkt), from, to,
		utf8guard_reason_name(report->reason),
		at < 0 ? pkt->skip : at + pkt->skip,
		at < 0 ? " (continues the previous segment)" : "",
		(int)before, window, before ? " " : "", (int)report->length,
		window + before, n > before + report->length ? " " : "",
		(int)(n - before - report->length),
		window + before + report->length,
		report->path_trick ? " (path trick)" : "");
}

/**
 * net_check_payload() - validate, count and judge a payload
 * @skb: the packet
 * @pkt: where its payload is; bytes from @pkt->skip on are checked
 * @policy: the policy read for this packet
 * @carry: bytes a previous segment left undecided, checked first
 * @carry_length: how many (0 for none)
 * @at_end: whether the text ends with this payload
 * @result: gets what the validator found; its stream carry is what the
 *	payload leaves undecided at its end
 *
 * Context: any context; does not sleep.
 * Return: NF_DROP for a violation in mode enforce (or an unreadable
 * payload), else NF_ACCEPT.
 */
unsigned int net_check_payload(struct sk_buff *skb,
			       const struct net_packet *pkt,
			       const struct utf8guard_policy *policy,
			       const u8 *carry, u8 carry_length, bool at_end,
			       struct net_payload *result)
{
	int ret;

	if (net_payload_check(skb, pkt->offset + pkt->skip,
			      pkt->len - pkt->skip, carry, carry_length,
			      at_end, policy->classes, result))
		return net_refuse(policy, NET_UNPARSED);
	net_count(NET_CHECKED);
	ret = utf8guard_account(policy, result->found ?
				&result->violation : NULL, protocol_name(pkt));
	if (!result->found)
		return NF_ACCEPT;
	net_count(NET_REASON_FIRST + result->violation.reason);
	net_count(ret ? NET_DROPPED : NET_AUDITED);
	log_violation(policy, pkt, result);
	return ret ? NF_DROP : NF_ACCEPT;
}

/**
 * net_refuse() - a packet that cannot be checked as it will be delivered
 * @policy: the policy read for this packet
 * @why: the counter that says why
 *
 * Context: any context.
 * Return: NF_DROP in mode enforce, else NF_ACCEPT.
 */
unsigned int net_refuse(const struct utf8guard_policy *policy,
			enum net_counter why)
{
	net_count(why);
	return policy->mode == UTF8GUARD_MODE_ENFORCE ? NF_DROP : NF_ACCEPT;
}
