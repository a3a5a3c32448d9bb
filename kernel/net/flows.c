// SPDX-License-Identifier: GPL-2.0
/*
 * Per-flow TCP state: one entry per direction of a TCP connection, holding
 *
 *  - carries: the bytes a checked segment left undecided at its end (at
 *    most 5), keyed by the sequence number of the byte that continues
 *    them, for up to FLOW_CARRIES positions that TCP may still deliver
 *    from (the ones before the receiver's rcv_nxt are free again);
 *  - next: the end of the last segment the hook let into the socket's
 *    backlog, for segments that arrive while the socket is busy.
 *
 * A position with no carry stored is a character boundary.  That holds
 * because state is never lost while it is needed:
 *
 *  - An entry of a local flow belongs to one connection of one full
 *    socket, whose reference it holds: state is read and written only for
 *    that socket and the connection's origin (its first rcv_nxt), so a new
 *    connection on the same addresses and ports, even of the same socket
 *    connected again, never sees the old one's.
 *    (The claim of handshake data is held in an entry of the request
 *    socket or listener; a live claim passes to the new socket's entry.)
 *  - It is removed when it is no longer needed: when nothing in it is at
 *    or after the socket's rcv_nxt (a character boundary there, nothing in
 *    the backlog), or the socket no longer takes data.
 *  - When the table is full, only such entries are reclaimed, and those of
 *    forwarded flows (which have no socket to protect, counted in
 *    evicted); if none is found the store fails and the segment is
 *    refused.  A local flow's carry is never evicted.
 *  - An entry whose connection is idle for flow_timeout seconds while
 *    holding a carry expires (counted): in mode enforce its connection is
 *    reset, since its next bytes could no longer be checked.  The reset
 *    runs later, from a work item: until the socket takes no more data,
 *    the entry stays, doomed, and every segment for it is refused.
 *
 * A local segment claims its flow before it is validated
 * (net_flow_claim(), net_flow_claim_start()) and settles it after, in one
 * call (net_flow_settle()): its carry stored, or its claim released if it
 * is dropped.
 *
 * Memory: at most flows_max entries of sizeof(struct flow) bytes (shown
 * at load), plus the sockets they pin, which a closed connection frees at
 * the next collection (FLOW_GC_INTERVAL).
 *
 * One spinlock guards the table, whose size follows flows_max (a bucket
 * per two flows, 16 to 2^20 buckets).  Collection and namespace exit look
 * at most FLOW_BATCH entries per hold of it, unlinking under it and
 * releasing after it.
 */

#include <linux/err.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "net_hook.h"

#define FLOW_HASH_BITS_MIN 4
#define FLOW_HASH_BITS_MAX 20
#define FLOW_GC_INTERVAL (10 * HZ)
#define FLOW_BATCH 256
#define FLOW_CARRIES 8
#define FLOW_RECLAIM_SCAN 32	/* entries looked at for a free one */
#define FLOW_GFP (GFP_ATOMIC | __GFP_NOWARN | __GFP_NOMEMALLOC)

struct flow {
	struct hlist_node node;
	struct list_head lru;		/* oldest use first */
	struct net_flow_key key;
	struct sock *sk;		/* a reference; NULL: forwarded */
	u32 origin;			/* of sk's connection, if has_origin */
	bool has_origin;
	unsigned long last_used;	/* jiffies */
	unsigned long claim_gp;		/* RCU state when claimed */
	u32 claim;			/* where the last check started */
	bool claimed;
	u32 next;
	bool has_next;
	bool doomed;			/* expired, its reset queued */
	struct {
		u32 seq;		/* where the carry continues */
		u8 length;		/* 0: slot unused */
		u8 bytes[UTF8GUARD_MAX_SHADOW_LENGTH - 1];
	} carry[FLOW_CARRIES];
};

