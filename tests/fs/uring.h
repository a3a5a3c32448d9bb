/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uring.h - submit one io_uring request and wait for its result, with the
 * raw system calls (no liburing), for fs_op's io_uring operations.
 */
#ifndef UTF8GUARD_TESTS_URING_H
#define UTF8GUARD_TESTS_URING_H

#include <linux/io_uring.h>

/*
 * Runs @sqe (its user_data is set here) on a ring of its own.  Returns
 * the request's result (a negative errno, or its non-negative value), or
 * -errno of a failed io_uring_setup() / io_uring_enter() / mmap().
 */
int uring_run(const struct io_uring_sqe *sqe);

/*
 * Set: uring_run() registers the task's credentials as a personality,
 * then commits new ones (prctl(PR_SET_KEEPCAPS), same value), and the
 * request names that personality: the kernel runs it with its
 * credentials overridden (override_creds()) by the old ones.
 */
extern int uring_personality;

#endif /* UTF8GUARD_TESTS_URING_H */
