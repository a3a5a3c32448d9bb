/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Collect the error reports the core hands to its callback, from
 * utf8guard_scan() or from the streaming validator fed in chunks.
 */
#ifndef UTF8GUARD_TESTS_REPORT_LIST_H
#define UTF8GUARD_TESTS_REPORT_LIST_H

#include "utf8guard_core.h"

/*
 * @count counts every report, even past @capacity; only the first
 * @capacity are stored.
 */
struct report_list {
	struct utf8guard_report *items;
	size_t capacity;
	size_t count;
};

void report_list_init(struct report_list *list,
		      struct utf8guard_report *items, size_t capacity);

/* utf8guard_error_fn that appends to the struct report_list at @arg. */
bool report_list_append(const struct utf8guard_report *report, void *arg);

/* utf8guard_scan() of @buf into @list; returns what the scan returned. */
u64 collect_scan(const u8 *buf, size_t len, struct report_list *list);

/*
 * Feed @buf to a new @stream in chunks cut at @cuts (ascending offsets in
 * 0..@len, repeats give empty chunks), then end it; reports go to @list.
 */
void collect_stream(const u8 *buf, size_t len, const size_t *cuts,
		    size_t cut_count, struct utf8guard_stream *stream,
		    struct report_list *list);

#endif /* UTF8GUARD_TESTS_REPORT_LIST_H */