static struct hlist_head *table;
static unsigned int hash_bits;
static LIST_HEAD(lru);
static DEFINE_SPINLOCK(flows_lock);
static unsigned int flows;	/* under flows_lock; read with READ_ONCE */
static unsigned int flows_max;
static unsigned long flows_timeout;	/* jiffies */
static u32 hash_seed;
static struct kmem_cache *flow_cache;
static struct delayed_work gc_work;

static u32 flow_hash(const struct net_flow_key *key)
{
	return hash_32(jhash2((const u32 *)key, sizeof(*key) / sizeof(u32),
			      hash_seed), hash_bits);
}

/* Keys are compared and hashed whole: callers zero them first. */
static struct flow *lookup(const struct net_flow_key *key, u32 hash)
{
	struct flow *flow;

	hlist_for_each_entry(flow, &table[hash], node)
		if (!memcmp(&flow->key, key, sizeof(*key)))
			return flow;
	return NULL;
}

/* Under flows_lock: out of the table, onto @dead (freed after the lock). */
static void unlink_flow(struct flow *flow, struct list_head *dead)
{
	hlist_del(&flow->node);
	list_move(&flow->lru, dead);
	WRITE_ONCE(flows, flows - 1);
}

/* After flows_lock: drop the socket references and free. */
static void free_dead(struct list_head *dead)
{
	struct flow *flow, *next;

	list_for_each_entry_safe(flow, next, dead, lru) {
		if (flow->sk)
			sock_gen_put(flow->sk);
		kmem_cache_free(flow_cache, flow);
	}
	INIT_LIST_HEAD(dead);
}

static void touch(struct flow *flow)
{
	flow->last_used = jiffies;
	list_move_tail(&flow->lru, &lru);
}

/* Whether the socket can still be given data by TCP. */
static bool takes_data(const struct sock *sk)
{
	switch (inet_sk_state_load(sk)) {
	case TCP_SYN_RECV:
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
		return true;
	default:
		return false;
	}
}

/* Whether @sk is a full socket connecting again, or closed. */
static bool connecting(const struct sock *sk)
{
	switch (inet_sk_state_load(sk)) {
	case TCP_SYN_SENT:
	case TCP_CLOSE:
		return true;
	default:
		return false;
	}
}

/*
 * Under flows_lock: whether anything in @flow is at or after @frontier,
 * a position TCP may still deliver from.
 */
static bool holds_after(const struct flow *flow, u32 frontier)
{
	unsigned int k;

	for (k = 0; k < FLOW_CARRIES; k++)
		if (flow->carry[k].length &&
		    !before(flow->carry[k].seq, frontier))
			return true;
	return flow->has_next && after(flow->next, frontier);
}

/*
 * Under flows_lock: whether a segment checked from @flow->claim may still
 * be on its way to TCP.  From the hook to tcp_v4_rcv() a segment is in one
 * RCU read-side critical section (softirq, or BH disabled): once a grace
 * period has passed since the claim, TCP has taken it, or thrown it away,
 * or put it in the backlog (whose end the flow's next records).
 */
static bool claim_live(const struct flow *flow)
{
	return flow->claimed && !poll_state_synchronize_rcu(flow->claim_gp);
}

/*
 * Under flows_lock: whether @flow can go without losing what a segment
 * will need: a forwarded flow's (counted as evicted by the caller), or a
 * local one's whose socket takes no more data or whose state is all
 * before its rcv_nxt (which only grows: a stale read is on the safe side),
 * and is not doomed (expire()).
 */
static bool needed(const struct flow *flow)
{
	if (!flow->sk)
		return false;
	if (claim_live(flow))
		return true;
	if (!takes_data(flow->sk))
		return false;
	return flow->doomed ||
	       holds_after(flow, READ_ONCE(tcp_sk(flow->sk)->rcv_nxt));
}

/* Under flows_lock: the carry @flow stores for @seq, and its next. */
static void copy_state(const struct flow *flow, u32 seq,
		       struct net_flow_state *state)
{
	unsigned int k;

