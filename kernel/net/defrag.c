// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv4 defragmenter for forwarded packets, on only while net/forward
 * is 1.
 *
 * The hooks must see whole datagrams.  IPv4 reassembles what it delivers
 * locally itself, in ip_local_deliver(), before LOCAL_IN: the LOCAL_IN
 * hook needs no defragmenter.  A forwarded datagram is reassembled only by
 * nf_defrag_ipv4 at PRE_ROUTING, so it is turned on, in every network
 * namespace, before net/forward reads 1, and off after it reads 0 again.
 * Its hooks would otherwise cost every IPv4 packet of the host two hook
 * calls (LOCAL_OUT and PRE_ROUTING) for nothing.  (IPv6 reassembles only
 * after LOCAL_IN, so hooks.c keeps nf_defrag_ipv6 on in every namespace.)
 *
 * A pernet subsystem does it: registering it enables the defragmenter in
 * every namespace that exists and in every one created later, without a
 * window in which a new namespace misses it.
 */
#include <net/net_namespace.h>
#include <net/netfilter/ipv4/nf_defrag_ipv4.h>

#include "net_hook.h"

static int __net_init forward_defrag_init(struct net *net)
{
	return nf_defrag_ipv4_enable(net);
}

static void __net_exit forward_defrag_exit(struct net *net)
{
	nf_defrag_ipv4_disable(net);
}

static struct pernet_operations forward_defrag_ops = {
	.init = forward_defrag_init,
	.exit = forward_defrag_exit,
};

/**
 * net_defrag_forward_on() - reassemble forwarded IPv4 datagrams
 *
 * In every network namespace, now and later.  Called once per
 * net_defrag_forward_off(), under net_settings.lock.
 *
 * Context: process context; sleeps.
 * Return: 0, or the error of a namespace that could not enable it (then
 * nothing changed).
 */
int net_defrag_forward_on(void)
{
	int ret = register_pernet_subsys(&forward_defrag_ops);

	if (ret)
		pr_err("cannot turn on the IPv4 defragmenter for net/forward: %d\n",
		       ret);
	return ret;
}

/**
 * net_defrag_forward_off() - undo net_defrag_forward_on()
 *
 * Context: process context; sleeps.
 */
void net_defrag_forward_off(void)
{
	unregister_pernet_subsys(&forward_defrag_ops);
}
