// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel audit records of what the policy finds, beside the log line:
 * one record per violation found in mode enforce (refused, res=0) or
 * audit (let through, res=1), written whenever auditing is enabled
 * (auditd running, or audit=1), at most RECORDS_PER_SECOND a second
 * (bursts included); the audit subsystem's own rate limit, backlog and
 * exclude rules apply too (auditctl -r, -b, -a exclude,always -F
 * msgtype=...).
 *
 * Why a limit of our own: the records are started without sleeping
 * (GFP_ATOMIC, from probes and softirqs), and audit drops such a record
 * at once when its queue is full, where it makes a process-context
 * caller wait.  Unlimited, any local user (a loop of bad mkdir()s) or
 * any remote sender (bad datagrams to a watched port) could fill the
 * queue, so that other records are lost, and with auditctl -f 2 panic
 * the kernel (review round 14, finding 1).  A record over the limit is
 * not written: counted in stats/audit_missed and logged, as every record
 * this file cannot write.
 *
 *	a name (utf8guard_judge(): the filesystem hook, utf8guard_check_*())
 *		AUDIT_ANOM_CREAT, the type the kernel gives a creation it
 *		refuses as suspicious (protected_regular, protected_fifos);
 *		in the task's audit context, so that a SYSCALL record with
 *		the same serial follows, and with audit_log_task_info()'s
 *		fields (pid, uid, auid, ses, comm, exe, ...)
 *	a packet (utf8guard_audit_packet(): the netfilter hook)
 *		AUDIT_NETFILTER_PKT, as xt_AUDIT's, with no task: the task
 *		running the softirq has nothing to do with the packet
 *
 * The fields are the log line's: first what was done, as AppArmor's
 * records say it (utf8guard=refused, dropped or audited: "mode" would be
 * read as a file mode by ausearch -i), then op, reason, offset, the bad
 * bytes and up to 4 bytes of context on each side in hex (bad, before,
 * after), path_trick, then the name (hex, as the kernel writes an
 * untrusted string; ausearch -i decodes it) or the addresses and ports,
 * and res (0 refused or dropped, 1 let through in mode audit).
 *
 * A record cannot be started where allocating is not allowed: in NMI
 * context (a probe that hit through int3) or with preemption disabled on
 * PREEMPT_RT (every kprobe handler there).  Then the record is written
 * as text into one of a few static slots and an irq_work starts it, in
 * no audit context (no SYSCALL record: pid, uid, auid, ses and comm are
 * in the record itself).  With every slot taken the record is lost:
 * counted in stats/audit_missed and logged.
 */
#include <linux/atomic.h>
#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <linux/stringify.h>

#include "audit_record.h"
#include "stats.h"
#include "utf8guard.h"

/* The name bytes written into a record: a whole filename component. */
#define RECORD_NAME_MAX 255
#define DEFERRED_SLOTS 16
#define DEFERRED_TEXT_MAX 1024
/* Below the kernel's default backlog (64) even with no auditd rules. */
#define RECORDS_PER_SECOND 50

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_EMITTING };

/* Quiet: the misses are logged here, with where they are counted. */
static struct ratelimit_state record_limit =
	RATELIMIT_STATE_INIT_FLAGS(record_limit, HZ, RECORDS_PER_SECOND,
				   RATELIMIT_MSG_ON_RELEASE);

struct deferred_slot {
	atomic_t state;
	int type;
	char text[DEFERRED_TEXT_MAX];
};

static struct deferred_slot deferred[DEFERRED_SLOTS];

/* A record being written: an audit buffer, or a deferred slot's text. */
struct record {
	struct audit_buffer *ab;
	struct deferred_slot *slot;
	size_t used;
};

static __printf(2, 3) void record_add(struct record *rec,
				      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (rec->ab)
		audit_log_format(rec->ab, "%pV", &vaf);
	else
		rec->used += vscnprintf(rec->slot->text + rec->used,
					DEFERRED_TEXT_MAX - rec->used, fmt,
					args);
	va_end(args);
}

