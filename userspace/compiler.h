/* SPDX-License-Identifier: GPL-2.0 */
/* The few kernel idioms the CLI uses, for userspace. */
#ifndef UTF8GUARDCTL_COMPILER_H
#define UTF8GUARDCTL_COMPILER_H

#define ARRAY_SIZE(array) (sizeof(array) / sizeof((array)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

#endif /* UTF8GUARDCTL_COMPILER_H */
