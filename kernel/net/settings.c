// SPDX-License-Identifier: GPL-2.0
/*
 * Settings of utf8guard_nf.ko: net/enabled, net/ports and net/forward.
 *
 * The hooks read them locklessly: the flags with READ_ONCE(), the port set
 * under RCU (it is replaced whole and freed after a grace period).  They
 * are kit settings (hook_kit.h): the kit keeps the flags and their files;
 * writers are serialised by net_settings.lock, refuse everything while
 * utf8guard is locked, and change nothing on a parse error.  Every change
 * is logged with who made it.
 */

#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hook_kit.h"
#include "net_hook.h"

struct ports_holder {
	struct rcu_head rcu;
	struct net_ports *ports;
};

static enum net_action action;
static struct ports_holder __rcu *watched;

static ssize_t ports_show(char *buf);
static int ports_store(const char *text, size_t len);
static ssize_t action_show(char *buf);
static int action_store(const char *text, size_t len);

static struct utf8guard_kit_file files[NET_SETTING_COUNT] = {
	[NET_SETTING_ENABLED] = { .name = "enabled", .flag = true },
	[NET_SETTING_PORTS] = { .name = "ports", .show = ports_show,
				.store = ports_store },
	[NET_SETTING_FORWARD] = { .name = "forward", .flag = true },
	[NET_SETTING_ACTION] = { .name = "action", .show = action_show,
				 .store = action_store },
};

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
	return utf8guard_kit_flag(&files[NET_SETTING_FORWARD]);
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

static ssize_t action_show(char *buf)
{
	return sysfs_emit(buf, "%s\n", net_action_name(net_action()));
}

/*
 * The store of net/action: "drop" or "reset".  Returns 0, -EINVAL if
 * @text does not parse (nothing changes), -EPERM while locked.
 */
static int action_store(const char *text, size_t len)
{
	enum net_action value, old;
	int ret = 0;

	if (parse_action(text, len, &value)) {
		pr_info_ratelimited("net/action write refused: not drop or reset\n");
		return -EINVAL;
	}
	mutex_lock(&net_settings.lock);
	old = READ_ONCE(action);
	if (utf8guard_locked()) {
		ret = -EPERM;
	} else if (old != value) {
		WRITE_ONCE(action, value);
		pr_notice("net/action %s -> %s (by %s[%d])\n",
			  net_action_name(old), net_action_name(value),
			  current->comm, task_pid_nr(current));
	}
	mutex_unlock(&net_settings.lock);
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
	mutex_lock(&net_settings.lock);
	if (!at_load && utf8guard_locked()) {
		mutex_unlock(&net_settings.lock);
		net_ports_free(holder->ports);
		ret = -EPERM;
		goto out;
	}
	net_format_ports(before, NET_PORTS_TEXT_MAX);
	old = rcu_replace_pointer(watched, holder,
				  lockdep_is_held(&net_settings.lock));
	net_format_ports(after, NET_PORTS_TEXT_MAX);
	mutex_unlock(&net_settings.lock);
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

static int ports_store(const char *text, size_t len)
{
	return store_ports(text, len, false);
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
	utf8guard_kit_settings_init(&net_settings, "net");
	WRITE_ONCE(action, value);
	files[NET_SETTING_ENABLED].value = enabled_param;
	files[NET_SETTING_FORWARD].value = forward_param;
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