	state->carry_length = 0;
	for (k = 0; k < FLOW_CARRIES; k++) {
		if (!flow->carry[k].length || flow->carry[k].seq != seq)
			continue;
		memcpy(state->carry, flow->carry[k].bytes,
		       flow->carry[k].length);
		state->carry_length = flow->carry[k].length;
		break;
	}
	state->has_next = flow->has_next;
	state->next = flow->next;
}

/**
 * net_flow_lookup() - what the hook knows of a flow at a position
 * @key: the flow
 * @sk: the socket the segment is for (NULL: forwarded); state stored for
 *	another socket on the same addresses and ports is not returned
 * @seq: the position (a sequence number)
 * @state: gets the carry stored for @seq (none: a character boundary)
 *	and the flow's next, if it has one
 *
 * Context: any context (takes a BH-safe spinlock).
 */
void net_flow_lookup(const struct net_flow_key *key, const struct sock *sk,
		     u32 seq, struct net_flow_state *state)
{
	struct flow *flow;

	state->carry_length = 0;
	state->has_next = false;
	if (!READ_ONCE(flows))
		return;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	if (flow && flow->sk == sk) {
		copy_state(flow, seq, state);
		touch(flow);
	}
	spin_unlock_bh(&flows_lock);
}

/*
 * The slot for a carry at @seq: the one already there, a free one, or one
 * whose position TCP has passed (before @frontier); for a forwarded flow,
 * else the lowest position.  -1 when all are live.
 */
static int carry_slot(const struct flow *flow, u32 seq, u32 frontier)
{
	int k, free = -1, lowest = 0;

	for (k = 0; k < FLOW_CARRIES; k++) {
		if (flow->carry[k].length && flow->carry[k].seq == seq)
			return k;
		if (free < 0 && (!flow->carry[k].length ||
				 before(flow->carry[k].seq, frontier)))
			free = k;
		if (before(flow->carry[k].seq - frontier,
			   flow->carry[lowest].seq - frontier))
			lowest = k;
	}
	if (free >= 0)
		return free;
	return flow->sk ? -1 : lowest;
}

/* Under flows_lock: the carries TCP has passed are free again. */
static void drop_passed(struct flow *flow, u32 frontier)
{
	unsigned int k;

	for (k = 0; k < FLOW_CARRIES; k++)
		if (before(flow->carry[k].seq, frontier))
			flow->carry[k].length = 0;
}

/* Under flows_lock; false when no slot is free for a carry. */
static bool update(struct flow *flow, u32 seq, const u8 *carry,
		   u8 carry_length, u32 frontier, unsigned int flags)
{
	int k;

	drop_passed(flow, frontier);
	k = carry_slot(flow, seq, frontier);
	if (carry_length) {
		if (k < 0)
			return false;
		flow->carry[k].seq = seq;
		flow->carry[k].length = carry_length;
		memcpy(flow->carry[k].bytes, carry, carry_length);
	} else if (k >= 0 && flow->carry[k].length &&
		   flow->carry[k].seq == seq) {
		flow->carry[k].length = 0;
	}
	if (flags & NET_FLOW_NEXT_SET ||
	    (flags & NET_FLOW_NEXT_MAX &&
	     (!flow->has_next || after(seq, flow->next)))) {
		flow->next = seq;
		flow->has_next = true;
	}
	touch(flow);
	return true;
}

/*
 * Under flows_lock, the table full: unlink one entry that is not needed,
 * among the FLOW_RECLAIM_SCAN least recently used.
 */
static bool reclaim_one(struct list_head *dead)
{
	struct flow *flow;
	unsigned int seen = 0;

	list_for_each_entry(flow, &lru, lru) {
		if (++seen > FLOW_RECLAIM_SCAN)
			break;
		if (needed(flow))
			continue;
		if (!flow->sk)
			net_count(NET_EVICTED);
		unlink_flow(flow, dead);
		return true;
	}
	return false;
}

/*
 * Undo lock_entry(): drop the lock, then free what it left.  A segment
 * that found the table full (@ret -EBUSY) is refused: say why.
 */
