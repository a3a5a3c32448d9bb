// SPDX-License-Identifier: GPL-2.0
/*
 * TCP: check what the receiving socket will deliver, not what a segment
 * says.
 *
 * A TCP receiver delivers the bytes of a segment from its rcv_nxt on,
 * right after the bytes it delivered before; it keeps a segment that
 * starts beyond rcv_nxt out of order and delivers it later, cut where the
 * data that fills the gap ends; it throws away segments that fail its own
 * checks (checksum, window, timestamps, ACK, a SYN on a connection).  A
 * hostile sender can use each of these to make the bytes checked differ
 * from the bytes the application reads.  So the rule is: a segment that
 * TCP may throw away neither reads nor writes flow state.  State is read
 * and written only for a full socket that takes data, from what the
 * socket says under its spinlock:
 *
 *  - The socket is not busy (no task owns it): its rcv_nxt is exactly where
 *    TCP will start taking bytes from this segment, right after the hook
 *    returns.  Bytes before rcv_nxt are not checked (TCP throws them
 *    away); the rest are checked after the carry stored for rcv_nxt.  A
 *    segment beyond rcv_nxt is dropped (reordered): the sender sends it
 *    again, in order.  A segment that reaches the first one in the
 *    socket's out-of-order queue must end exactly where that one starts
 *    and leave the carry that one was checked with, or it is dropped
 *    (reordered).
 *  - The socket is busy: the segment waits in the socket's backlog behind
 *    the ones the hook let in before.  It must start exactly where the
 *    last of them ends (the flow's next), and is checked after the carry
 *    stored there; anything else is dropped (reordered).
 *  - Either way the flow is claimed from there until TCP has the segment
 *    (net_flow_claim()): a segment of the same flow checked from the same
 *    place on another CPU meanwhile (loopback and veth receive on the
 *    sending CPU, so a sender on two CPUs can race two segments) is
 *    dropped (reordered), since TCP would deliver its tail after the
 *    other one's bytes.  Every accepted segment's end is the flow's next.
 *
 * Every other segment is checked as the start of a text, from a character
 * boundary, and must end on one (else nostate): a SYN or SYN-ACK (Fast
 * Open data; a SYN on a connection TCP throws away), the data on the ACK
 * that completes a handshake (a request socket, or a listener's SYN
 * cookie: it must start at the request's rcv_nxt), and segments to no
 * socket or one that takes no data (but data without SYN for a socket
 * waiting for its SYN-ACK is refused: TCP may take it after the SYN-ACK,
 * trimmed at the rcv_nxt that sets).  None of them stores anything, so
 * stray segments cannot fill the table; but handshake data claims the
 * flow from its start (net_flow_claim_start()): two ACKs with data that
 * complete one handshake at once would both be checked from there, and
 * TCP hands the second to the socket the first one made.  Forwarded segments have no
 * socket to ask: they are checked after the carry stored for their
 * sequence number, in entries the table may evict (counted).
 *
 * Before any of that the TCP checksum is verified, urgent data is refused
 * (TCP takes the urgent byte out of the stream), and so is a reassembled
 * IP fragment: fragments are steered to a CPU by their addresses only, so
 * one flow's segments could be checked on two CPUs at once, against an
 * rcv_nxt the other one is moving.  MPTCP is handled in mptcp.c.  A FIN
 * ends the text: a character left undecided at the FIN is truncated.
 */

#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <net/inet_sock.h>
#include <net/mptcp.h>
#include <net/inet6_hashtables.h>
#include <net/inet_hashtables.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/request_sock.h>
#include <net/tcp.h>

#include "net_hook.h"

