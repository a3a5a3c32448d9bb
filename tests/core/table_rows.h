/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Hand-written expectations for table_test.c.  Every expected value is
 * spelled out in table_rows.c; none is computed.
 */
#ifndef UTF8GUARD_TESTS_TABLE_ROWS_H
#define UTF8GUARD_TESTS_TABLE_ROWS_H

#include "utf8guard_core.h"

#define TABLE_MAX_BYTES 16
#define TABLE_MAX_ERRORS 16

/* An input and its first error (@valid: it has none). */
struct first_error_row {
	const char *bytes;
	bool valid;
	struct utf8guard_report first;
};

/* An input and every error utf8guard_scan() must list. */
struct error_list_row {
	const char *bytes;
	size_t count;
	struct utf8guard_report errors[TABLE_MAX_ERRORS];
};

/* utf8guard_next_error() with at_end false, from @start. */
struct pending_row {
	const char *bytes;
	size_t start;
	enum utf8guard_step step;
	size_t pos;
};

extern const struct first_error_row first_error_rows[];
extern const size_t first_error_row_count;
extern const struct error_list_row error_list_rows[];
extern const size_t error_list_row_count;
extern const struct pending_row pending_rows[];
extern const size_t pending_row_count;

#endif /* UTF8GUARD_TESTS_TABLE_ROWS_H */