static void unlock_entry(struct list_head *dead, struct flow *fresh, int ret)
	__releases(&flows_lock)
{
	spin_unlock_bh(&flows_lock);
	free_dead(dead);
	if (fresh)
		kmem_cache_free(flow_cache, fresh);
	if (ret == -EBUSY)
		pr_warn_ratelimited("flow table full (flows_max %u) of flows holding split characters: TCP segment refused\n",
				    flows_max);
}

/* Under flows_lock: a segment is checked from @pos from now on. */
static void claim_at(struct flow *flow, u32 pos)
{
	flow->claim = pos;
	flow->claim_gp = get_state_synchronize_rcu();
	flow->claimed = true;
	touch(flow);
}

/* lock_entry() flags */
#define ENTRY_CREATE	BIT(0)	/* make one if there is none */
#define ENTRY_OPENS	BIT(1)	/* for data that may open the connection */
#define ENTRY_ORIGIN	BIT(2)	/* the socket's connection began at origin */
#define ENTRY_EXACT	BIT(3)	/* and that origin is exact */

/*
 * Under flows_lock: whether data that may open a connection is refused
 * for @flow's state: another segment's claim is live, or another socket
 * of the flow takes data (TCP gives the data to it).
 */
static bool opening_refused(const struct flow *flow, const struct sock *sk)
{
	return claim_live(flow) ||
	       (flow->sk && flow->sk != sk && takes_data(flow->sk));
}

/*
 * Take flows_lock and find @key's entry for @sk, or with ENTRY_CREATE make
 * one (allocated outside the lock, then looked up again).  Another
 * socket's entry (an earlier connection's, or the request socket's or
 * listener's that handshake data was claimed for) goes to @dead, but a
 * live claim in it stays: the segment checked then may still be on its
 * way to TCP, which can hand it to @sk (a request's child).  Without
 * ENTRY_CREATE an entry with a live claim is left in place; with it, the
 * new entry takes its place and its claim, in one hold of the lock.
 * Returns with the lock held: the entry; NULL (none, and no ENTRY_CREATE);
 * With ENTRY_ORIGIN, an entry of @sk whose connection began elsewhere
 * (the socket was disconnected and connected again) is another
 * connection's: with ENTRY_EXACT it is replaced as such, else the caller
 * gets ERR_PTR(-EINPROGRESS) (a guess cannot tell, so it refuses).
 * ERR_PTR(-EINPROGRESS) with ENTRY_OPENS when opening_refused();
 * ERR_PTR(-EBUSY) when the table is full of entries still needed;
 * ERR_PTR(-ENOMEM).  *@fresh is the caller's to free when left over.
 */
static struct flow *lock_entry(const struct net_flow_key *key, u32 hash,
			       struct sock *sk, u32 origin, unsigned int flags,
			       struct flow **fresh, struct list_head *dead)
	__acquires(&flows_lock)
{
	struct flow *flow, *other;
	bool earlier;

	for (;;) {
		spin_lock_bh(&flows_lock);
		flow = lookup(key, hash);
		if (flow && (flags & ENTRY_OPENS) && opening_refused(flow, sk))
			return ERR_PTR(-EINPROGRESS);
		earlier = flow && flow->sk == sk && (flags & ENTRY_ORIGIN) &&
			  flow->has_origin && flow->origin != origin;
		if (earlier && !(flags & ENTRY_EXACT))
			return ERR_PTR(-EINPROGRESS);
		if (flow && flow->sk == sk && !earlier)
			return flow;
		if (!(flags & ENTRY_CREATE)) {
			if (flow && !claim_live(flow))
				unlink_flow(flow, dead);
			return NULL;
		}
		if (*fresh)
			break;
		spin_unlock_bh(&flows_lock);
		free_dead(dead);
		*fresh = kmem_cache_zalloc(flow_cache, FLOW_GFP);
		if (!*fresh) {
			spin_lock_bh(&flows_lock);
			return ERR_PTR(-ENOMEM);
		}
	}
	other = flow;
	if (!other && flows >= flows_max && !reclaim_one(dead))
		return ERR_PTR(-EBUSY);
	flow = *fresh;
	*fresh = NULL;
	flow->key = *key;
	flow->sk = sk;
	if (sk)
		sock_hold(sk);
	if (flags & ENTRY_ORIGIN) {
		flow->origin = origin;
		flow->has_origin = true;
	}
	if (other) {
		if (claim_live(other)) {
			flow->claimed = true;
			flow->claim = other->claim;
			flow->claim_gp = other->claim_gp;
		}
		unlink_flow(other, dead);
	}
	hlist_add_head(&flow->node, &table[hash]);
	list_add_tail(&flow->lru, &lru);
	WRITE_ONCE(flows, flows + 1);
	return flow;
}

