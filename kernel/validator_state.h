/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which validator path utf8guard.ko uses: the best one the CPU offers
 * unless the administrator chose another (module parameter or sysfs).
 */
#ifndef UTF8GUARD_VALIDATOR_STATE_H
#define UTF8GUARD_VALIDATOR_STATE_H

#include <linux/types.h>

int validator_state_init(const char *param);
int validator_state_store(const char *text, size_t len);
size_t validator_state_format(char *buf, size_t size);

#endif /* UTF8GUARD_VALIDATOR_STATE_H */
