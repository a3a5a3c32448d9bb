// SPDX-License-Identifier: GPL-2.0
/*
 * Settings of utf8guard_nf.ko: net/enabled, net/ports, net/forward and
 * net/action.
 *
 * The hooks read them locklessly: the flags with READ_ONCE(), the port set
 * under RCU (it is replaced whole and freed after a grace period), and
 * whether a protocol has any watched port from a static key, so that
 * traffic of a protocol with none costs a jump.  They are kit settings
 * (hook_kit.h), with their module parameters: the kit keeps net/enabled
 * and its file, and stores the others under net_settings.lock, refusing
 * them while utf8guard is locked; a parse error changes nothing.
 * net/forward turns the IPv4 defragmenter on before it reads 1 (defrag.c),
 * and a write that cannot do so fails and changes nothing.  Every change
 * is logged with who made it.
 */

#include <linux/err.h>
#include <linux/in.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hook_kit.h"
#include "net_hook.h"

/*
 * A port set; @before and @after are room to log the change a parsed
 * set makes, freed once it is applied.
 */
struct ports_holder {
	struct rcu_head rcu;
	struct net_ports *ports;
	char *before;
	char *after;
};

static enum net_action action;
static struct ports_holder __rcu *watched;
/* @watched's set, for the hooks (net_watches()); freed with it. */
struct net_ports __rcu *net_watched_ports;
static bool forward;
/* Whether forward_parse() turned the defragmenter on; under the lock. */
static bool forward_defrag;
/* Only the parameter's default; the setting is @forward. */
static bool forward_param;

DEFINE_STATIC_KEY_FALSE(net_tcp_watched);
DEFINE_STATIC_KEY_FALSE(net_udp_watched);

static ssize_t ports_show(char *buf);
static int ports_parse(const char *text, size_t len, bool at_load,
		       void **parsed);
static void ports_apply(void *parsed, bool at_load);
static void ports_release(void *parsed);
static ssize_t action_show(char *buf);
static int action_parse(const char *text, size_t len, bool at_load,
			void **parsed);
static void action_apply(void *parsed, bool at_load);
static ssize_t forward_show(char *buf);
static int forward_parse(const char *text, size_t len, bool at_load,
			 void **parsed);
static void forward_apply(void *parsed, bool at_load);
static void forward_release(void *parsed);

/*
 * The initialisers of .value and .param are the defaults; with no action
 * parameter, action stays NET_ACTION_DROP.
 */
static struct utf8guard_kit_file files[NET_SETTING_COUNT] = {
	[NET_SETTING_ENABLED] = { .name = "enabled", .flag = true,
				  .value = true },
	[NET_SETTING_PORTS] = { .name = "ports", .show = ports_show,
				.parse = ports_parse, .apply = ports_apply,
				.release = ports_release, .param = "" },
	[NET_SETTING_FORWARD] = { .name = "forward", .show = forward_show,
				  .parse = forward_parse,
				  .apply = forward_apply,
				  .release = forward_release },
	[NET_SETTING_ACTION] = { .name = "action", .show = action_show,
				 .parse = action_parse,
				 .apply = action_apply },
};

UTF8GUARD_KIT_FILE_PARAM(enabled, files[NET_SETTING_ENABLED], bool,
			 "Check payloads at load (default 1); later: net/enabled");
UTF8GUARD_KIT_FILE_PARAM(ports, files[NET_SETTING_PORTS], charp,
			 "Watched destination ports, e.g. tcp:80,udp:514,tcp:8000-8090 (default none); later: net/ports");
UTF8GUARD_KIT_PARAM(forward, bool,
		    "Check forwarded packets too (default 0); later: net/forward");
UTF8GUARD_KIT_FILE_PARAM(action, files[NET_SETTING_ACTION], charp,
			 "What a refused TCP segment does: drop (default) or reset the connection; later: net/action");

/* net/enabled, net/ports, net/forward, net/action, in that order. */
struct utf8guard_kit_settings net_settings = {
	.files = files,
	.count = NET_SETTING_COUNT,
};

bool net_enabled(void)
{
	return utf8guard_kit_flag(&files[NET_SETTING_ENABLED]);
}