/* Where TCP stands for a segment's flow. */
struct tcp_view {
	struct sock *sk;	/* the full socket; else NULL */
	struct sock *found;	/* what the lookup returned */
	bool put;		/* a reference to drop on @found */
	bool forwarded;		/* not for a local socket */
	bool handshake;		/* a request socket: rcv_nxt is its */
	bool opens;		/* a request socket or a listener */
	bool busy;		/* a task owns the socket: backlog */
	bool connecting;	/* a full socket in SYN_SENT */
	bool mptcp;		/* an MPTCP subflow */
	bool ack_ok;		/* TCP would take the segment's ACK */
	u32 rcv_nxt;		/* exact unless busy, then a lower bound */
	u32 origin;		/* the connection's first rcv_nxt (unless busy) */
	bool has_ofo;		/* not busy: an out-of-order queue */
	u32 ofo_seq;		/* where its first segment starts */
};

/*
 * The socket the segment is for, looked up exactly as tcp_v4_rcv() and
 * tcp_v6_rcv() will: the interface TCP matches a device-bound socket
 * against (inet_iif(): for local traffic the sender's output device, not
 * the hook's input device) and the L3 master device's slave (VRF).  A
 * lookup that differed from TCP's could miss a device-bound socket and
 * check its segments as the start of a text.  *@put: a reference to drop.
 */
static struct sock *find_socket(struct sk_buff *skb,
				const struct net_packet *pkt,
				const struct nf_hook_state *state, bool *put)
{
	struct inet_hashinfo *hashinfo =
		state->net->ipv4.tcp_death_row.hashinfo;
	int doff = pkt->offset - pkt->thoff;
	bool refcounted;
	struct sock *sk;

	*put = !skb->sk;
	if (skb->sk)		/* early demux */
		return skb->sk;
	if (state->pf == NFPROTO_IPV4)
		sk = __inet_lookup(state->net, hashinfo, skb, doff,
				   pkt->key.saddr.s6_addr32[0], pkt->key.sport,
				   pkt->key.daddr.s6_addr32[0], pkt->key.dport,
				   inet_iif(skb), inet_sdif(skb), &refcounted);
	else
		sk = __inet6_lookup(state->net, hashinfo, skb, doff,
				    &pkt->key.saddr, pkt->key.sport,
				    &pkt->key.daddr, ntohs(pkt->key.dport),
				    inet6_iif(skb), inet6_sdif(skb),
				    &refcounted);
	if (sk && !refcounted && !refcount_inc_not_zero(&sk->sk_refcnt))
		sk = NULL;
	return sk;
}

/*
 * Under the socket's spinlock, as TCP takes it for an incoming segment:
 * while no task owns the socket, rcv_nxt and the out-of-order queue can
 * change only by processing segments, which this CPU does after the hook.
 */
static void read_full_socket(struct sock *sk, const struct net_packet *pkt,
			     struct tcp_view *view)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *ofo;

	local_bh_disable();
	bh_lock_sock(sk);
	view->busy = sock_owned_by_user(sk);
	view->rcv_nxt = READ_ONCE(tp->rcv_nxt);
	/*
	 * Where this connection's stream began: TCP moves rcv_nxt and
	 * bytes_received together, and tcp_disconnect() zeroes the count, so
	 * a socket connected again (same addresses and ports) has another
	 * origin.  While a task owns the socket it may be between the two
	 * stores: then it is only a guess.
	 */
	view->origin = view->rcv_nxt - (u32)READ_ONCE(tp->bytes_received);
	/*
	 * TCP throws away a segment without ACK, or whose ACK is of data
	 * not sent or older than the window it allows (tcp_ack(), with
	 * RFC 5961 5.2 and "do not accept ACK of bytes we never sent").
	 */
	view->ack_ok = pkt->ack &&
		       !before(pkt->ack_seq, tp->snd_una -
			       min_t(u64, tp->max_window, tp->bytes_acked)) &&
		       !after(pkt->ack_seq, tp->snd_nxt);
	if (!view->busy) {
		ofo = skb_rb_first(&tp->out_of_order_queue);
		if (ofo) {
			view->has_ofo = true;
			view->ofo_seq = TCP_SKB_CB(ofo)->seq;
		}
	}
	bh_unlock_sock(sk);
	local_bh_enable();
}