/**
 * net_flow_claim() - start checking a segment of a local connection
 * @key: the flow
 * @sk: its full socket (the entry takes a reference)
 * @origin: where the socket's connection began (its first rcv_nxt; a
 *	guess when @busy): state kept for an earlier connection of the same
 *	socket is not used
 * @seq: the segment's first sequence number
 * @rcv_nxt: the socket's rcv_nxt (a lower bound when @busy)
 * @busy: whether a task owns the socket (the segment goes to the backlog)
 * @state: gets where the segment is checked from (@state->from: rcv_nxt,
 *	or when @busy the end of the segments let into the backlog), the
 *	carry stored there and the flow's next
 *
 * Claims the flow from there: until TCP has taken this segment, another
 * one checked from the same place (on another CPU) is refused, since TCP
 * would deliver its tail after this one's bytes, not after its own.
 *
 * Context: any context (GFP_ATOMIC).
 * Return: 0; -ERANGE when the segment does not start where it must (not
 * at from when @busy, beyond it otherwise); -EINPROGRESS when another
 * segment from the same place may not have reached TCP yet, or when @busy
 * and the entry may be an earlier connection's; -ESTALE when the flow
 * expired and its connection is being reset; -EBUSY when
 * the table is full of entries still needed; -ENOMEM.
 */
int net_flow_claim(const struct net_flow_key *key, struct sock *sk,
		   u32 origin, u32 seq, u32 rcv_nxt, bool busy,
		   struct net_flow_state *state)
{
	u32 hash = flow_hash(key), from = rcv_nxt;
	struct flow *flow, *fresh = NULL;
	LIST_HEAD(dead);
	int ret = 0;

	flow = lock_entry(key, hash, sk, origin,
			  ENTRY_CREATE | ENTRY_ORIGIN | (busy ? 0 : ENTRY_EXACT),
			  &fresh, &dead);
	if (IS_ERR(flow)) {
		ret = PTR_ERR(flow);
		goto out;
	}
	if (flow->doomed) {
		ret = -ESTALE;
		goto out;
	}
	if (!flow->has_origin && !busy) {
		flow->origin = origin;
		flow->has_origin = true;
	}
	if (busy && flow->has_next && after(flow->next, rcv_nxt))
		from = flow->next;
	if (busy ? seq != from : after(seq, from)) {
		ret = -ERANGE;
		goto out;
	}
	if (claim_live(flow) && flow->claim == from) {
		ret = -EINPROGRESS;
		goto out;
	}
	claim_at(flow, from);
	state->from = from;
	copy_state(flow, from, state);
out:
	unlock_entry(&dead, fresh, ret);
	return ret;
}

/**
 * net_flow_forget_stale() - a SYN arrived: forget an earlier connection
 * @key: the flow
 *
 * A SYN or SYN-ACK for a socket that had a connection on these addresses
 * and ports means it connects again (connect(AF_UNSPEC), then connect()):
 * its entry is then an earlier connection's, and the origin cannot tell,
 * since the peer chooses it (its ISN), and Fast Open data in the SYN-ACK
 * moves rcv_nxt without the hook storing anything.  An entry whose full
 * socket is connecting (SYN_SENT) or closed goes, even with a live claim:
 * that claim was the earlier connection's.  Other entries of sockets
 * that take no data go without a live claim (a request socket's or
 * listener's claim is kept: it guards handshake data).  Whatever the
 * SYN's fate, what goes was not needed.
 *
 * Context: any context.
 */