bool net_forward(void)
{
	return READ_ONCE(forward);
}

/* Under net_settings.lock: the IPv4 defragmenter off, if it is on. */
static void forward_defrag_off(void)
{
	if (forward_defrag) {
		net_defrag_forward_off();
		forward_defrag = false;
	}
}

/* What forward_parse() hands forward_apply() or forward_release(). */
#define FORWARD_ON		BIT(0)
#define FORWARD_DEFRAG_NOW	BIT(1)	/* this parse turned it on */

/*
 * "0" or "1" as for every flag; turning it on needs the defragmenter
 * first, for forwarded datagrams to reach the hooks whole.
 */
static int forward_parse(const char *text, size_t len, bool at_load,
			 void **parsed)
{
	struct utf8guard_parse_error error;
	unsigned long result = 0;
	bool on;
	int ret;

	if (!utf8guard_parse_flag(text, len, &on, &error)) {
		pr_info_ratelimited("net/forward write refused: %s\n",
				    error.message);
		return -EINVAL;
	}
	if (on) {
		result |= FORWARD_ON;
		/*
		 * Locked: the kit refuses the write; turning the
		 * defragmenter on and off again would hold forwarded
		 * fragments for nothing (review round 16).
		 */
		if (!forward_defrag && (at_load || !utf8guard_locked())) {
			ret = net_defrag_forward_on();
			if (ret)
				return ret;
			forward_defrag = true;
			result |= FORWARD_DEFRAG_NOW;
		}
	}
	*parsed = (void *)result;
	return 0;
}

static void forward_apply(void *parsed, bool at_load)
{
	bool on = (unsigned long)parsed & FORWARD_ON;
	bool old = READ_ONCE(forward);

	WRITE_ONCE(forward, on);
	/* The hooks see 0 before the defragmenter goes. */
	if (!on && forward_defrag) {
		synchronize_rcu();
		forward_defrag_off();
	}
	if (!at_load && old != on)
		pr_notice("net/forward %d -> %d (by %s[%d])\n", old, on,
			  current->comm, task_pid_nr(current));
}

/* Locked: what the parse turned on goes again. */
static void forward_release(void *parsed)
{
	if ((unsigned long)parsed & FORWARD_DEFRAG_NOW)
		forward_defrag_off();
}

static ssize_t forward_show(char *buf)
{
	return sysfs_emit(buf, "%d\n", net_forward());
}

enum net_action net_action(void)
{
	return READ_ONCE(action);
}

static const char *const action_names[] = {
	[NET_ACTION_DROP] = "drop",
	[NET_ACTION_RESET] = "reset",
};

const char *net_action_name(enum net_action value)
{
	return action_names[value];
}

/*
 * "drop" or "reset", with one trailing newline allowed; the enum
 * net_action is *@parsed itself.
 */
static int action_parse(const char *text, size_t len, bool at_load,
			void **parsed)
{
	unsigned long k;

	if (len && text[len - 1] == '\n')
		len--;
	for (k = 0; k < ARRAY_SIZE(action_names); k++) {
		if (len == strlen(action_names[k]) &&
		    !memcmp(text, action_names[k], len)) {
			*parsed = (void *)k;
			return 0;
		}
	}
	if (at_load)
		pr_err("module parameter action=\"%s\": not drop or reset\n",
		       text);
	else
		pr_info_ratelimited("net/action write refused: not drop or reset\n");
	return -EINVAL;
}

static void action_apply(void *parsed, bool at_load)
{
	enum net_action value = (unsigned long)parsed;
	enum net_action old = READ_ONCE(action);

	if (old == value)
		return;
	WRITE_ONCE(action, value);
	if (!at_load)
		pr_notice("net/action %s -> %s (by %s[%d])\n",
			  net_action_name(old), net_action_name(value),
			  current->comm, task_pid_nr(current));
}

static ssize_t action_show(char *buf)
{
	return sysfs_emit(buf, "%s\n", net_action_name(net_action()));
}

size_t net_format_ports(char *buf, size_t size)
{
	const struct ports_holder *holder;
	size_t n = 0;

	rcu_read_lock();
	holder = rcu_dereference(watched);
	if (holder)
		n = net_ports_format(holder->ports, buf, size);
	else if (size)
		buf[0] = '\0';
	rcu_read_unlock();
	return n;
}

