/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ARRAY_SIZE() for the userspace tests, as in the kernel (without its
 * must-be-array check).
 */
#ifndef UTF8GUARD_TESTS_ARRAY_SIZE_H
#define UTF8GUARD_TESTS_ARRAY_SIZE_H

#define ARRAY_SIZE(array) (sizeof(array) / sizeof((array)[0]))

#endif /* UTF8GUARD_TESTS_ARRAY_SIZE_H */
