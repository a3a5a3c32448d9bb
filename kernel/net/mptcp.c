// SPDX-License-Identifier: GPL-2.0
/*
 * MPTCP on watched ports: connections fall back to plain TCP.
 *
 * An MPTCP connection carries one byte stream over several TCP subflows,
 * and the program reads the merged stream: checked subflow by subflow, a
 * lead byte at the end of one subflow followed by ASCII on another would
 * never be judged.  So in mode enforce the MPTCP options (kind 30) of
 * every SYN and SYN-ACK to a watched port are overwritten with NOPs: the
 * server then answers a plain SYN, and both ends fall back to TCP
 * (RFC 8684 3.7), as they do behind a middlebox that strips options.  An
 * MP_JOIN stripped that way fails, and the client drops that subflow.
 * Data on a socket that is an MPTCP subflow anyway (a connection made
 * before the module was loaded, or in mode audit) is refused (tcp.c).
 * Both count in mptcp.
 */

#include <linux/skbuff.h>
#include <net/checksum.h>
#include <net/tcp.h>

#include "net_hook.h"

#define TCPOPT_MPTCP_KIND 30

/* Overwrite byte @at of the TCP header with @value, keeping the checksum. */
static void set_header_byte(struct sk_buff *skb, struct tcphdr *th,
			    unsigned int at, u8 value)
{
	u8 *word = (u8 *)th + (at & ~1U);
	__be16 old, new;

	memcpy(&old, word, sizeof(old));
	((u8 *)th)[at] = value;
	memcpy(&new, word, sizeof(new));
	inet_proto_csum_replace2(&th->check, skb, old, new, false);
}

/*
 * The offsets of MPTCP options in @options (@length bytes), as TCP parses
 * them (tcp_parse_options()): it stops at an end-of-list or a length that
 * does not fit.  Return: how many, their offsets and lengths in @at/@len.
 */
static unsigned int find_mptcp(const u8 *options, unsigned int length,
			       u8 *at, u8 *len, unsigned int max)
{
	unsigned int k = 0, found = 0;
	u8 size;

	while (k < length) {
		if (options[k] == TCPOPT_EOL)
			break;
		if (options[k] == TCPOPT_NOP) {
			k++;
			continue;
		}
		if (k + 1 >= length)
			break;
		size = options[k + 1];
		if (size < 2 || size > length - k)
			break;
		if (options[k] == TCPOPT_MPTCP_KIND && found < max) {
			at[found] = k;
			len[found++] = size;
		}
		k += size;
	}
	return found;
}

/**
 * net_mptcp_strip() - make a SYN to a watched port a plain TCP one
 * @skb: the SYN or SYN-ACK
 * @pkt: its parsed headers
 * @policy: the policy read for this packet
 *
 * In mode enforce its MPTCP options become NOPs; in audit they are only
 * counted.
 *
 * Context: netfilter hook; does not sleep.
 * Return: 0, or -ENOMEM when the header cannot be made writable (the
 * caller refuses the segment).
 */
int net_mptcp_strip(struct sk_buff *skb, const struct net_packet *pkt,
		    const struct utf8guard_policy *policy)
{
	unsigned int header = pkt->offset - pkt->thoff, found, k, b;
	u8 buf[MAX_TCP_OPTION_SPACE], at[MAX_TCP_OPTION_SPACE / 2];
	u8 len[MAX_TCP_OPTION_SPACE / 2];
	const u8 *options;
	struct tcphdr *th;

	if (header <= sizeof(*th))
		return 0;
	options = skb_header_pointer(skb, pkt->thoff + sizeof(*th),
				     header - sizeof(*th), buf);
	if (!options)
		return -EFAULT;
	found = find_mptcp(options, header - sizeof(*th), at, len,
			   ARRAY_SIZE(at));
	if (!found)
		return 0;
	net_count(NET_MPTCP);
	if (policy->mode != UTF8GUARD_MODE_ENFORCE)
		return 0;
	if (skb_ensure_writable(skb, pkt->offset))
		return -ENOMEM;
	th = (struct tcphdr *)(skb->data + pkt->thoff);
	for (k = 0; k < found; k++)
		for (b = 0; b < len[k]; b++)
			set_header_byte(skb, th, sizeof(*th) + at[k] + b,
					TCPOPT_NOP);
	return 0;
}