void net_flow_forget_stale(const struct net_flow_key *key)
{
	struct flow *flow;
	LIST_HEAD(dead);

	if (!READ_ONCE(flows))
		return;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	if (flow && flow->sk && (connecting(flow->sk) ||
				 (!claim_live(flow) && !takes_data(flow->sk))))
		unlink_flow(flow, &dead);
	spin_unlock_bh(&flows_lock);
	free_dead(&dead);
}

/**
 * net_flow_claim_start() - start checking data that may open a connection
 * @key: the flow
 * @sk: the request socket or listener the data is for (the entry takes a
 *	reference)
 * @seq: where the data starts
 *
 * Data on the ACK that completes a handshake is checked as the start of a
 * text before TCP has made the connection's socket.  Two such segments
 * checked at once (on two CPUs, or in one batch of received packets whose
 * socket was looked up before either reached TCP) would both pass, and
 * TCP would deliver the second one's tail after the first one's bytes, in
 * the socket the first one made.  So it claims the flow from @seq, and the
 * claim passes to the new socket's entry (lock_entry()).
 *
 * Context: any context (GFP_ATOMIC).
 * Return: 0; -EINPROGRESS when another segment of the flow may not have
 * reached TCP yet (a live claim), or the flow already has a socket that
 * takes data (TCP will give the data to it, so it must be checked there);
 * -EBUSY when the table is full of entries still needed; -ENOMEM.
 */
int net_flow_claim_start(const struct net_flow_key *key, struct sock *sk,
			 u32 seq)
{
	u32 hash = flow_hash(key);
	struct flow *flow, *fresh = NULL;
	LIST_HEAD(dead);
	int ret = 0;

	flow = lock_entry(key, hash, sk, 0, ENTRY_CREATE | ENTRY_OPENS, &fresh,
			  &dead);
	if (IS_ERR(flow)) {
		ret = PTR_ERR(flow);
		goto out;
	}
	claim_at(flow, seq);
out:
	unlock_entry(&dead, fresh, ret);
	return ret;
}

/*
 * The segment claimed from @from is dropped: it will not reach TCP, so
 * another segment may be checked from there at once.  No one else can
 * have claimed @from since: that takes a grace period, and the caller is
 * still in its read-side critical section.
 */
static void unclaim(const struct net_flow_key *key, const struct sock *sk,
		    u32 from)
{
	struct flow *flow;

	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	if (flow && flow->sk == sk && flow->claimed && flow->claim == from)
		flow->claimed = false;
	spin_unlock_bh(&flows_lock);
}

/*
 * Record where a segment the hook accepts ends.
 * @key: the flow
 * @sk: the socket the segment is for (a full socket, whose reference the
 *	entry takes), or NULL for a forwarded segment
 * @seq: sequence number of the byte after the segment
 * @carry: the undecided bytes at its end
 * @carry_length: their number, 0 to 5 (0: @seq is a character boundary)
 * @frontier: the receiver's rcv_nxt, or a lower bound: carries before it
 *	are no longer needed
 * @flags: NET_FLOW_CREATE: make an entry even without a carry;
 *	NET_FLOW_NEXT_SET: the flow's next becomes @seq;
 *	NET_FLOW_NEXT_MAX: so does it when @seq is beyond it
 *
 * A flow gets an entry only for a carry, or with NET_FLOW_CREATE; a local
 * flow's entry goes as soon as nothing in it is at or after @frontier.
 * Return: 0; -ENOSPC when every carry slot is live; -EBUSY when the table
 * is full of entries still needed; -ENOMEM.  On an error nothing changed
 * and the segment must not be accepted.
 */
