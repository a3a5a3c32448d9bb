/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Properties every core error report must have, whatever the input.
 */
#ifndef UTF8GUARD_TESTS_REPORT_INVARIANTS_H
#define UTF8GUARD_TESTS_REPORT_INVARIANTS_H

#include "utf8guard_core.h"

/*
 * NULL if @report is a possible report for an input of @len bytes,
 * else a sentence saying which property it breaks.
 */
const char *report_invariant_violation(const struct utf8guard_report *report,
				       size_t len);

#endif /* UTF8GUARD_TESTS_REPORT_INVARIANTS_H */