static void get_view(struct sk_buff *skb, const struct net_packet *pkt,
		     const struct nf_hook_state *state, struct tcp_view *view)
{
	struct sock *sk;

	memset(view, 0, sizeof(*view));
	if (state->hook != NF_INET_LOCAL_IN) {
		view->forwarded = true;
		return;
	}
	sk = find_socket(skb, pkt, state, &view->put);
	view->found = sk;
	if (!sk)
		return;
	switch (sk->sk_state) {
	case TCP_NEW_SYN_RECV:	/* data on the ACK that ends a handshake */
		view->rcv_nxt = tcp_rsk(inet_reqsk(sk))->rcv_nxt;
		view->handshake = true;
		view->opens = true;
		break;
	case TCP_LISTEN:	/* a SYN cookie, or its request just went */
		view->opens = true;
		break;
	case TCP_SYN_SENT:	/* a client before the peer's SYN-ACK */
		view->connecting = true;
		break;
	case TCP_SYN_RECV:	/* Fast Open */
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
		view->sk = sk;
		view->mptcp = sk_is_mptcp(sk);
		read_full_socket(sk, pkt, view);
		break;
	default:
		break;
	}
}

static void put_view(const struct tcp_view *view)
{
	if (view->found && view->put)
		sock_gen_put(view->found);
}

/*
 * The verdict on a segment refused for its payload, with net/action reset
 * applied: a local connection is aborted only for a segment TCP would take
 * (in order, checked from rcv_nxt, with an acceptable ACK), so that a
 * blind sender cannot reset connections it could not write to; anything
 * else gets the RST to its sender that REJECT would send.
 */
static unsigned int refuse_violation(struct sk_buff *skb,
				     const struct nf_hook_state *state,
				     const struct utf8guard_policy *policy,
				     const struct tcp_view *view,
				     bool in_stream)
{
	if (policy->mode != UTF8GUARD_MODE_ENFORCE ||
	    net_action() != NET_ACTION_RESET)
		return NF_DROP;
	if (!in_stream)
		net_reset_segment(skb, state, NULL);
	else if (view->ack_ok)
		net_reset_segment(skb, state, view->sk);
	return NF_DROP;
}

/* A store that failed: the segment must not pass. */
static unsigned int refuse_store(const struct utf8guard_policy *policy,
				 int error)
{
	if (error != -EBUSY)
		return net_refuse(policy, NET_NOMEM);
	pr_warn_ratelimited("flow table full (flows_max %u) of flows holding split characters: TCP segment refused\n",
			    net_flows_max());
	return net_refuse(policy, NET_FULL);
}

/* The start of a text: it must end on a character boundary. */
static unsigned int check_from_boundary(struct sk_buff *skb,
					struct net_packet *pkt,
					const struct nf_hook_state *state,
					const struct utf8guard_policy *policy,
					const struct tcp_view *view)
{
	struct net_payload result;
	unsigned int verdict;

	verdict = net_check_payload(skb, pkt, policy, NULL, 0, pkt->fin,
				    &result);
	if (result.found && verdict == NF_DROP)
		return refuse_violation(skb, state, policy, view,
						false);
	if (verdict != NF_ACCEPT || result.found)
		return verdict;
	if (result.stream.carry_length)
		return net_refuse(policy, NET_NOSTATE);
	return NF_ACCEPT;
}

/*
 * The start of a text, storing nothing: a SYN, handshake data, no socket
 * that takes data.  Data that may open a connection (for a request socket
 * or a listener; not a SYN's, which TCP queues under the new socket's
 * lock) claims the flow from its start: see net_flow_claim_start().
 */
static unsigned int check_start(struct sk_buff *skb, struct net_packet *pkt,
				const struct nf_hook_state *state,
				const struct utf8guard_policy *policy,
				const struct tcp_view *view)
{
	unsigned int verdict;
	int error;

	if (view->handshake && pkt->seq != view->rcv_nxt)
		return net_refuse(policy, NET_REORDERED);
	if (!view->opens || pkt->syn)
		return check_from_boundary(skb, pkt, state, policy, view);
	error = net_flow_claim_start(&pkt->key, view->found, pkt->seq);
	if (error == -EINPROGRESS)
		return net_refuse(policy, NET_REORDERED);
	if (error)
		return refuse_store(policy, error);
	verdict = check_from_boundary(skb, pkt, state, policy, view);
	if (verdict == NF_DROP)
		net_flow_unclaim(&pkt->key, view->found, pkt->seq);
	return verdict;
}