static int store(const struct net_flow_key *key, struct sock *sk, u32 seq,
		 const u8 *carry, u8 carry_length, u32 frontier,
		 unsigned int flags)
{
	u32 hash = flow_hash(key);
	struct flow *flow, *fresh = NULL;
	LIST_HEAD(dead);
	int ret = 0;

	if (carry_length > sizeof(flow->carry[0].bytes))
		return -EINVAL;
	if (!carry_length && !(flags & NET_FLOW_CREATE) && !READ_ONCE(flows))
		return 0;
	flow = lock_entry(key, hash, sk, 0,
			  carry_length || (flags & NET_FLOW_CREATE) ?
			  ENTRY_CREATE : 0, &fresh, &dead);
	if (IS_ERR_OR_NULL(flow)) {
		ret = PTR_ERR_OR_ZERO(flow);
		goto out;
	}
	if (!update(flow, seq, carry, carry_length, frontier, flags))
		ret = -ENOSPC;
	else if (flow->sk && !holds_after(flow, frontier) && !claim_live(flow))
		unlink_flow(flow, &dead);
out:
	unlock_entry(&dead, fresh, ret);
	return ret;
}

/*
 * Whether a segment ending at @seq, where the out-of-order queue starts,
 * leaves the carry the queued segment was checked after.
 */
static bool meets_queue(const struct net_flow_key *key, const struct sock *sk,
			u32 seq, const struct utf8guard_stream *stream)
{
	struct net_flow_state there;

	net_flow_lookup(key, sk, seq, &there);
	return there.carry_length == stream->carry_length &&
	       !memcmp(there.carry, stream->carry, there.carry_length);
}

/**
 * net_flow_settle() - leave the flow of a checked segment
 * @key: the flow
 * @sk: the socket the segment is for (a full socket, whose reference an
 *	entry takes; a request socket or listener for handshake data), or
 *	NULL for a forwarded segment
 * @end: what was found, and what to store
 *
 * The one step after validation: unless @end->refused, the carry the
 * segment leaves is stored at its end (a segment reaching the
 * out-of-order queue must meet it); if the segment is refused, here or
 * before, and dropped, its claim goes.
 *
 * Context: any context (GFP_ATOMIC).
 * Return: 0; -ERANGE when the segment does not meet the out-of-order
 * queue (reordered); -ENOSPC when every carry slot is live; -EBUSY when
 * the table is full of entries still needed; -ENOMEM.  On an error
 * nothing was stored and the segment must not be accepted.
 */
int net_flow_settle(const struct net_flow_key *key, struct sock *sk,
		    const struct net_flow_end *end)
{
	int ret = 0;

	if (!end->refused && end->stream) {
		if (end->has_queue && !before(end->seq, end->queue) &&
		    (end->seq != end->queue ||
		     !meets_queue(key, sk, end->seq, end->stream)))
			ret = -ERANGE;
		else
			ret = store(key, sk, end->seq, end->stream->carry,
				    end->stream->carry_length, end->frontier,
				    end->flags);
	}
	if ((end->refused || ret) && end->enforce && end->claimed)
		unclaim(key, sk, end->from);
	return ret;
}

unsigned int net_flows_count(void)
{
	return READ_ONCE(flows);
}

unsigned int net_flows_max(void)
{
	return flows_max;
}

/* What a sweep does with an entry. */
enum sweep_verdict { SWEEP_KEEP, SWEEP_REMOVE, SWEEP_EXPIRE };

struct sweep {
	const struct net *net;	/* namespace exit: that one's; NULL: all */
	bool collect;		/* collection: by need and idle time */
	unsigned long now;
};

static enum sweep_verdict judge(const struct sweep *sweep,
				const struct flow *flow)
{
	bool idle = time_after_eq(sweep->now,
				  flow->last_used + flows_timeout);

	if (!sweep->collect)
		return !sweep->net || flow->key.net == sweep->net ?
		       SWEEP_REMOVE : SWEEP_KEEP;
	if (flow->sk && !needed(flow))
		return SWEEP_REMOVE;
	return idle && !flow->doomed ? SWEEP_EXPIRE : SWEEP_KEEP;
}

