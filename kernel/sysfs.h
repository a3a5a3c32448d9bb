/* SPDX-License-Identifier: GPL-2.0 */
/* The /sys/kernel/utf8guard/ control interface. */
#ifndef UTF8GUARD_SYSFS_H
#define UTF8GUARD_SYSFS_H

int sysfs_interface_init(void);
void sysfs_interface_exit(void);

#endif /* UTF8GUARD_SYSFS_H */
