// SPDX-License-Identifier: GPL-2.0
/*
 * net/action reset: a refused TCP segment resets its connection at both
 * ends, so that neither the sender nor the program reading waits for a
 * retransmission that will be refused again.
 *
 *  - To a local socket: tcp_abort(), as the SOCK_DESTROY of sock_diag
 *    does.  It sleeps (lock_sock), so it runs from a work item: the hook
 *    queues the socket, with a reference.  It sets ECONNRESET on the
 *    socket (the program's read fails) and sends a RST to the peer from
 *    the socket's own sequence numbers (its send fails).
 *  - With no local socket (forwarded, or no full socket): a RST to the
 *    sender, built from the segment by nf_send_reset() or
 *    nf_send_reset6(), as REJECT --reject-with tcp-reset does.
 *
 * The queue holds at most resets_max sockets (module parameter, default
 * 4096); a socket that cannot be queued (full, no memory) gets the RST to
 * its sender only, and is counted in nomem.  Each reset is counted in
 * reset.
 */

#include <linux/atomic.h>
#include <linux/llist.h>
#include <linux/netfilter.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/netfilter/ipv4/nf_reject.h>
#include <net/netfilter/ipv6/nf_reject.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "net_hook.h"

#define RESET_GFP (GFP_ATOMIC | __GFP_NOWARN | __GFP_NOMEMALLOC)

struct pending_reset {
	struct llist_node node;
	struct sock *sk;	/* a reference */
};

static LLIST_HEAD(pending);
static atomic_t pending_count = ATOMIC_INIT(0);
static unsigned int pending_max;

static void abort_pending(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&pending);
	struct pending_reset *reset, *next;

	llist_for_each_entry_safe(reset, next, list, node) {
		/* Still a connection: not closed and reused meanwhile. */
		switch (inet_sk_state_load(reset->sk)) {
		case TCP_SYN_RECV:
		case TCP_ESTABLISHED:
		case TCP_FIN_WAIT1:
		case TCP_FIN_WAIT2:
		case TCP_CLOSE_WAIT:
			tcp_abort(reset->sk, ECONNRESET);
			break;
		default:
			break;
		}
		sock_put(reset->sk);
		kfree(reset);
		atomic_dec(&pending_count);
		cond_resched();
	}
}

static DECLARE_WORK(reset_work, abort_pending);

/**
 * net_reset_socket() - reset a local TCP connection soon
 * @sk: a full TCP socket
 *
 * Context: any context; the reset runs from a work item.
 * Return: whether it was queued.
 */
bool net_reset_socket(struct sock *sk)
{
	struct pending_reset *reset;

	if (atomic_inc_return(&pending_count) > pending_max)
		goto fail;
	reset = kmalloc(sizeof(*reset), RESET_GFP);
	if (!reset)
		goto fail;
	sock_hold(sk);
	reset->sk = sk;
	llist_add(&reset->node, &pending);
	schedule_work(&reset_work);
	net_count(NET_RESET);
	return true;

fail:
	atomic_dec(&pending_count);
	net_count(NET_NOMEM);
	return false;
}

/**
 * net_reset_segment() - reset the connection of a refused segment
 * @skb: the segment
 * @state: its netfilter hook state
 * @sk: its local full socket, or NULL
 *
 * Context: netfilter hook; does not sleep.
 */
void net_reset_segment(struct sk_buff *skb, const struct nf_hook_state *state,
		       struct sock *sk)
{
	if (sk && net_reset_socket(sk))
		return;
	if (state->pf == NFPROTO_IPV4)
		nf_send_reset(state->net, state->sk, skb, state->hook);
	else
		nf_send_reset6(state->net, state->sk, skb, state->hook);
	if (!sk)
		net_count(NET_RESET);
}

/* At load, before the hooks: the most sockets queued at once. */
void net_reset_init(unsigned int max)
{
	pending_max = max;
}

/* At unload, after the hooks and the flows: the queued resets are done. */
void net_reset_exit(void)
{
	flush_work(&reset_work);
}