/* Forwarded: no socket to ask; checked after the carry for its start. */
static unsigned int check_forwarded(struct sk_buff *skb,
				    struct net_packet *pkt,
				    const struct nf_hook_state *state,
				    const struct utf8guard_policy *policy,
				    const struct tcp_view *view)
{
	struct net_flow_state flow;
	struct net_payload result;
	unsigned int verdict;
	int error;

	net_flow_lookup(&pkt->key, NULL, pkt->seq, &flow);
	verdict = net_check_payload(skb, pkt, policy, flow.carry,
				    flow.carry_length, pkt->fin, &result);
	if (result.found && verdict == NF_DROP)
		return refuse_violation(skb, state, policy, view,
						false);
	if (verdict != NF_ACCEPT || result.found)
		return verdict;
	error = net_flow_store(&pkt->key, NULL, pkt->seq + pkt->len,
			       result.stream.carry, result.stream.carry_length,
			       pkt->seq, 0);
	return error ? refuse_store(policy, error) : NF_ACCEPT;
}

/* Whether a segment ending where the out-of-order queue starts leaves the
 * carry the queued segment was checked after.
 */
static bool meets_queue(const struct net_packet *pkt, const struct sock *sk,
			u32 end, const struct utf8guard_stream *stream)
{
	struct net_flow_state there;

	net_flow_lookup(&pkt->key, sk, end, &there);
	return there.carry_length == stream->carry_length &&
	       !memcmp(there.carry, stream->carry, there.carry_length);
}

/* Checked from @flow->from, claimed: the verdict. */
static unsigned int check_claimed(struct sk_buff *skb, struct net_packet *pkt,
				  const struct nf_hook_state *state,
				  const struct utf8guard_policy *policy,
				  const struct tcp_view *view,
				  const struct net_flow_state *flow)
{
	u32 end = pkt->seq + pkt->len;
	struct net_payload result;
	unsigned int verdict, flags;
	int error;

	if (view->busy)
		flags = NET_FLOW_CREATE | NET_FLOW_NEXT_SET;
	else
		flags = view->has_ofo ? NET_FLOW_NEXT_MAX : NET_FLOW_NEXT_SET;
	pkt->skip = flow->from - pkt->seq;
	verdict = net_check_payload(skb, pkt, policy, flow->carry,
				    flow->carry_length, pkt->fin, &result);
	if (result.found && verdict == NF_DROP)
		return refuse_violation(skb, state, policy, view, true);
	if (verdict != NF_ACCEPT || result.found)
		return verdict;
	if (view->has_ofo && !before(end, view->ofo_seq) &&
	    (end != view->ofo_seq ||
	     !meets_queue(pkt, view->sk, end, &result.stream)))
		return net_refuse(policy, NET_REORDERED);
	error = net_flow_store(&pkt->key, view->sk, end, result.stream.carry,
			       result.stream.carry_length, view->rcv_nxt,
			       flags);
	return error ? refuse_store(policy, error) : NF_ACCEPT;
}

