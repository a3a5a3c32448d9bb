// SPDX-License-Identifier: GPL-2.0
/*
 * TCP: check what the receiving socket will deliver, not what a segment
 * says.
 *
 * A TCP receiver delivers the bytes of a segment from its rcv_nxt on,
 * right after the bytes it delivered before; it keeps a segment that
 * starts beyond rcv_nxt out of order and delivers it later, cut where the
 * data that fills the gap ends; it throws away segments that fail its own
 * checks (checksum, window, timestamps, ACK).  A hostile sender can use
 * each of these to make the bytes checked differ from the bytes the
 * application reads: an overlapping segment that is valid from its own
 * start but not from rcv_nxt, a segment that starts a character before
 * the segment that leaves it half-done, a segment that TCP throws away
 * after the hook stored its carry.  So for a segment to a local socket the
 * hook asks the socket where TCP stands:
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
 *    stored there; anything else is dropped (reordered).  If TCP then
 *    throws one of them away, the later ones wait in the out-of-order
 *    queue, and the rule above checks what fills the gap.
 *  - Nothing to ask (a forwarded packet, a SYN, a listener, a handshake in
 *    time-wait, no socket): the segment is checked from its start, after
 *    the carry stored for its sequence number.
 *
 * Before any of that the TCP checksum is verified, so that a segment TCP
 * will throw away cannot leave a carry, and urgent data is refused: TCP
 * takes the urgent byte out of the stream.  A FIN ends the text: a
 * character left undecided at the FIN is truncated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include <net/inet_sock.h>
#include <net/netfilter/nf_socket.h>
#include <net/request_sock.h>
#include <net/tcp.h>

#include "net_hook.h"

/* Where TCP stands for a segment's flow. */
struct tcp_view {
	bool stateless;		/* nothing to ask */
	bool busy;		/* a task owns the socket: backlog */
	u32 rcv_nxt;		/* exact unless busy, then a lower bound */
	bool has_ofo;		/* not busy: an out-of-order queue */
	u32 ofo_seq;		/* where its first segment starts */
};

/* The socket the segment is for; *@put: a reference to drop. */
static struct sock *find_socket(struct sk_buff *skb,
				const struct nf_hook_state *state, bool *put)
{
	*put = !skb->sk;
	if (skb->sk)		/* early demux */
		return skb->sk;
	if (state->pf == NFPROTO_IPV4)
		return nf_sk_lookup_slow_v4(state->net, skb, state->in);
	return nf_sk_lookup_slow_v6(state->net, skb, state->in);
}

/*
 * Under the socket's spinlock, as TCP takes it for an incoming segment:
 * while no task owns the socket, rcv_nxt and the out-of-order queue can
 * change only by processing segments, which this CPU does after the hook.
 */
static void read_full_socket(struct sock *sk, struct tcp_view *view)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sk_buff *ofo;

	local_bh_disable();
	bh_lock_sock(sk);
	view->busy = sock_owned_by_user(sk);
	view->rcv_nxt = READ_ONCE(tp->rcv_nxt);
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
	bool put;

	memset(view, 0, sizeof(*view));
	view->stateless = true;
	if (state->hook != NF_INET_LOCAL_IN || pkt->syn)
		return;
	sk = find_socket(skb, state, &put);
	if (!sk)
		return;
	switch (sk->sk_state) {
	case TCP_NEW_SYN_RECV:	/* data on the ACK that ends a handshake */
		view->rcv_nxt = tcp_rsk(inet_reqsk(sk))->rcv_nxt;
		view->stateless = false;
		break;
	case TCP_SYN_RECV:	/* Fast Open */
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
		read_full_socket(sk, view);
		view->stateless = false;
		break;
	default:
		break;
	}
	if (put)
		sock_gen_put(sk);
}

/* Checked from its start: forwarded, SYN, or no socket state to ask. */
static unsigned int check_stateless(struct sk_buff *skb,
				    struct net_packet *pkt,
				    const struct utf8guard_policy *policy)
{
	struct net_flow_state flow = { .carry_length = 0 };
	struct net_payload result;
	unsigned int verdict;

	if (!pkt->syn)
		net_flow_lookup(&pkt->key, pkt->seq, &flow);
	verdict = net_check_payload(skb, pkt, policy, flow.carry,
				    flow.carry_length, pkt->fin, &result);
	if (verdict != NF_ACCEPT || result.found)
		return verdict;
	if (pkt->fin) {
		net_flow_forget(&pkt->key);
		return NF_ACCEPT;
	}
	if (net_flow_store(&pkt->key, pkt->seq + pkt->len, result.stream.carry,
			   result.stream.carry_length, pkt->seq, 0))
		return net_refuse(policy, NET_NOMEM);
	return NF_ACCEPT;
}

