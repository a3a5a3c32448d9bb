/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard: the API utf8guard.ko exports to other kernel code.
 *
 * Pure validation, from the shared core (core/utf8guard_core.h), no
 * policy:
 *	utf8guard_first_error()		validate a buffer, first error report
 *	utf8guard_next_error()		step through errors, or a chunk
 *	utf8guard_scan()		every error of a buffer
 *	utf8guard_stream_init/feed/end() state carried across chunks (skb
 *					fragments, TCP segments)
 *
 * Policy and classes, from the shared core (core/utf8guard_policy.h
 * and core/utf8guard_words.h):
 *	utf8guard_classes_refuse(), utf8guard_first_violation(), and the
 *	word and parse helpers
 *	utf8guard_next_word()		the tokenizer of word lists a setting
 *					takes (filesystem types, ports)
 *
 * Under the current policy, counted in /sys/kernel/utf8guard/stats and
 * logged (this header):
 *	utf8guard_policy_get()		a lockless snapshot of mode and classes
 *	utf8guard_check_name()		one new filename component
 *	utf8guard_check_path()		a path: symlink target, payload
 *	utf8guard_judge()		count, log and decide one check whose
 *					bytes the caller scanned itself
 *	utf8guard_account()		the same without the log line, for
 *					callers that log their own
 *	utf8guard_judge_exempt()	count and log a violation a hook's
 *					exemption lets through
 *	utf8guard_audit_packet()	the audit record of a packet's
 *					violation, for such callers
 *
 * All of these may be called in any context, including softirq, and
 * never sleep.
 *
 * For hook modules (utf8guard_fs.ko, ...), from process context:
 *	utf8guard_kobject()		/sys/kernel/utf8guard, to add a directory
 *	utf8guard_locked()		whether settings are frozen
 *	utf8guard_hook_attach/detach()	pin the hook module when locked
 *	utf8guard_hook_store_flag()	a 0/1 setting's sysfs store
 *	utf8guard_mode_notifier_*()	be told of every mode change
 *	utf8guard_counters_*()		per-CPU counter sets
 *					(utf8guard_counters.h)
 *	utf8guard_kit_*()		the hook kit: settings, counters and
 *					a sysfs directory (hook_kit.h)
 */
#ifndef UTF8GUARD_H
#define UTF8GUARD_H

#include "utf8guard_core.h"
#include "utf8guard_policy.h"

struct kobject;
struct module;
struct mutex;
struct notifier_block;

struct utf8guard_policy utf8guard_policy_get(void);
int utf8guard_check_name(const char *name, size_t len, const char *operation);
int utf8guard_check_path(const char *path, size_t len, const char *operation);
int utf8guard_judge(const struct utf8guard_policy *policy,
		    const struct utf8guard_report *report, const u8 *bytes,
		    size_t len, const char *operation);
int utf8guard_account(const struct utf8guard_policy *policy,
		      const struct utf8guard_report *report,
		      const char *operation);
void utf8guard_judge_exempt(const struct utf8guard_policy *policy,
			    const struct utf8guard_report *report,
			    const u8 *bytes, size_t len, const char *operation,
			    const char *setting, const char *entry);

/**
 * struct utf8guard_audit_packet - a packet's violation, for its audit record
 * @operation: the protocol's name, as in the log line ("udp", "tcp")
 * @protocol: its IP protocol number
 * @family: AF_INET or AF_INET6
 * @saddr: source address (struct in_addr or struct in6_addr)
 * @daddr: destination address
 * @sport: source port
 * @dport: destination port
 * @offset: payload offset of the bad bytes, as the log line says
 * @continued: the bad bytes began in the segment before
 * @window: @before bytes of context, the report's bad bytes, @after bytes;
 *	or NULL
 * @before: bytes of context before the bad bytes in @window
 * @after: bytes of context after them
 */
struct utf8guard_audit_packet {
	const char *operation;
	u8 protocol;
	u8 family;
	const void *saddr;
	const void *daddr;
	__be16 sport;
	__be16 dport;
	u64 offset;
	bool continued;
	const u8 *window;
	size_t before;
	size_t after;
};

void utf8guard_audit_packet(const struct utf8guard_policy *policy,
			    const struct utf8guard_report *report,
			    const struct utf8guard_audit_packet *packet);
struct kobject *utf8guard_kobject(void);
bool utf8guard_locked(void);
int utf8guard_hook_attach(struct module *owner);
void utf8guard_hook_detach(struct module *owner);
int utf8guard_hook_store_flag(struct mutex *lock, bool *flag,
			      const char *name, const char *text, size_t len);
int utf8guard_mode_notifier_register(struct notifier_block *nb);
int utf8guard_mode_notifier_unregister(struct notifier_block *nb);

#endif /* UTF8GUARD_H */