/* Checked as TCP will deliver it, from what the socket says. */
static unsigned int check_stateful(struct sk_buff *skb,
				   struct net_packet *pkt,
				   const struct nf_hook_state *state,
				   const struct utf8guard_policy *policy,
				   const struct tcp_view *view)
{
	struct net_flow_state flow;
	unsigned int verdict;
	int error;

	/* TCP throws it away for its ACK: it must not leave state. */
	if (!view->ack_ok)
		return net_refuse(policy, NET_UNPARSED);
	/*
	 * Delivered before: TCP throws the data away.  A FIN right after
	 * such data is at rcv_nxt: TCP takes it, and it ends the text after
	 * the carry stored there (checked below, with no bytes).
	 */
	if (before(pkt->seq, view->rcv_nxt) &&
	    !after(pkt->seq + pkt->len + pkt->fin, view->rcv_nxt))
		return NF_ACCEPT;
	error = net_flow_claim(&pkt->key, view->sk, view->origin, pkt->seq,
			       view->rcv_nxt, view->busy, &flow);
	if (error == -ERANGE || error == -EINPROGRESS)
		return net_refuse(policy, NET_REORDERED);
	/* Expired with a carry, its reset queued: nothing to check from. */
	if (error == -ESTALE)
		return net_refuse(policy, NET_NOSTATE);
	if (error)
		return refuse_store(policy, error);
	verdict = check_claimed(skb, pkt, state, policy, view, &flow);
	if (verdict == NF_DROP)
		net_flow_unclaim(&pkt->key, view->sk, flow.from);
	return verdict;
}

/* Reassembled from IP fragments: the CPU it is checked on may differ. */
static bool reassembled(const struct sk_buff *skb,
			const struct nf_hook_state *state)
{
	if (state->pf == NFPROTO_IPV4)
		return IPCB(skb)->frag_max_size;
	return IP6CB(skb)->flags & IP6SKB_FRAGMENTED;
}

static unsigned int check_segment(struct sk_buff *skb, struct net_packet *pkt,
				  const struct nf_hook_state *state,
				  const struct utf8guard_policy *policy,
				  const struct tcp_view *view)
{
	if (view->mptcp)
		return net_refuse(policy, NET_MPTCP);
	if (view->forwarded)
		return pkt->syn ? check_start(skb, pkt, state, policy, view) :
		       check_forwarded(skb, pkt, state, policy, view);
	/*
	 * Data without SYN for a socket still waiting for the SYN-ACK: TCP
	 * throws it away, unless it processes the SYN-ACK first (another
	 * CPU, or the backlog) and then takes this data from the rcv_nxt the
	 * SYN-ACK sets, not from where it starts.  It cannot be checked as
	 * TCP will deliver it: refused, as reordered.
	 */
	if (view->connecting && !pkt->syn)
		return net_refuse(policy, NET_REORDERED);
	if (view->sk && !pkt->syn)
		return check_stateful(skb, pkt, state, policy, view);
	return check_start(skb, pkt, state, policy, view);
}

/**
 * net_tcp_check() - the verdict on a TCP segment to a watched port
 * @skb: the packet
 * @pkt: its parsed headers
 * @state: the netfilter hook state
 * @policy: the policy read for this packet
 *
 * Context: netfilter hook (softirq or BH disabled); does not sleep.
 * Return: NF_ACCEPT or NF_DROP.
 */
unsigned int net_tcp_check(struct sk_buff *skb, struct net_packet *pkt,
			   const struct nf_hook_state *state,
			   const struct utf8guard_policy *policy)
{
	struct tcp_view view;
	unsigned int verdict;

	/* TCP delivers no data of a RST. */
	if (pkt->rst)
		return NF_ACCEPT;
	/* A socket connecting again: its earlier connection's entry goes. */
	if (pkt->syn && state->hook == NF_INET_LOCAL_IN)
		net_flow_forget_stale(&pkt->key);
	if (pkt->syn && net_mptcp_strip(skb, pkt, policy))
		return net_refuse(policy, NET_UNPARSED);
	/*
	 * URG moves the urgent pointer even on a segment without data, and
	 * TCP then takes a byte out of a later segment checked whole.
	 */
	if (pkt->urg)
		return net_refuse(policy, NET_UNPARSED);
	/* A bare ACK has no data. */
	if (!pkt->len && !pkt->fin)
		return NF_ACCEPT;
	if (nf_checksum(skb, state->hook, pkt->thoff, IPPROTO_TCP, state->pf))
		return net_refuse(policy, NET_UNPARSED);
	if (reassembled(skb, state))
		return net_refuse(policy, NET_FRAGMENTED);
	get_view(skb, pkt, state, &view);
	verdict = check_segment(skb, pkt, state, policy, &view);
	put_view(&view);
	return verdict;
}