/* Whether a segment ending where the out-of-order queue starts leaves the
 * carry the queued segment was checked after.
 */
static bool meets_queue(const struct net_flow_key *key, u32 end,
			const struct utf8guard_stream *stream)
{
	struct net_flow_state there;

	net_flow_lookup(key, end, &there);
	return there.carry_length == stream->carry_length &&
	       !memcmp(there.carry, stream->carry, there.carry_length);
}

/* Checked as TCP will deliver it, from what the socket says. */
static unsigned int check_stateful(struct sk_buff *skb,
				   struct net_packet *pkt,
				   const struct utf8guard_policy *policy,
				   const struct tcp_view *view)
{
	u32 end = pkt->seq + pkt->len, from;
	struct net_flow_state flow;
	struct net_payload result;
	unsigned int verdict, flags;

	/* Delivered before: TCP throws the data away. */
	if (before(pkt->seq, view->rcv_nxt) && !after(end, view->rcv_nxt))
		return NF_ACCEPT;
	if (view->busy) {
		net_flow_lookup(&pkt->key, pkt->seq, &flow);
		from = flow.has_next && after(flow.next, view->rcv_nxt) ?
		       flow.next : view->rcv_nxt;
		if (pkt->seq != from)
			return net_refuse(policy, NET_REORDERED);
		flags = NET_FLOW_CREATE | NET_FLOW_NEXT_SET | NET_FLOW_KEEP;
	} else {
		from = view->rcv_nxt;
		if (after(pkt->seq, from))
			return net_refuse(policy, NET_REORDERED);
		net_flow_lookup(&pkt->key, from, &flow);
		flags = NET_FLOW_KEEP | (view->has_ofo ? NET_FLOW_NEXT_MAX :
					 NET_FLOW_NEXT_SET);
	}
	pkt->skip = from - pkt->seq;
	verdict = net_check_payload(skb, pkt, policy, flow.carry,
				    flow.carry_length, pkt->fin, &result);
	if (verdict != NF_ACCEPT || result.found)
		return verdict;
	if (view->has_ofo && !before(end, view->ofo_seq) &&
	    (end != view->ofo_seq ||
	     !meets_queue(&pkt->key, end, &result.stream)))
		return net_refuse(policy, NET_REORDERED);
	if (pkt->fin && !view->busy) {
		net_flow_forget(&pkt->key);
		return NF_ACCEPT;
	}
	if (net_flow_store(&pkt->key, end, result.stream.carry,
			   result.stream.carry_length, view->rcv_nxt, flags))
		return net_refuse(policy, NET_NOMEM);
	return NF_ACCEPT;
}

/*
 * A RST at exactly rcv_nxt ends the connection (TCP answers any other with
 * a challenge ACK), and with it the flow's state.
 */
static void forget_on_reset(struct sk_buff *skb, const struct net_packet *pkt,
			    const struct nf_hook_state *state)
{
	struct tcp_view view;

	if (!net_flows_count() ||
	    nf_checksum(skb, state->hook, pkt->thoff, IPPROTO_TCP, state->pf))
		return;
	get_view(skb, pkt, state, &view);
	if (!view.stateless && !view.busy && pkt->seq == view.rcv_nxt)
		net_flow_forget(&pkt->key);
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

	/* TCP delivers no data of a RST; a bare ACK has none. */
	if (pkt->rst)
		forget_on_reset(skb, pkt, state);
	if (pkt->rst || (!pkt->len && !pkt->fin))
		return NF_ACCEPT;
	if (pkt->urg ||
	    nf_checksum(skb, state->hook, pkt->thoff, IPPROTO_TCP, state->pf))
		return net_refuse(policy, NET_UNPARSED);
	get_view(skb, pkt, state, &view);
	if (view.stateless)
		return check_stateless(skb, pkt, policy);
	return check_stateful(skb, pkt, policy, &view);
}
