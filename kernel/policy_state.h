/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live policy of utf8guard.ko: read locklessly, replaced atomically.
 */
#ifndef UTF8GUARD_POLICY_STATE_H
#define UTF8GUARD_POLICY_STATE_H

#include "utf8guard_policy.h"

int policy_state_init(const char *mode_text, const char *policy_text);
int policy_state_store_mode(const char *text, size_t len);
int policy_state_store_policy(const char *text, size_t len);
int policy_state_lock(void);
void policy_state_log_refusal(const char *what, const char *text, size_t len,
			      const struct utf8guard_parse_error *error);

#endif /* UTF8GUARD_POLICY_STATE_H */
