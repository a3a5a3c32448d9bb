// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Collect core error reports; see report_list.h.
 */
#include "report_list.h"

void report_list_init(struct report_list *list,
		      struct utf8guard_report *items, size_t capacity)
{
	list->items = items;
	list->capacity = capacity;
	list->count = 0;
}

bool report_list_append(const struct utf8guard_report *report, void *arg)
{
	struct report_list *list = arg;

	if (list->count < list->capacity)
		list->items[list->count] = *report;
	list->count++;
	return true;
}

u64 collect_scan(const u8 *buf, size_t len, struct report_list *list)
{
	return utf8guard_scan(buf, len, report_list_append, list);
}

void collect_stream(const u8 *buf, size_t len, const size_t *cuts,
		    size_t cut_count, struct utf8guard_stream *stream,
		    struct report_list *list)
{
	size_t start = 0;
	size_t k;

	utf8guard_stream_init(stream);
	for (k = 0; k < cut_count; k++) {
		utf8guard_stream_feed(stream, buf + start, cuts[k] - start,
				      report_list_append, list);
		start = cuts[k];
	}
	utf8guard_stream_feed(stream, buf + start, len - start,
			      report_list_append, list);
	utf8guard_stream_end(stream, report_list_append, list);
}