static void holder_free(struct ports_holder *holder)
{
	net_ports_free(holder->ports);
	kfree(holder->before);
	kfree(holder->after);
	kfree(holder);
}

static void free_holder(struct rcu_head *head)
{
	holder_free(container_of(head, struct ports_holder, rcu));
}

/* Under net_settings.lock (the kit's store and init). */
static int ports_parse(const char *text, size_t len, bool at_load,
		       void **parsed)
{
	struct ports_holder *holder;
	const char *error;
	int ret;

	holder = kzalloc(sizeof(*holder), GFP_KERNEL);
	if (!holder)
		return -ENOMEM;
	holder->before = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	holder->after = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	if (!holder->before || !holder->after) {
		ret = -ENOMEM;
		goto out;
	}
	holder->ports = net_ports_parse(text, len, &error);
	if (IS_ERR(holder->ports)) {
		ret = PTR_ERR(holder->ports);
		holder->ports = NULL;
		goto out;
	}
	if (!holder->ports) {
		if (at_load)
			pr_err("module parameter ports=\"%s\": %s\n", text,
			       error);
		else
			pr_info_ratelimited("net/ports write refused: %s\n",
					    error);
		ret = -EINVAL;
		goto out;
	}
	*parsed = holder;
	return 0;
out:
	holder_free(holder);
	return ret;
}

static void ports_apply(void *parsed, bool at_load)
{
	struct ports_holder *holder = parsed, *old;
	char *before = holder->before, *after = holder->after;

	holder->before = NULL;
	holder->after = NULL;
	net_format_ports(before, NET_PORTS_TEXT_MAX);
	/* A key is on whenever the set the hooks may read needs it. */
	if (net_ports_any(holder->ports, IPPROTO_TCP))
		static_branch_enable(&net_tcp_watched);
	if (net_ports_any(holder->ports, IPPROTO_UDP))
		static_branch_enable(&net_udp_watched);
	old = rcu_replace_pointer(watched, holder,
				  lockdep_is_held(&net_settings.lock));
	rcu_assign_pointer(net_watched_ports, holder->ports);
	if (!net_ports_any(holder->ports, IPPROTO_TCP))
		static_branch_disable(&net_tcp_watched);
	if (!net_ports_any(holder->ports, IPPROTO_UDP))
		static_branch_disable(&net_udp_watched);
	net_format_ports(after, NET_PORTS_TEXT_MAX);
	if (!at_load && strcmp(before, after))
		pr_notice("net/ports \"%s\" -> \"%s\" (by %s[%d])\n", before,
			  after, current->comm, task_pid_nr(current));
	if (old)
		call_rcu(&old->rcu, free_holder);
	kfree(before);
	kfree(after);
}

static void ports_release(void *parsed)
{
	holder_free(parsed);
}

static ssize_t ports_show(char *buf)
{
	char *text = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	ssize_t n;

	if (!text)
		return -ENOMEM;
	net_format_ports(text, NET_PORTS_TEXT_MAX);
	n = sysfs_emit(buf, "%s\n", text);
	kfree(text);
	return n;
}

/* At load, before the hooks exist. */
int net_settings_init(void)
{
	int ret;

	files[NET_SETTING_FORWARD].param = forward_param ? "1" : "0";
	ret = utf8guard_kit_settings_init(&net_settings, "net");

	/* The ports may be in place when the action does not parse. */
	if (ret)
		net_settings_exit();
	return ret;
}

/* At unload, once no hook can run. */
void net_settings_exit(void)
{
	struct ports_holder *holder = rcu_dereference_protected(watched, true);

	RCU_INIT_POINTER(watched, NULL);
	RCU_INIT_POINTER(net_watched_ports, NULL);
	rcu_barrier();	/* the call_rcu() of replaced sets */
	if (holder)
		holder_free(holder);
	static_branch_disable(&net_tcp_watched);
	static_branch_disable(&net_udp_watched);
	WRITE_ONCE(forward, false);
	forward_defrag_off();
}
