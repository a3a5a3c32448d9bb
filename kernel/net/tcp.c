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
 *
 * A segment goes one way: the socket is read, the flow claimed
 * (flows.c), the payload validated (payload.c), the flow settled in one
 * call (net_flow_settle()), and what was found (struct net_outcome) goes
 * to verdict.c, which alone counts, logs, drops and resets.
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

/* The segment cannot be checked as TCP will deliver it: counted in @why. */
static void refuse(struct net_outcome *outcome, enum net_counter why)
{
	outcome->refused = true;
	outcome->why = why;
}

/* A claim or store that failed: the segment must not pass. */
static void refuse_store(struct net_outcome *outcome, int error)
{
	refuse(outcome, error == -EBUSY ? NET_FULL : NET_NOMEM);
}

/*
 * Validate the payload from @pkt->skip on, after @carry; a FIN ends the
 * text.  Return: whether it holds nothing the policy refuses.
 */
static bool validate(struct sk_buff *skb, const struct net_packet *pkt,
		     const struct utf8guard_policy *policy, const u8 *carry,
		     u8 carry_length, struct net_outcome *outcome)
{
	outcome->checked = !net_payload_check(skb, pkt->offset + pkt->skip,
					      pkt->len - pkt->skip, carry,
					      carry_length, pkt->fin,
					      policy->classes,
					      &outcome->payload);
	if (!outcome->checked)
		refuse(outcome, NET_UNPARSED);
	return outcome->checked && !outcome->payload.found;
}

/*
 * The start of a text: it must end on a character boundary.  A violation
 * gets the RST to its sender that REJECT would send: a local connection
 * is reset only for a segment TCP would take in order (check_claimed()).
 */
static void check_from_boundary(struct sk_buff *skb, struct net_packet *pkt,
				const struct utf8guard_policy *policy,
				struct net_outcome *outcome)
{
	outcome->reset = NET_RESET_SENDER;
	if (validate(skb, pkt, policy, NULL, 0, outcome) &&
	    outcome->payload.stream.carry_length)
		refuse(outcome, NET_NOSTATE);
}

/*
 * The start of a text, storing nothing: a SYN, handshake data, no socket
 * that takes data.  Data that may open a connection (for a request socket
 * or a listener; not a SYN's, which TCP queues under the new socket's
 * lock) claims the flow from its start: see net_flow_claim_start().
 */
static void check_start(struct sk_buff *skb, struct net_packet *pkt,
			const struct utf8guard_policy *policy,
			const struct tcp_view *view,
			struct net_outcome *outcome)
{
	struct net_flow_end end = {
		.enforce = policy->mode == UTF8GUARD_MODE_ENFORCE,
		.claimed = true,
		.from = pkt->seq,
	};
	int error;

	if (view->handshake && pkt->seq != view->rcv_nxt) {
		refuse(outcome, NET_REORDERED);
		return;
	}
	if (!view->opens || pkt->syn) {
		check_from_boundary(skb, pkt, policy, outcome);
		return;
	}
	error = net_flow_claim_start(&pkt->key, view->found, pkt->seq);
	if (error == -EINPROGRESS) {
		refuse(outcome, NET_REORDERED);
		return;
	}
	if (error) {
		refuse_store(outcome, error);
		return;
	}
	check_from_boundary(skb, pkt, policy, outcome);
	end.refused = net_outcome_refuses(outcome);
	net_flow_settle(&pkt->key, view->found, &end);
}

/*
 * Forwarded: no socket to ask; checked after the carry for its start.  A
 * violation resets its sender only.
 */
static void check_forwarded(struct sk_buff *skb, struct net_packet *pkt,
			    const struct utf8guard_policy *policy,
			    struct net_outcome *outcome)
{
	struct net_flow_state flow;
	struct net_flow_end end = {
		.stream = &outcome->payload.stream,
		.seq = pkt->seq + pkt->len,
		.frontier = pkt->seq,
	};
	int error;

	net_flow_lookup(&pkt->key, NULL, pkt->seq, &flow);
	outcome->reset = NET_RESET_SENDER;
	end.refused = !validate(skb, pkt, policy, flow.carry,
				flow.carry_length, outcome);
	error = net_flow_settle(&pkt->key, NULL, &end);
	if (error)
		refuse_store(outcome, error);
}

/*
 * Checked from @flow->from, claimed.  A violation resets the connection
 * at both ends when TCP would take the segment (in order, checked from
 * rcv_nxt, with an acceptable ACK), so that a blind sender cannot reset
 * connections it could not write to.
 */
static void check_claimed(struct sk_buff *skb, struct net_packet *pkt,
			  const struct utf8guard_policy *policy,
			  const struct tcp_view *view,
			  const struct net_flow_state *flow,
			  struct net_outcome *outcome)
{
	struct net_flow_end end = {
		.enforce = policy->mode == UTF8GUARD_MODE_ENFORCE,
		.claimed = true,
		.from = flow->from,
		.stream = &outcome->payload.stream,
		.seq = pkt->seq + pkt->len,
		.frontier = view->rcv_nxt,
		.has_queue = view->has_ofo,
		.queue = view->ofo_seq,
	};
	int error;

	if (view->busy)
		end.flags = NET_FLOW_CREATE | NET_FLOW_NEXT_SET;
	else
		end.flags = view->has_ofo ? NET_FLOW_NEXT_MAX :
			    NET_FLOW_NEXT_SET;
	pkt->skip = flow->from - pkt->seq;
	if (view->ack_ok) {
		outcome->reset = NET_RESET_SOCKET;
		outcome->sk = view->sk;
	}
	end.refused = !validate(skb, pkt, policy, flow->carry,
				flow->carry_length, outcome);
	error = net_flow_settle(&pkt->key, view->sk, &end);
	if (error == -ERANGE)
		refuse(outcome, NET_REORDERED);
	else if (error)
		refuse_store(outcome, error);
}