/* @len bytes in upper-case hex, as audit_log_n_hex() writes them. */
static void record_hex(struct record *rec, const u8 *bytes, size_t len)
{
	char chunk[2 * 32 + 1];
	size_t n, i;

	while (len) {
		n = min_t(size_t, len, 32);
		for (i = 0; i < n; i++)
			hex_byte_pack_upper(chunk + 2 * i, bytes[i]);
		chunk[2 * n] = '\0';
		record_add(rec, "%s", chunk);
		bytes += n;
		len -= n;
	}
}

static void record_field_hex(struct record *rec, const char *field,
			     const u8 *bytes, size_t len)
{
	if (!len)
		return;
	record_add(rec, " %s=", field);
	record_hex(rec, bytes, len);
}

/* Allocating is allowed here: start the record at once. */
static bool can_start_now(void)
{
	if (in_nmi())
		return false;
	return !IS_ENABLED(CONFIG_PREEMPT_RT) || preemptible();
}

static void emit_deferred(struct irq_work *work)
{
	struct audit_buffer *ab;
	int i;

	for (i = 0; i < DEFERRED_SLOTS; i++) {
		struct deferred_slot *slot = &deferred[i];

		/*
		 * Claimed first: the work can run on two CPUs at once (queued
		 * again on one while it runs on another).
		 */
		if (atomic_cmpxchg_acquire(&slot->state, SLOT_READY,
					   SLOT_EMITTING) != SLOT_READY)
			continue;
		ab = audit_log_start(NULL, GFP_ATOMIC, slot->type);
		if (ab) {
			audit_log_format(ab, "%s", slot->text);
			audit_log_end(ab);
		}
		atomic_set_release(&slot->state, SLOT_FREE);
	}
}

static DEFINE_IRQ_WORK(emit_work, emit_deferred);

/* A record this file could not write: counted and logged. */
static void record_missed(const char *why)
{
	stats_add(STAT_AUDIT_MISSED);
	pr_warn_ratelimited("audit record not written: %s (stats/audit_missed)\n",
			    why);
}

/* Begin a record of @type; false if auditing is off or it is lost. */
static bool record_begin(struct record *rec, int type, bool task_context)
{
	int i;

	rec->ab = NULL;
	rec->slot = NULL;
	rec->used = 0;
	if (!audit_enabled)
		return false;
	if (!__ratelimit(&record_limit)) {
		record_missed("more than " __stringify(RECORDS_PER_SECOND) " a second");
		return false;
	}
	if (can_start_now()) {
		rec->ab = audit_log_start(task_context && in_task() ?
					  audit_context() : NULL,
					  GFP_ATOMIC, type);
		return rec->ab;
	}
	for (i = 0; i < DEFERRED_SLOTS; i++) {
		if (atomic_cmpxchg(&deferred[i].state, SLOT_FREE,
				   SLOT_FILLING) == SLOT_FREE) {
			rec->slot = &deferred[i];
			rec->slot->type = type;
			rec->slot->text[0] = '\0';
			return true;
		}
	}
	record_missed("all " __stringify(DEFERRED_SLOTS) " deferred records pending");
	return false;
}

static void record_end(struct record *rec)
{
	if (rec->ab) {
		audit_log_end(rec->ab);
		return;
	}
	atomic_set_release(&rec->slot->state, SLOT_READY);
	irq_work_queue(&emit_work);
}

/* What the task fields of a deferred record say (the SYSCALL record's). */
static void record_task(struct record *rec)
{
	const struct cred *cred = current_cred();

	if (rec->ab) {
		audit_log_task_info(rec->ab);
		return;
	}
	record_add(rec, " pid=%d uid=%u auid=%u ses=%u",
		   task_tgid_nr(current),
		   from_kuid(&init_user_ns, cred->uid),
		   from_kuid(&init_user_ns, audit_get_loginuid(current)),
		   audit_get_sessionid(current));
	record_field_hex(rec, "comm", current->comm,
			 strnlen(current->comm, TASK_COMM_LEN));
}

