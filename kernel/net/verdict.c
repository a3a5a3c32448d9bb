// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict on a watched packet, the last stage of its way through the
 * hook: from what the stages before found (struct net_outcome: the
 * validated payload, or why it cannot be checked as it will be
 * delivered), mode enforce drops a violation or a refusal (NF_DROP),
 * audit lets it through; both count it, and log a violation
 * (rate-limited) with addresses, ports, reason and the bad span in hex,
 * and write its audit record (utf8guard_audit_packet(), not rate-limited).
 * A violation dropped under net/action reset resets its connection
 * (reset.c).  Nothing here calls back into an earlier stage.
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

/*
 * A violation as the log line and its audit record tell it: the packet's
 * endpoints, where in its payload the bad bytes are, and their window.
 */
static void describe_violation(const struct net_packet *pkt,
			       const struct net_payload *payload,
			       struct utf8guard_audit_packet *found)
{
	const struct utf8guard_report *report = &payload->violation;
	long long at = (long long)report->offset - payload->carried;
	size_t before = payload->window_before, n = payload->window_length;

	*found = (struct utf8guard_audit_packet) {
		.operation = protocol_name(pkt),
		.protocol = pkt->protocol,
		.family = pkt->key.family,
		.saddr = &pkt->key.saddr,
		.daddr = &pkt->key.daddr,
		.sport = pkt->key.sport,
		.dport = pkt->key.dport,
		.offset = at < 0 ? pkt->skip : at + pkt->skip,
		.continued = at < 0,
	};
	if (n >= before + report->length) {
		found->window = payload->window;
		found->before = before;
		found->after = n - before - report->length;
	}
}

static void log_violation(const struct utf8guard_policy *policy,
			  const struct utf8guard_report *report,
			  const struct utf8guard_audit_packet *found)
{
	const char *verb = policy->mode == UTF8GUARD_MODE_ENFORCE ?
			   "dropped" : "audit: would drop";
	const u8 *window = found->window;
	char from[64], to[64];

	if (!net_ratelimit())
		return;
	format_endpoint(from, sizeof(from), found->family, found->saddr,
			found->sport);
	format_endpoint(to, sizeof(to), found->family, found->daddr,
			found->dport);
	if (!window) {	/* cannot happen */
		pr_warn("%s %s %s -> %s: %s\n", verb, found->operation, from,
			to, utf8guard_reason_name(report->reason));
		return;
	}
	pr_warn("%s %s %s -> %s: %s at payload offset %lld%s: %*ph%s[%*ph]%s%*ph%s\n",
		verb, found->operation, from, to,
		utf8guard_reason_name(report->reason), (long long)found->offset,
		found->continued ? " (continues the previous segment)" : "",
		(int)found->before, window, found->before ? " " : "",
		(int)report->length, window + found->before,
		found->after ? " " : "", (int)found->after,
		window + found->before + report->length,
		report->path_trick ? " (path trick)" : "");
}

/* net/action reset, for a violation dropped in mode enforce. */
static void reset(struct sk_buff *skb, const struct net_packet *pkt,
		  const struct nf_hook_state *state,
		  const struct net_outcome *outcome)
{
	if (pkt->action != NET_ACTION_RESET)
		return;
	if (outcome->reset == NET_RESET_SENDER)
		net_reset_segment(skb, state, NULL);
	else if (outcome->reset == NET_RESET_SOCKET)
		net_reset_segment(skb, state, outcome->sk);
}

/* A packet that cannot be checked as it will be delivered. */
static unsigned int refuse(const struct utf8guard_policy *policy,
			   enum net_counter why)
{
	net_count(why);
	return policy->mode == UTF8GUARD_MODE_ENFORCE ? NF_DROP : NF_ACCEPT;
}

/**
 * net_verdict() - count, log and judge what was found for a packet
 * @skb: the packet
 * @pkt: its parsed headers, and where its payload is (bytes from
 *	@pkt->skip on were checked)
 * @state: its netfilter hook state
 * @policy: the policy read for this packet
 * @outcome: what the stages before found
 *
 * A checked payload counts in checked.  A violation counts in its reason
 * and in dropped (mode enforce) or audited, and is logged (rate-limited)
 * with addresses, ports, reason and the bad span in hex, and has its audit
 * record written; dropped, it
 * resets the connection per @outcome->reset when net/action is reset.
 * Else a refusal counts in @outcome->why.  Everything refused is dropped
 * in mode enforce.  The only place the hook decides a verdict.
 *
 * Context: netfilter hook; does not sleep.
 * Return: NF_DROP or NF_ACCEPT.
 */
unsigned int net_verdict(struct sk_buff *skb, const struct net_packet *pkt,
			 const struct nf_hook_state *state,
			 const struct utf8guard_policy *policy,
			 const struct net_outcome *outcome)
{
	const struct net_payload *payload = &outcome->payload;
	struct utf8guard_audit_packet found;
	int ret;

	if (outcome->checked) {
		net_count(NET_CHECKED);
		ret = utf8guard_account(policy, payload->found ?
					&payload->violation : NULL,
					protocol_name(pkt));
		if (payload->found) {
			net_count(NET_REASON_FIRST + payload->violation.reason);
			net_count(ret ? NET_DROPPED : NET_AUDITED);
			describe_violation(pkt, payload, &found);
			log_violation(policy, &payload->violation, &found);
			utf8guard_audit_packet(policy, &payload->violation,
					       &found);
			if (ret)
				reset(skb, pkt, state, outcome);
			return ret ? NF_DROP : NF_ACCEPT;
		}
	}
	if (outcome->refused)
		return refuse(policy, outcome->why);
	return NF_ACCEPT;
}