/* Checked as TCP will deliver it, from what the socket says. */
static void check_stateful(struct sk_buff *skb, struct net_packet *pkt,
			   const struct utf8guard_policy *policy,
			   const struct tcp_view *view,
			   struct net_outcome *outcome)
{
	struct net_flow_state flow;
	int error;

	/* TCP throws it away for its ACK: it must not leave state. */
	if (!view->ack_ok) {
		refuse(outcome, NET_UNPARSED);
		return;
	}
	/*
	 * Delivered before: TCP throws the data away.  A FIN right after
	 * such data is at rcv_nxt: TCP takes it, and it ends the text after
	 * the carry stored there (checked below, with no bytes).
	 */
	if (before(pkt->seq, view->rcv_nxt) &&
	    !after(pkt->seq + pkt->len + pkt->fin, view->rcv_nxt))
		return;
	error = net_flow_claim(&pkt->key, view->sk, view->origin, pkt->seq,
			       view->rcv_nxt, view->busy, &flow);
	if (error == -ERANGE || error == -EINPROGRESS)
		refuse(outcome, NET_REORDERED);
	/* Expired with a carry, its reset queued: nothing to check from. */
	else if (error == -ESTALE)
		refuse(outcome, NET_NOSTATE);
	else if (error)
		refuse_store(outcome, error);
	else
		check_claimed(skb, pkt, policy, view, &flow, outcome);
}

/* Reassembled from IP fragments: the CPU it is checked on may differ. */
static bool reassembled(const struct sk_buff *skb,
			const struct nf_hook_state *state)
{
	if (state->pf == NFPROTO_IPV4)
		return IPCB(skb)->frag_max_size;
	return IP6CB(skb)->flags & IP6SKB_FRAGMENTED;
}

static void check_segment(struct sk_buff *skb, struct net_packet *pkt,
			  const struct utf8guard_policy *policy,
			  const struct tcp_view *view,
			  struct net_outcome *outcome)
{
	if (view->mptcp)
		refuse(outcome, NET_MPTCP);
	else if (view->forwarded && pkt->syn)
		check_start(skb, pkt, policy, view, outcome);
	else if (view->forwarded)
		check_forwarded(skb, pkt, policy, outcome);
	/*
	 * Data without SYN for a socket still waiting for the SYN-ACK: TCP
	 * throws it away, unless it processes the SYN-ACK first (another
	 * CPU, or the backlog) and then takes this data from the rcv_nxt the
	 * SYN-ACK sets, not from where it starts.  It cannot be checked as
	 * TCP will deliver it: refused, as reordered.
	 */
	else if (view->connecting && !pkt->syn)
		refuse(outcome, NET_REORDERED);
	else if (view->sk && !pkt->syn)
		check_stateful(skb, pkt, policy, view, outcome);
	else
		check_start(skb, pkt, policy, view, outcome);
}

/*
 * Before the socket is looked up.  Return: false for a segment with no
 * data TCP delivers (it passes unchecked); else whether it goes on, or is
 * refused in @outcome.
 */
static bool screen(struct sk_buff *skb, struct net_packet *pkt,
		   const struct nf_hook_state *state,
		   const struct utf8guard_policy *policy,
		   struct net_outcome *outcome)
{
	/* TCP delivers no data of a RST. */
	if (pkt->rst)
		return false;
	/* A socket connecting again: its earlier connection's entry goes. */
	if (pkt->syn && state->hook == NF_INET_LOCAL_IN)
		net_flow_forget_stale(&pkt->key);
	if (pkt->syn && net_mptcp_strip(skb, pkt, policy)) {
		refuse(outcome, NET_UNPARSED);
		return true;
	}
	/*
	 * URG moves the urgent pointer even on a segment without data, and
	 * TCP then takes a byte out of a later segment checked whole.
	 */
	if (pkt->urg) {
		refuse(outcome, NET_UNPARSED);
		return true;
	}
	/* A bare ACK has no data. */
	if (!pkt->len && !pkt->fin)
		return false;
	if (nf_checksum(skb, state->hook, pkt->thoff, IPPROTO_TCP, state->pf))
		refuse(outcome, NET_UNPARSED);
	else if (reassembled(skb, state))
		refuse(outcome, NET_FRAGMENTED);
	return true;
}

/**
 * net_tcp_check() - the verdict on a TCP segment to a watched port
 * @skb: the packet
 * @pkt: its parsed headers
 * @state: the netfilter hook state
 * @policy: the policy read for this packet
 *
 * Reads the socket, claims the flow, validates the payload, settles the
 * flow, then has verdict.c decide, in that order.
 *
 * Context: netfilter hook (softirq or BH disabled); does not sleep.
 * Return: NF_ACCEPT or NF_DROP.
 */
unsigned int net_tcp_check(struct sk_buff *skb, struct net_packet *pkt,
			   const struct nf_hook_state *state,
			   const struct utf8guard_policy *policy)
{
	struct net_outcome outcome = { .reset = NET_RESET_NONE };
	struct tcp_view view;
	unsigned int verdict;

	if (!screen(skb, pkt, state, policy, &outcome))
		return NF_ACCEPT;
	if (outcome.refused)
		return net_verdict(skb, pkt, state, policy, &outcome);
	get_view(skb, pkt, state, &view);
	check_segment(skb, pkt, policy, &view, &outcome);
	/* Before put_view(): a reset takes its own reference on the socket. */
	verdict = net_verdict(skb, pkt, state, policy, &outcome);
	put_view(&view);
	return verdict;
}