static void record_finding(struct record *rec, const char *verdict,
			   const char *operation,
			   const struct utf8guard_report *report, u64 offset,
			   const u8 *window, size_t before, size_t after)
{
	record_add(rec, "utf8guard=%s op=%s reason=%s offset=%llu", verdict,
		   operation, utf8guard_reason_name(report->reason), offset);
	if (window) {
		record_field_hex(rec, "bad", window + before, report->length);
		record_field_hex(rec, "before", window, before);
		record_field_hex(rec, "after", window + before + report->length,
				 after);
	}
	record_add(rec, " path_trick=%d", report->path_trick);
}

static bool enforced(const struct utf8guard_policy *policy)
{
	return policy->mode == UTF8GUARD_MODE_ENFORCE;
}

static void record_result(struct record *rec,
			  const struct utf8guard_policy *policy)
{
	record_add(rec, " res=%d", !enforced(policy));
}

/**
 * audit_record_name() - the audit record of a name's violation
 * @policy: the snapshot the check was made under
 * @report: the violation
 * @bytes: the checked name or path, or NULL
 * @len: its length
 * @operation: what made it (e.g. "mkdir")
 *
 * Context: any context.
 */
void audit_record_name(const struct utf8guard_policy *policy,
		       const struct utf8guard_report *report, const u8 *bytes,
		       size_t len, const char *operation)
{
	size_t before, after;
	const u8 *window;
	struct record rec;

	if (!record_begin(&rec, AUDIT_ANOM_CREAT, true))
		return;
	window = utf8guard_context(report, bytes, len, &before, &after);
	record_finding(&rec, enforced(policy) ? "refused" : "audited",
		       operation, report, report->offset, window, before,
		       after);
	if (bytes) {
		record_field_hex(&rec, "name", bytes,
				 min_t(size_t, len, RECORD_NAME_MAX));
		record_add(&rec, " name_len=%zu", len);
	}
	record_result(&rec, policy);
	record_task(&rec);
	record_end(&rec);
}

/**
 * utf8guard_audit_packet() - the audit record of a packet's violation
 * @policy: the snapshot the packet was checked under
 * @report: the violation
 * @packet: the packet: addresses, ports, and the bad bytes' window
 *
 * Writes an AUDIT_NETFILTER_PKT record with the fields of the hook's log
 * line, in no task's audit context, when auditing is enabled.  Call it
 * for each violation found: the limit of 50 records a second (shared with
 * the records of names; the rest counted in stats/audit_missed) is
 * applied here.
 *
 * Context: any context; does not sleep.
 */
void utf8guard_audit_packet(const struct utf8guard_policy *policy,
			    const struct utf8guard_report *report,
			    const struct utf8guard_audit_packet *packet)
{
	struct record rec;

	if (policy->mode == UTF8GUARD_MODE_OFF)
		return;
	if (!record_begin(&rec, AUDIT_NETFILTER_PKT, false))
		return;
	record_finding(&rec, enforced(policy) ? "dropped" : "audited",
		       packet->operation, report, packet->offset,
		       packet->window, packet->before, packet->after);
	if (packet->continued)
		record_add(&rec, " continued=1");
	if (packet->family == AF_INET)
		record_add(&rec, " proto=%u saddr=%pI4 sport=%u daddr=%pI4 dport=%u",
			   packet->protocol, packet->saddr,
			   ntohs(packet->sport), packet->daddr,
			   ntohs(packet->dport));
	else
		record_add(&rec, " proto=%u saddr=%pI6c sport=%u daddr=%pI6c dport=%u",
			   packet->protocol, packet->saddr,
			   ntohs(packet->sport), packet->daddr,
			   ntohs(packet->dport));
	record_result(&rec, policy);
	record_end(&rec);
}
EXPORT_SYMBOL_GPL(utf8guard_audit_packet);

/**
 * audit_record_exit() - write the deferred records still pending
 *
 * Context: process context, when nothing can start a record any more.
 */
void audit_record_exit(void)
{
	irq_work_sync(&emit_work);
	emit_deferred(&emit_work);
}
