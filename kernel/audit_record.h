/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel audit records of violations (audit_record.c). */
#ifndef UTF8GUARD_AUDIT_RECORD_H
#define UTF8GUARD_AUDIT_RECORD_H

#include <linux/types.h>

#include "utf8guard_core.h"
#include "utf8guard_policy.h"

/* Bytes of context on each side of a bad span, in log lines and records. */
#define UTF8GUARD_CONTEXT_BYTES 4

void audit_record_name(const struct utf8guard_policy *policy,
		       const struct utf8guard_report *report, const u8 *bytes,
		       size_t len, const char *operation);
void audit_record_exit(void);

#endif /* UTF8GUARD_AUDIT_RECORD_H */
