/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reference validator for the core tests, written straight from the
 * RFC 3629 ABNF and the RFC 2279 lenient form, with a different algorithm
 * from core/utf8guard_errors.c: the ABNF alternatives are a table of byte
 * ranges matched one by one, the maximal subpart is the longest partial
 * match over all alternatives, and the lenient reading counts leading one
 * bits.  It does not include or call the core.
 */
#ifndef UTF8GUARD_TESTS_REFERENCE_H
#define UTF8GUARD_TESTS_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Same numbers as the core's stable ABI vocabulary (enum utf8guard_reason). */
enum ref_reason {
	REF_NONE = 0,
	REF_TRUNCATED = 1,
	REF_UNEXPECTED_CONTINUATION = 2,
	REF_INVALID_BYTE = 3,
	REF_OVERLONG = 4,
	REF_SURROGATE = 5,
	REF_OUT_OF_RANGE = 6,
};

struct ref_report {
	uint64_t offset;
	uint32_t length;
	uint32_t codepoint;
	uint8_t reason;
	uint8_t shadow_length;
	bool path_trick;
};

/* Length of the UTF8-char at @buf, 0 if none matches; @len > 0. */
size_t ref_char_length(const uint8_t *buf, size_t len);

/*
 * Whether @buf is empty or the first @len bytes of a longer UTF8-char: some
 * bytes can still follow to make it well-formed.
 */
bool ref_char_start(const uint8_t *buf, size_t len);

/*
 * Describe the ill-formed sequence at buf[0] (no UTF8-char matches there);
 * @len > 0 is what is left of the buffer.
 */
void ref_describe(const uint8_t *buf, size_t len, struct ref_report *report);

/* First ill-formed sequence from @start on; false if there is none. */
bool ref_next_error(const uint8_t *buf, size_t len, size_t start,
		    struct ref_report *report);

/* First ill-formed sequence of @buf; false if @buf is UTF8-octets. */
bool ref_first_error(const uint8_t *buf, size_t len,
		     struct ref_report *report);

/*
 * Every ill-formed sequence, resuming after each maximal subpart.  Stores
 * up to @max of them in @reports and returns how many there are.
 */
size_t ref_all_errors(const uint8_t *buf, size_t len,
		      struct ref_report *reports, size_t max);

#endif /* UTF8GUARD_TESTS_REFERENCE_H */
