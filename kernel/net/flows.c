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
 * because a segment whose carry cannot be stored is dropped (nomem), with
 * one exception the hook counts: a flow evicted from a full table (the
 * least recently used), or expired after flow_timeout idle seconds, loses
 * its carries.
 *
 * Flows that never split a character, and never met a busy socket, take
 * no memory.  One spinlock guards the table, whose size follows flows_max
 * (a bucket per two flows, 16 to 2^20 buckets).  Expiry and namespace exit
 * unlink entries under the lock and free them after it, at most
 * FLOW_BATCH per hold.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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
#include <net/tcp.h>

#include "net_hook.h"

#define FLOW_HASH_BITS_MIN 4
#define FLOW_HASH_BITS_MAX 20
#define FLOW_GC_INTERVAL (10 * HZ)
#define FLOW_BATCH 256
#define FLOW_CARRIES 8

struct flow {
	struct hlist_node node;
	struct list_head lru;		/* oldest use first */
	struct net_flow_key key;
	unsigned long last_used;	/* jiffies */
	u32 next;
	bool has_next;
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

/* Under flows_lock: out of the table and the LRU list. */
static void unlink_flow(struct flow *flow)
{
	hlist_del(&flow->node);
	list_del(&flow->lru);
	WRITE_ONCE(flows, flows - 1);
}

static void remove_flow(struct flow *flow)
{
	unlink_flow(flow);
	kmem_cache_free(flow_cache, flow);
}

static void free_dead(struct list_head *dead)
{
	struct flow *flow, *next;

	list_for_each_entry_safe(flow, next, dead, lru)
		kmem_cache_free(flow_cache, flow);
}

static void touch(struct flow *flow)
{
	flow->last_used = jiffies;
	list_move_tail(&flow->lru, &lru);
}

/**
 * net_flow_lookup() - what the hook knows of a flow at a position
 * @key: the flow
 * @seq: the position (a sequence number)
 * @state: gets the carry stored for @seq (none: a character boundary)
 *	and the flow's next, if it has one
 *
 * Context: any context (takes a BH-safe spinlock).
 */
void net_flow_lookup(const struct net_flow_key *key, u32 seq,
		     struct net_flow_state *state)
{
	struct flow *flow;
	unsigned int k;

	state->carry_length = 0;
	state->has_next = false;
	if (!READ_ONCE(flows))
		return;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	if (flow) {
		for (k = 0; k < FLOW_CARRIES; k++) {
			if (!flow->carry[k].length ||
			    flow->carry[k].seq != seq)
				continue;
			memcpy(state->carry, flow->carry[k].bytes,
			       flow->carry[k].length);
			state->carry_length = flow->carry[k].length;
			break;
		}
		state->has_next = flow->has_next;
		state->next = flow->next;
		touch(flow);
	}
	spin_unlock_bh(&flows_lock);
}

/*
 * The slot for a carry at @seq: the one already there, a free one, or one
 * whose position TCP has passed (before @frontier); without NET_FLOW_KEEP,
 * else the lowest position.  -1 when all are live and @flags has
 * NET_FLOW_KEEP.
 */
static int carry_slot(const struct flow *flow, u32 seq, u32 frontier,
		      unsigned int flags)
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
	return flags & NET_FLOW_KEEP ? -1 : lowest;
}

