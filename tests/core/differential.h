/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Differential check of the core against the reference validator, and of
 * the streaming validator against utf8guard_scan(), on one input.
 */
#ifndef UTF8GUARD_TESTS_DIFFERENTIAL_H
#define UTF8GUARD_TESTS_DIFFERENTIAL_H

#include <stdio.h>

#include "reference.h"
#include "report_compare.h"
#include "utf8guard_core.h"

/* What differential_check() compares; or them together. */
enum differential_checks {
	/* utf8guard_first_error() and next_error() vs ref_first_error() */
	CHECK_FIRST = 1 << 0,
	/* the utf8guard_scan() list vs ref_all_errors() */
	CHECK_ALL = 1 << 1,
	/* a stream fed in chunks vs utf8guard_scan() */
	CHECK_STREAM = 1 << 2,
	/* report_invariant_violation() on every report */
	CHECK_INVARIANTS = 1 << 3,
	/*
	 * utf8guard_stream_may_complete() after all of it is fed (not
	 * ended) vs ref_char_start() on the bytes the stream holds
	 */
	CHECK_MAY_COMPLETE = 1 << 4,
};

/* Room for the reports of inputs up to @capacity bytes. */
struct differential_scratch {
	size_t capacity;
	struct utf8guard_report *scan;
	struct utf8guard_report *stream;
	struct ref_report *ref;
};

int differential_scratch_init(struct differential_scratch *scratch,
			      size_t capacity);
void differential_scratch_free(struct differential_scratch *scratch);

/*
 * Run @checks on @buf (@len <= @scratch->capacity); the stream is cut at
 * @cuts (see collect_stream()).  Returns true if all agree; otherwise,
 * when @log is not NULL, prints the input and the disagreement to it.
 */
bool differential_check(const u8 *buf, size_t len, const size_t *cuts,
			size_t cut_count, unsigned int checks,
			struct differential_scratch *scratch, FILE *log);

#endif /* UTF8GUARD_TESTS_DIFFERENTIAL_H */
