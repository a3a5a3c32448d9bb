// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard_nf.ko: drop UDP and TCP payloads that are ill-formed UTF-8 or
 * path tricks, for chosen destination ports, in every network namespace.
 *
 * The payloads are checked by utf8guard.ko's validator under its mode and
 * policy; this module hooks netfilter (hooks.c) and adds the net/
 * settings and counters to /sys/kernel/utf8guard.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "compat.h"
#include "hook_kit.h"
#include "net_hook.h"
#include "utf8guard_version.h"

static unsigned int flows_max_param = 16384;
module_param_named(flows_max, flows_max_param, uint, 0444);
MODULE_PARM_DESC(flows_max,
		 "Most TCP flows the hook keeps state for at once, 16 to 4194304 (default 16384)");

static unsigned int flow_timeout_param = 600;
module_param_named(flow_timeout, flow_timeout_param, uint, 0444);
MODULE_PARM_DESC(flow_timeout,
		 "Seconds an idle TCP flow keeps its state, 10 to 86400 (default 600)");

static unsigned int resets_max_param = 4096;
module_param_named(resets_max, resets_max_param, uint, 0444);
MODULE_PARM_DESC(resets_max,
		 "Most connection resets queued at once, 16 to 65536 (default 4096); past it a peer still gets its RST, counted in nomem");

static int __init utf8guard_nf_init(void)
{
	char *ports;
	int ret;

	if (flows_max_param < 16 || flows_max_param > 4194304) {
		pr_err("module parameter flows_max=%u: not in 16 to 4194304\n",
		       flows_max_param);
		return -EINVAL;
	}
	if (flow_timeout_param < 10 || flow_timeout_param > 86400) {
		pr_err("module parameter flow_timeout=%u: not in 10 to 86400\n",
		       flow_timeout_param);
		return -EINVAL;
	}
	if (resets_max_param < 16 || resets_max_param > 65536) {
		pr_err("module parameter resets_max=%u: not in 16 to 65536\n",
		       resets_max_param);
		return -EINVAL;
	}
	net_reset_init(resets_max_param);
	ret = utf8guard_kit_stats_init(&net_stats);
	if (ret)
		return ret;
	ret = net_settings_init();
	if (ret)
		goto counters_exit;
	ret = net_flows_init(flows_max_param, flow_timeout_param);
	if (ret)
		goto settings_exit;
	ret = net_hooks_init();
	if (ret)
		goto flows_exit;
	ret = utf8guard_kit_attach(&net_kit, utf8guard_kobject(), THIS_MODULE);
	if (ret)
		goto hooks_exit;
	ports = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	if (ports)
		net_format_ports(ports, NET_PORTS_TEXT_MAX);
	pr_info("%s hooked IPv4 and IPv6 local-in and forward; enabled %d, ports \"%s\", forward %d, action %s, flows_max %u (%u hash buckets, at most %zu KiB of flows)\n",
		UTF8GUARD_VERSION, net_enabled(), ports ? ports : "?",
		net_forward(), net_action_name(net_action()), flows_max_param,
		net_flows_buckets(),
		(size_t)flows_max_param * net_flow_size() / 1024);
	kfree(ports);
	return 0;

hooks_exit:
	net_hooks_exit();
flows_exit:
	net_flows_exit();
	net_reset_exit();
settings_exit:
	net_settings_exit();
counters_exit:
	utf8guard_kit_stats_destroy(&net_stats);
	return ret;
}

static void __exit utf8guard_nf_exit(void)
{
	utf8guard_kit_detach(&net_kit, THIS_MODULE);
	net_hooks_exit();
	net_flows_exit();
	net_reset_exit();
	net_settings_exit();
	utf8guard_kit_stats_destroy(&net_stats);
	pr_info("unloaded: payloads are no longer checked\n");
}

module_init(utf8guard_nf_init);
module_exit(utf8guard_nf_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(UTF8GUARD_VERSION);
MODULE_DESCRIPTION("Drop UDP and TCP payloads that are ill-formed UTF-8 or path tricks, on chosen ports");
MODULE_AUTHOR("utf8guard developers");