/* Under flows_lock; false when @flags has NET_FLOW_KEEP and no slot is. */
static bool update(struct flow *flow, u32 seq, const u8 *carry,
		   u8 carry_length, u32 frontier, unsigned int flags)
{
	int k = carry_slot(flow, seq, frontier, flags);

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

/**
 * net_flow_store() - record where a segment the hook accepts ends
 * @key: the flow
 * @seq: sequence number of the byte after the segment
 * @carry: the undecided bytes at its end
 * @carry_length: their number, 0 to 5 (0: @seq is a character boundary)
 * @frontier: the receiver's rcv_nxt, or a lower bound: carries before it
 *	are no longer needed
 * @flags: NET_FLOW_CREATE: make an entry even without a carry;
 *	NET_FLOW_NEXT_SET: the flow's next becomes @seq;
 *	NET_FLOW_NEXT_MAX: so does it when @seq is beyond it;
 *	NET_FLOW_KEEP: fail rather than overwrite a carry at or after
 *	@frontier
 *
 * A flow gets an entry only for a carry, or with NET_FLOW_CREATE.  When
 * the table is full the least recently used entry is evicted (counted).
 *
 * Context: any context (GFP_ATOMIC).
 * Return: 0; -ENOSPC when NET_FLOW_KEEP found no free slot; -ENOMEM.
 * On an error nothing changed and the segment must not be accepted.
 */
int net_flow_store(const struct net_flow_key *key, u32 seq, const u8 *carry,
		   u8 carry_length, u32 frontier, unsigned int flags)
{
	u32 hash = flow_hash(key);
	struct flow *flow, *fresh = NULL;
	int ret = 0;

	if (carry_length > sizeof(flow->carry[0].bytes))
		return -EINVAL;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, hash);
	if (!flow && !carry_length && !(flags & NET_FLOW_CREATE)) {
		spin_unlock_bh(&flows_lock);
		return 0;
	}
	if (!flow) {
		spin_unlock_bh(&flows_lock);
		fresh = kmem_cache_zalloc(flow_cache, GFP_ATOMIC);
		if (!fresh)
			return -ENOMEM;
		spin_lock_bh(&flows_lock);
		flow = lookup(key, hash);	/* raced with another CPU? */
	}
	if (!flow) {
		if (flows >= flows_max) {
			remove_flow(list_first_entry(&lru, struct flow, lru));
			net_count(NET_EVICTED);
			pr_warn_ratelimited("flow table full (flows_max %u): evicted the least recently used TCP flow; its next segment is checked from a character boundary\n",
					    flows_max);
		}
		flow = fresh;
		fresh = NULL;
		flow->key = *key;
		hlist_add_head(&flow->node, &table[hash]);
		list_add_tail(&flow->lru, &lru);
		WRITE_ONCE(flows, flows + 1);
	}
	if (!update(flow, seq, carry, carry_length, frontier, flags))
		ret = -ENOSPC;
	spin_unlock_bh(&flows_lock);
	if (fresh)
		kmem_cache_free(flow_cache, fresh);
	return ret;
}

/**
 * net_flow_forget() - drop a flow's state (its text ended)
 * @key: the flow
 *
 * Context: any context.
 */
void net_flow_forget(const struct net_flow_key *key)
{
	struct flow *flow;

	if (!READ_ONCE(flows))
		return;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	if (flow)
		remove_flow(flow);
	spin_unlock_bh(&flows_lock);
}

unsigned int net_flows_count(void)
{
	return READ_ONCE(flows);
}

unsigned int net_flows_max(void)
{
	return flows_max;
}

/*
 * Unlink entries, oldest first, and free them after the lock, at most
 * FLOW_BATCH per hold of it: those of @net (NULL: of every namespace), and
 * with @idle_only only those idle for flow_timeout (counted as expired),
 * which are at the head of the LRU list.  Another pass starts from the
 * head while a batch was full; it only steps over what it keeps.
 */
static void remove_in_batches(const struct net *net, bool idle_only)
{
	struct flow *flow, *next;
	unsigned long now = jiffies;
	unsigned int unlinked;
	LIST_HEAD(dead);

	do {
		unlinked = 0;
		spin_lock_bh(&flows_lock);
		list_for_each_entry_safe(flow, next, &lru, lru) {
			if (idle_only &&
			    time_before(now, flow->last_used + flows_timeout))
				break;	/* the rest were used later */
			if (net && flow->key.net != net)
				continue;
			unlink_flow(flow);
			list_add(&flow->lru, &dead);
			if (idle_only)
				net_count(NET_EXPIRED);
			if (++unlinked == FLOW_BATCH)
				break;
		}
		spin_unlock_bh(&flows_lock);
		free_dead(&dead);
		INIT_LIST_HEAD(&dead);
		cond_resched();
	} while (unlinked == FLOW_BATCH);
}

/* Remove the entries of @net (NULL: all), after its hooks are gone. */
void net_flows_flush_net(const struct net *net)
{
	remove_in_batches(net, false);
}

static void gc(struct work_struct *work)
{
	remove_in_batches(NULL, true);
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