/*
 * Expired while holding state a segment will need: its connection cannot
 * be checked any more, so in mode enforce it is reset.  The reset runs
 * from a work item, later: until then the entry stays, doomed, so that
 * the segment that completes its carry is refused, not checked as the
 * start of a text (needed() keeps it while the socket takes data).
 * Return: whether the entry can go now; it stays when the reset could not
 * be queued (the next collection tries again) or was queued (doomed).
 */
static bool expire(struct flow *flow)
{
	bool enforce = utf8guard_policy_get().mode == UTF8GUARD_MODE_ENFORCE;
	bool reset = flow->sk && enforce && takes_data(flow->sk);

	if (reset && !net_reset_socket(flow->sk))
		return false;
	flow->doomed = reset;
	net_count(NET_EXPIRED);
	if (flow->sk)
		pr_warn_ratelimited("TCP flow idle for %lu s with a character split at its edge: %s\n",
				    flows_timeout / HZ, enforce ?
				    "connection reset" : "state dropped");
	return !reset;
}

/*
 * Look at every entry once, at most FLOW_BATCH per hold of the lock:
 * each is removed, or moved to the tail of the LRU list (kept), so the
 * next hold starts where this one stopped.
 */
static void sweep_all(const struct sweep *sweep)
{
	unsigned int left, k;
	struct flow *flow;
	LIST_HEAD(dead);

	spin_lock_bh(&flows_lock);
	left = flows;
	spin_unlock_bh(&flows_lock);
	while (left) {
		spin_lock_bh(&flows_lock);
		for (k = 0; k < FLOW_BATCH && left && !list_empty(&lru);
		     k++, left--) {
			flow = list_first_entry(&lru, struct flow, lru);
			switch (judge(sweep, flow)) {
			case SWEEP_KEEP:
				list_move_tail(&flow->lru, &lru);
				break;
			case SWEEP_EXPIRE:
				if (!expire(flow)) {
					list_move_tail(&flow->lru, &lru);
					break;
				}
				fallthrough;
			case SWEEP_REMOVE:
				unlink_flow(flow, &dead);
				break;
			}
		}
		if (list_empty(&lru))
			left = 0;
		spin_unlock_bh(&flows_lock);
		free_dead(&dead);
		cond_resched();
	}
}

/* Remove the entries of @net (NULL: all), after its hooks are gone. */
void net_flows_flush_net(const struct net *net)
{
	struct sweep sweep = { .net = net };

	sweep_all(&sweep);
}

static void gc(struct work_struct *work)
{
	struct sweep sweep = { .collect = true, .now = jiffies };

	sweep_all(&sweep);
	schedule_delayed_work(&gc_work, FLOW_GC_INTERVAL);
}

/* A bucket per two flows, within FLOW_HASH_BITS_MIN..FLOW_HASH_BITS_MAX. */
static unsigned int hash_bits_for(unsigned int max)
{
	return clamp_t(unsigned int, order_base_2(max) - 1,
		       FLOW_HASH_BITS_MIN, FLOW_HASH_BITS_MAX);
}

unsigned int net_flows_buckets(void)
{
	return 1U << hash_bits;
}

size_t net_flow_size(void)
{
	return sizeof(struct flow);
}

int net_flows_init(unsigned int max, unsigned int timeout_seconds)
{
	hash_bits = hash_bits_for(max);
	/* Zeroed: every bucket an empty hlist_head. */
	table = kvcalloc(1U << hash_bits, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	flow_cache = KMEM_CACHE(flow, 0);
	if (!flow_cache) {
		kvfree(table);
		return -ENOMEM;
	}
	flows_max = max;
	flows_timeout = timeout_seconds * HZ;
	hash_seed = get_random_u32();
	INIT_DELAYED_WORK(&gc_work, gc);
	schedule_delayed_work(&gc_work, FLOW_GC_INTERVAL);
	return 0;
}

/* At unload, once no hook can run. */
void net_flows_exit(void)
{
	cancel_delayed_work_sync(&gc_work);
	net_flows_flush_net(NULL);
	kmem_cache_destroy(flow_cache);
	kvfree(table);
}
