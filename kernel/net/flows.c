// SPDX-License-Identifier: GPL-2.0
/*
 * TCP carry state: one entry per direction of a TCP connection whose last
 * checked in-order segment ended in the middle of a character.  The entry
 * holds those undecided bytes (at most 5) and the sequence number of the
 * byte that continues them, for the last two such segments; a segment
 * that starts exactly at one of them is checked with that carry in front.
 * Every other segment is checked as the start of a text, so a segment that
 * begins mid-character without its carry is ill-formed
 * (unexpected-continuation): the table can lose state, but never into
 * accepting a split ill-formed sequence.
 *
 * Entries are kept until the flow's FIN or RST, until idle for the
 * timeout (counted as expired), or until the table is full and they are
 * the least recently used (counted as evicted).  Flows that never split a
 * character take no memory.  One spinlock guards the table; the hooks
 * take it only for watched TCP segments, and only while the table is not
 * empty or a segment leaves a carry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "net_hook.h"

#define FLOW_HASH_BITS 10
#define FLOW_GC_INTERVAL (10 * HZ)

struct flow {
	struct hlist_node node;
	struct list_head lru;		/* oldest use first */
	struct net_flow_key key;
	unsigned long last_used;	/* jiffies */
	/* The last two carries: [0] newest.  The older one serves a
	 * retransmission that starts where the previous segment did.
	 */
	struct {
		u32 seq;		/* where the carry continues */
		u8 length;		/* 0: slot unused */
		u8 bytes[UTF8GUARD_MAX_SHADOW_LENGTH - 1];
	} carry[2];
};

static struct hlist_head table[1 << FLOW_HASH_BITS];
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
			      hash_seed), FLOW_HASH_BITS);
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

static void remove_flow(struct flow *flow)
{
	hlist_del(&flow->node);
	list_del(&flow->lru);
	WRITE_ONCE(flows, flows - 1);
	kmem_cache_free(flow_cache, flow);
}

/**
 * net_flow_carry() - the carry a segment continues, if any
 * @key: the segment's flow
 * @seq: its first sequence number
 * @carry: gets the carried bytes
 * @carry_length: gets their number
 *
 * Context: any context (takes a BH-safe spinlock).
 * Return: true when @seq is exactly where a stored carry continues.
 */
bool net_flow_carry(const struct net_flow_key *key, u32 seq, u8 *carry,
		    u8 *carry_length)
{
	struct flow *flow;
	bool found = false;
	unsigned int k;

	if (!READ_ONCE(flows))
		return false;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, flow_hash(key));
	for (k = 0; flow && k < ARRAY_SIZE(flow->carry) && !found; k++) {
		if (!flow->carry[k].length || flow->carry[k].seq != seq)
			continue;
		memcpy(carry, flow->carry[k].bytes, flow->carry[k].length);
		*carry_length = flow->carry[k].length;
		flow->last_used = jiffies;
		list_move_tail(&flow->lru, &lru);
		found = true;
	}
	spin_unlock_bh(&flows_lock);
	return found;
}

/**
 * net_flow_store() - remember the carry an accepted segment leaves
 * @key: the flow
 * @seq: sequence number of the byte after the segment
 * @carry: the undecided bytes at its end
 * @carry_length: their number, 1 to 5
 *
 * Replaces the flow's earlier carry.  When the table is full the least
 * recently used entry is evicted; when no memory is left the carry is
 * lost (counted as nomem), and the continuing segment will be refused.
 *
 * Context: any context (GFP_ATOMIC).
 */
void net_flow_store(const struct net_flow_key *key, u32 seq, const u8 *carry,
		    u8 carry_length)
{
	u32 hash = flow_hash(key);
	struct flow *flow, *fresh = NULL;

	if (!carry_length || carry_length > sizeof(flow->carry[0].bytes))
		return;
	spin_lock_bh(&flows_lock);
	flow = lookup(key, hash);
	if (!flow) {
		spin_unlock_bh(&flows_lock);
		fresh = kmem_cache_alloc(flow_cache, GFP_ATOMIC);
		if (!fresh) {
			net_count(NET_NOMEM);
			return;
		}
		spin_lock_bh(&flows_lock);
		flow = lookup(key, hash);	/* raced with another CPU? */
	}
	if (!flow) {
		if (flows >= flows_max) {
			remove_flow(list_first_entry(&lru, struct flow, lru));
			net_count(NET_EVICTED);
		}
		flow = fresh;
		fresh = NULL;
		memset(flow, 0, sizeof(*flow));
		flow->key = *key;
		hlist_add_head(&flow->node, &table[hash]);
		list_add_tail(&flow->lru, &lru);
		WRITE_ONCE(flows, flows + 1);
	} else {
		list_move_tail(&flow->lru, &lru);
	}
	if (flow->carry[0].seq != seq)
		flow->carry[1] = flow->carry[0];
	flow->carry[0].seq = seq;
	flow->carry[0].length = carry_length;
	memcpy(flow->carry[0].bytes, carry, carry_length);
	flow->last_used = jiffies;
	spin_unlock_bh(&flows_lock);
	if (fresh)
		kmem_cache_free(flow_cache, fresh);
}

/**
 * net_flow_forget() - drop a flow's carry (its FIN or RST was accepted)
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

/* Remove the entries of @net (NULL: all), after its hooks are gone. */
void net_flows_flush_net(const struct net *net)
{
	struct flow *flow, *next;

	spin_lock_bh(&flows_lock);
	list_for_each_entry_safe(flow, next, &lru, lru)
		if (!net || flow->key.net == net)
			remove_flow(flow);
	spin_unlock_bh(&flows_lock);
}

/* Expire idle entries; the LRU list is in order of last use. */
static void gc(struct work_struct *work)
{
	struct flow *flow, *next;
	unsigned long now = jiffies;

	spin_lock_bh(&flows_lock);
	list_for_each_entry_safe(flow, next, &lru, lru) {
		if (time_before(now, flow->last_used + flows_timeout))
			break;
		remove_flow(flow);
		net_count(NET_EXPIRED);
	}
	spin_unlock_bh(&flows_lock);
	schedule_delayed_work(&gc_work, FLOW_GC_INTERVAL);
}

int net_flows_init(unsigned int max, unsigned int timeout_seconds)
{
	unsigned int k;

	flow_cache = KMEM_CACHE(flow, 0);
	if (!flow_cache)
		return -ENOMEM;
	for (k = 0; k < ARRAY_SIZE(table); k++)
		INIT_HLIST_HEAD(&table[k]);
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
}
