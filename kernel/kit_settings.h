/* SPDX-License-Identifier: GPL-2.0 */
/* Inside utf8guard.ko: the sysfs store of a kit setting (kit_settings.c). */
#ifndef UTF8GUARD_KIT_SETTINGS_H
#define UTF8GUARD_KIT_SETTINGS_H

#include <linux/types.h>

struct utf8guard_kit_file;

int kit_settings_store(struct utf8guard_kit_file *file, const char *text,
		       size_t len);

#endif /* UTF8GUARD_KIT_SETTINGS_H */
