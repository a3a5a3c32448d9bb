/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint utf8guard:utf8guard_violation, hit for every refused or
 * audited check, so that perf and bpftrace can watch:
 *
 *	perf record -e utf8guard:utf8guard_violation
 *	bpftrace -e 'tracepoint:utf8guard:utf8guard_violation { ... }'
 *
 * comm and pid name the task that made the check.  A check made outside
 * task context (the netfilter hook runs in softirq, on whatever task the
 * softirq interrupted) has no such task: comm is "(softirq)" or "(irq)"
 * and pid 0.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM utf8guard

#if !defined(_UTF8GUARD_JUDGE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UTF8GUARD_JUDGE_TRACE_H

#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "utf8guard_core.h"

#define UTF8GUARD_TRACE_OPERATION_LEN 16

TRACE_EVENT(utf8guard_violation,
	TP_PROTO(const char *operation, u32 mode,
		 const struct utf8guard_report *report),
	TP_ARGS(operation, mode, report),
	TP_STRUCT__entry(
		__array(char, operation, UTF8GUARD_TRACE_OPERATION_LEN)
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(u32, mode)
		__field(u64, offset)
		__field(u32, length)
		__field(u32, codepoint)
		__field(u8, reason)
		__field(u8, shadow_length)
		__field(bool, path_trick)
	),
	TP_fast_assign(
		strscpy(__entry->operation, operation,
			UTF8GUARD_TRACE_OPERATION_LEN);
		if (in_task()) {
			memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
			__entry->pid = task_pid_nr(current);
		} else {
			strscpy(__entry->comm, in_serving_softirq() ?
				"(softirq)" : "(irq)", TASK_COMM_LEN);
			__entry->pid = 0;
		}
		__entry->mode = mode;
		__entry->offset = report->offset;
		__entry->length = report->length;
		__entry->codepoint = report->codepoint;
		__entry->reason = report->reason;
		__entry->shadow_length = report->shadow_length;
		__entry->path_trick = report->path_trick;
	),
	TP_printk("op=%s comm=%s pid=%d mode=%s reason=%s offset=%llu length=%u codepoint=0x%x shadow_length=%u path_trick=%d",
		  __entry->operation, __entry->comm, __entry->pid,
		  __print_symbolic(__entry->mode,
				   { 0, "off" }, { 1, "audit" },
				   { 2, "enforce" }),
		  __print_symbolic(__entry->reason,
				   { 0, "none" }, { 1, "truncated" },
				   { 2, "unexpected-continuation" },
				   { 3, "invalid-byte" }, { 4, "overlong" },
				   { 5, "surrogate" }, { 6, "out-of-range" }),
		  __entry->offset, __entry->length, __entry->codepoint,
		  __entry->shadow_length, __entry->path_trick)
);

#endif /* _UTF8GUARD_JUDGE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE judge_trace
#include <trace/define_trace.h>
