/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel audit records of violations (audit_record.c). */
#ifndef UTF8GUARD_AUDIT_RECORD_H
#define UTF8GUARD_AUDIT_RECORD_H

#include <linux/minmax.h>
#include <linux/types.h>

#include "utf8guard_core.h"
#include "utf8guard_policy.h"

/* Bytes of context on each side of a bad span, in log lines and records. */
#define UTF8GUARD_CONTEXT_BYTES 4

/*
 * Where @report's bad bytes are in the @len checked @bytes, with up to
 * UTF8GUARD_CONTEXT_BYTES of context: sets *@before and *@after and
 * returns the start of that window, or NULL (both 0) if @bytes is NULL or
 * does not hold the bad bytes.  For the log line and the audit record.
 */
static inline const u8 *utf8guard_context(const struct utf8guard_report *report,
					  const u8 *bytes, size_t len,
					  size_t *before, size_t *after)
{
	size_t start = report->offset, end = start + report->length;

	*before = 0;
	*after = 0;
	if (!bytes || end > len)
		return NULL;
	*before = min_t(size_t, start, UTF8GUARD_CONTEXT_BYTES);
	*after = min_t(size_t, len - end, UTF8GUARD_CONTEXT_BYTES);
	return bytes + start - *before;
}

void audit_record_name(const struct utf8guard_policy *policy,
		       const struct utf8guard_report *report, const u8 *bytes,
		       size_t len, const char *operation);
void audit_record_exit(void);

#endif /* UTF8GUARD_AUDIT_RECORD_H */
