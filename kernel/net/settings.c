// SPDX-License-Identifier: GPL-2.0
/*
 * Settings of utf8guard_nf.ko: net/enabled, net/ports and net/forward.
 *
 * The hooks read them locklessly: the flags with READ_ONCE(), the port set
 * under RCU (it is replaced whole and freed after a grace period).
 * Writers are serialised by settings_mutex, refuse everything while
 * utf8guard is locked, and change nothing on a parse error.  Every change
 * is logged with who made it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "net_hook.h"

struct ports_holder {
	struct rcu_head rcu;
	struct net_ports *ports;
};

static bool enabled;
static bool forward;
static enum net_action action;
static struct ports_holder __rcu *watched;
static DEFINE_MUTEX(settings_mutex);

bool net_enabled(void)
{
	return READ_ONCE(enabled);
}

bool net_forward(void)
{
	return READ_ONCE(forward);
}

/* Whether packets to @port of @protocol are checked.  Atomic context. */
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

/* "drop" or "reset", with one trailing newline allowed. */
static int parse_action(const char *text, size_t len, enum net_action *value)
{
	unsigned int k;

	if (len && text[len - 1] == '\n')
		len--;
	for (k = 0; k < ARRAY_SIZE(action_names); k++) {
		if (len == strlen(action_names[k]) &&
		    !memcmp(text, action_names[k], len)) {
			*value = k;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * net_store_action() - the sysfs store of net/action
 * @text: the written bytes: "drop" or "reset"
 * @len: their number
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL if @text does not parse (nothing changes), -EPERM
 * while locked.
 */
int net_store_action(const char *text, size_t len)
{
	enum net_action value, old;
	int ret = 0;

	if (parse_action(text, len, &value)) {
		pr_info_ratelimited("net/action write refused: not drop or reset\n");
		return -EINVAL;
	}
	mutex_lock(&settings_mutex);
	old = READ_ONCE(action);
	if (utf8guard_locked()) {
		ret = -EPERM;
	} else if (old != value) {
		WRITE_ONCE(action, value);
		pr_notice("net/action %s -> %s (by %s[%d])\n",
			  net_action_name(old), net_action_name(value),
			  current->comm, task_pid_nr(current));
	}
	mutex_unlock(&settings_mutex);
	return ret;
}

bool net_watches(u8 protocol, u16 port)
{
	const struct ports_holder *holder;
	bool yes;

	rcu_read_lock();
	holder = rcu_dereference(watched);
	yes = holder && net_ports_has(holder->ports, protocol, port);
	rcu_read_unlock();
	return yes;
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

static void free_holder(struct rcu_head *head)
{
	struct ports_holder *holder = container_of(head, struct ports_holder,
						   rcu);

	net_ports_free(holder->ports);
	kfree(holder);
}

static int store_ports(const char *text, size_t len, bool at_load)
{
	struct ports_holder *holder, *old;
	char *before, *after;
	const char *error;
	int ret = 0;

	holder = kzalloc(sizeof(*holder), GFP_KERNEL);
	before = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	after = kmalloc(NET_PORTS_TEXT_MAX, GFP_KERNEL);
	if (!holder || !before || !after) {
		ret = -ENOMEM;
		goto out;
	}
	holder->ports = net_ports_parse(text, len, &error);
	if (IS_ERR(holder->ports)) {
		ret = PTR_ERR(holder->ports);
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
	mutex_lock(&settings_mutex);
	if (!at_load && utf8guard_locked()) {
		mutex_unlock(&settings_mutex);
		net_ports_free(holder->ports);
		ret = -EPERM;
		goto out;
	}
	net_format_ports(before, NET_PORTS_TEXT_MAX);
	old = rcu_replace_pointer(watched, holder,
				  lockdep_is_held(&settings_mutex));
	net_format_ports(after, NET_PORTS_TEXT_MAX);
	mutex_unlock(&settings_mutex);
	holder = NULL;
	if (!at_load && strcmp(before, after))
		pr_notice("net/ports \"%s\" -> \"%s\" (by %s[%d])\n", before,
			  after, current->comm, task_pid_nr(current));
	if (old)
		call_rcu(&old->rcu, free_holder);
out:
	kfree(holder);
	kfree(before);
	kfree(after);
	return ret;
}

int net_store_ports(const char *text, size_t len)
{
	return store_ports(text, len, false);
}

int net_store_enabled(const char *text, size_t len)
{
	return utf8guard_hook_store_flag(&settings_mutex, &enabled,
					 "net/enabled", text, len);
}

int net_store_forward(const char *text, size_t len)
{
	return utf8guard_hook_store_flag(&settings_mutex, &forward,
					 "net/forward", text, len);
}

/* At load, before the hooks exist. */
int net_settings_init(bool enabled_param, const char *ports_param,
		      bool forward_param, const char *action_param)
{
	const char *text = ports_param ? ports_param : "";
	enum net_action value = NET_ACTION_DROP;

	if (action_param &&
	    parse_action(action_param, strlen(action_param), &value)) {
		pr_err("module parameter action=\"%s\": not drop or reset\n",
		       action_param);
		return -EINVAL;
	}
	WRITE_ONCE(action, value);
	WRITE_ONCE(enabled, enabled_param);
	WRITE_ONCE(forward, forward_param);
	return store_ports(text, strlen(text), true);
}

/* At unload, once no hook can run. */
void net_settings_exit(void)
{
	struct ports_holder *holder = rcu_dereference_protected(watched, true);

	RCU_INIT_POINTER(watched, NULL);
	rcu_barrier();	/* the call_rcu() of replaced sets */
	if (holder) {
		net_ports_free(holder->ports);
		kfree(holder);
	}
}
