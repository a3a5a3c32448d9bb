/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard validator core: strict RFC 3629 UTF-8 validation with
 * precise error reports.
 *
 * This file and the core's sources (utf8guard_scalar.c: the fast path;
 * utf8guard_errors.c: error reports; utf8guard_stream.c: streams;
 * utf8guard_decode.c: the decoder and the reasons' words) are compiled
 * verbatim into the kernel module and into the userspace CLI, so that what the CLI predicts is
 * exactly what the kernel enforces.  Freestanding C: no libc, no kernel
 * header beyond utf8guard_types.h.
 *
 * Report semantics (see Documentation/core.rst for the full rules):
 *
 * @offset   byte offset where the first ill-formed sequence starts.
 * @length   length of its maximal subpart (Unicode ch. 3, "U+FFFD
 *           Substitution of Maximal Subparts"), 1 to 3.
 * @reason   why it is ill-formed, one of enum utf8guard_reason.
 * @codepoint, @shadow_length
 *           what a lenient RFC 2279 decoder (1-6 byte forms, up to
 *           U+7FFFFFFF) reads starting at @offset, when the bytes there
 *           form a complete lenient sequence; @shadow_length is 0 when
 *           there is no such reading.
 * @path_trick
 *           the lenient reading is ASCII (an overlong '/', '.', '\',
 *           NUL, ...): the classic "/../" traversal trick.
 */
#ifndef UTF8GUARD_CORE_H
#define UTF8GUARD_CORE_H

#include "utf8guard_types.h"

/* Longest form a lenient RFC 2279 decoder reads (6 bytes). */
#define UTF8GUARD_MAX_SHADOW_LENGTH 6

/*
 * Stable reason vocabulary.  The numeric values and the words returned by
 * utf8guard_reason_name() are ABI (sysfs counters, JSON, logs); new
 * reasons are only ever appended.
 *
 * The core reports the first six (ill-formed sequences).  The policy
 * (utf8guard_policy.c) reports the others: a well-formed character that a
 * normalize-reject class refuses, or a filename component rule.
 */
enum utf8guard_reason {
	UTF8GUARD_REASON_NONE = 0,
	UTF8GUARD_REASON_TRUNCATED,
	UTF8GUARD_REASON_UNEXPECTED_CONTINUATION,
	UTF8GUARD_REASON_INVALID_BYTE,
	UTF8GUARD_REASON_OVERLONG,
	UTF8GUARD_REASON_SURROGATE,
	UTF8GUARD_REASON_OUT_OF_RANGE,
	/* A well-formed character refused by a class. */
	UTF8GUARD_REASON_CONTROL,
	UTF8GUARD_REASON_BIDI,
	UTF8GUARD_REASON_IGNORABLE,
	UTF8GUARD_REASON_NONCHARACTER,
	UTF8GUARD_REASON_BOM,
	UTF8GUARD_REASON_CONFUSABLE_PATH,
	UTF8GUARD_REASON_NOT_NFC,
	/* Filename component rules (utf8guard_name_violation()). */
	UTF8GUARD_REASON_EMPTY_NAME,
	UTF8GUARD_REASON_DOT_NAME,
	UTF8GUARD_REASON_SLASH,
	UTF8GUARD_REASON_NUL,
	UTF8GUARD_REASON_NAME_TOO_LONG,
	UTF8GUARD_REASON_COUNT
};

/* The last reason utf8guard_next_error() and friends report. */
#define UTF8GUARD_REASON_LAST_ILL_FORMED UTF8GUARD_REASON_OUT_OF_RANGE

/**
 * struct utf8guard_report - where and why a byte string is ill-formed
 * @offset: byte offset of the ill-formed sequence (from the start of the
 *	buffer, or of the whole stream for the streaming validator)
 * @length: length of the maximal subpart, 1 to 3 (for a reason the policy
 *	reports: the bytes of the refused character, or of the name rule's
 *	span)
 * @codepoint: lenient RFC 2279 reading at @offset, valid when
 *	@shadow_length is not 0
 * @reason: an enum utf8guard_reason value
 * @shadow_length: bytes of the lenient reading, 0 when there is none
 * @path_trick: the lenient reading is an ASCII character
 */
struct utf8guard_report {
	u64 offset;
	u32 length;
	u32 codepoint;
	u8 reason;
	u8 shadow_length;
	bool path_trick;
};

/* Result of one utf8guard_next_error() step. */
enum utf8guard_step {
	UTF8GUARD_STEP_CLEAN,		/* no ill-formed sequence up to the end */
	UTF8GUARD_STEP_ERROR,		/* *report filled */
	UTF8GUARD_STEP_NEED_MORE,	/* undecided sequence at the end */
};

/*
 * Called for each ill-formed sequence found; return true to go on,
 * false to stop the scan.
 */
typedef bool (*utf8guard_error_fn)(const struct utf8guard_report *report,
				   void *arg);

/**
 * struct utf8guard_stream - validator state carried across chunks
 * @consumed: stream offset of @carry[0] (bytes fully decided so far)
 * @errors: ill-formed sequences found so far
 * @first: report of the first one, valid when @errors is not 0
 * @stopped: a callback asked to stop; later feeds do nothing
 * @carry_length: bytes held in @carry
 * @carry: start of a sequence not yet decided by the bytes seen so far
 *
 * Initialise with utf8guard_stream_init().  The reports a stream produces
 * are identical to those of utf8guard_scan() on the concatenated chunks,
 * whatever the chunk boundaries.
 */
struct utf8guard_stream {
	u64 consumed;
	u64 errors;
	struct utf8guard_report first;
	bool stopped;
	u8 carry_length;
	u8 carry[UTF8GUARD_MAX_SHADOW_LENGTH - 1];
};

enum utf8guard_step utf8guard_next_error(const u8 *buf, size_t len,
					 size_t *pos, bool at_end,
					 struct utf8guard_report *report);
bool utf8guard_first_error(const u8 *buf, size_t len,
			   struct utf8guard_report *report);
u64 utf8guard_scan(const u8 *buf, size_t len, utf8guard_error_fn fn,
		   void *arg);

void utf8guard_stream_init(struct utf8guard_stream *stream);
void utf8guard_stream_feed(struct utf8guard_stream *stream, const u8 *buf,
			   size_t len, utf8guard_error_fn fn, void *arg);
void utf8guard_stream_end(struct utf8guard_stream *stream,
			  utf8guard_error_fn fn, void *arg);
bool utf8guard_stream_may_complete(const struct utf8guard_stream *stream);

bool utf8guard_vector_hold(void);
void utf8guard_vector_release(void);

size_t utf8guard_valid_prefix(const u8 *buf, size_t len);
unsigned int utf8guard_decode(const u8 *buf, size_t len, u32 *codepoint);

const char *utf8guard_reason_name(unsigned int reason);
int utf8guard_reason_from_name(const char *word, size_t len);

/*
 * Start of the last character of @buf[0..@end) (@end > 0), when that much
 * is well-formed but for a sequence the end may cut: its lead byte, at
 * most three back.  The scalar and vector paths resume from there.
 */
static inline size_t utf8guard_last_char_start(const u8 *buf, size_t end)
{
	while ((buf[end - 1] & 0xC0) == 0x80)
		end--;
	return end - 1;
}

#endif /* UTF8GUARD_CORE_H */
