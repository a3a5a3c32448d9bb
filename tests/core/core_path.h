/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Which path of the core a test program runs: the environment's
 * UTF8GUARD_CORE_PATH names one (scalar, sse4.1, avx2, avx512, or
 * scalar-plain: the scalar path's build without BMI2, on a CPU where it
 * defaults to BMI2), and that path then takes every buffer, however short (the default only takes the
 * vector paths from UTF8GUARD_VECTOR_MIN_LENGTH bytes).  Linking
 * core_path.c into a program is enough: a constructor selects the path
 * before main().
 */
#ifndef UTF8GUARD_TESTS_CORE_PATH_H
#define UTF8GUARD_TESTS_CORE_PATH_H

/*
 * Select the path UTF8GUARD_CORE_PATH names, if set.  Exits with status 2
 * and a message if it names no path, or one this CPU cannot run.
 * Returns the name of the path selected ("default" when unset).
 */
const char *core_path_from_env(const char *program);

#endif /* UTF8GUARD_TESTS_CORE_PATH_H */
