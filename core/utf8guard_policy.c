// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard policy: what a set of check classes refuses.  Ill-formed
 * sequences (strict, path-tricks), well-formed characters (the
 * normalize-reject classes, utf8guard_chars.c) and, for a filename
 * component, the component rules.  The words of the policy are
 * utf8guard_words.c's.
 */
#include "utf8guard_chars.h"
#include "utf8guard_policy.h"

/**
 * utf8guard_classes_refuse() - does a set of classes refuse this error?
 * @classes: UTF8GUARD_CLASS_* bits
 * @report: an ill-formed sequence
 *
 * "strict" refuses every ill-formed sequence; "path-tricks" only those a
 * lenient decoder reads as ASCII.
 *
 * Return: true if @classes refuse @report.
 */
bool utf8guard_classes_refuse(u32 classes,
			      const struct utf8guard_report *report)
{
	if (classes & UTF8GUARD_CLASS_STRICT)
		return true;
	if ((classes & UTF8GUARD_CLASS_PATH_TRICKS) && report->path_trick)
		return true;
	return false;
}
UTF8GUARD_EXPORT(utf8guard_classes_refuse);

/**
 * utf8guard_stop_at_violation() - scan callback: stop at the first error a
 *	set of classes refuses
 * @report: the error the scan found
 * @arg: a struct utf8guard_violation_search; its @report gets the refused
 *	error and its @found is set
 *
 * For utf8guard_scan() and the streaming validator (utf8guard_stream_feed(),
 * utf8guard_stream_end()), which then stop.
 *
 * Return: false (stop) when @report is refused, true (go on) otherwise.
 */
bool utf8guard_stop_at_violation(const struct utf8guard_report *report,
				 void *arg)
{
	struct utf8guard_violation_search *search = arg;

	if (!utf8guard_classes_refuse(search->classes, report))
		return true;
	*search->report = *report;
	search->found = true;
	return false;
}
UTF8GUARD_EXPORT(utf8guard_stop_at_violation);

/* The first ill-formed sequence @classes refuse. */
static bool first_ill_formed(u32 classes, const u8 *buf, size_t len,
			     struct utf8guard_report *report)
{
	struct utf8guard_violation_search search = {
		.classes = classes,
		.report = report,
		.found = false,
	};

	if (!(classes & UTF8GUARD_CLASSES_ILL_FORMED))
		return false;
	if (classes & UTF8GUARD_CLASS_STRICT)
		return utf8guard_first_error(buf, len, report);
	utf8guard_scan(buf, len, utf8guard_stop_at_violation, &search);
	return search.found;
}

/**
 * utf8guard_first_violation() - the first thing a set of classes refuses
 *	in a text (a path, a symlink target)
 * @classes: UTF8GUARD_CLASS_* bits
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @report: filled with the refused sequence or character, if any
 *
 * Ill-formed sequences (strict, path-tricks) and refused characters (the
 * normalize-reject classes, utf8guard_scan_chars()) are both
 * looked for; the one that starts first is reported.
 *
 * Context: any context; does not sleep.
 * Return: true if @classes refuse something in @buf.
 */
bool utf8guard_first_violation(u32 classes, const u8 *buf, size_t len,
			       struct utf8guard_report *report)
{
	struct utf8guard_report character;
	size_t valid;
	bool found;

	found = first_ill_formed(classes, buf, len, report);
	if (!(classes & UTF8GUARD_CLASSES_CHARS))
		return found;
	/* Characters are only looked for before the ill-formed sequence. */
	if (found)
		len = report->offset;
	/* Under strict, what comes before the first error is well-formed. */
	valid = classes & UTF8GUARD_CLASS_STRICT ? len :
		utf8guard_valid_prefix(buf, len);
	if (utf8guard_scan_chars(classes, buf, len, valid, &character)) {
		*report = character;
		return true;
	}
	return found;
}
UTF8GUARD_EXPORT(utf8guard_first_violation);

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/* Whether the 8 bytes at @p hold a '/' or a NUL (the classic SWAR test). */
static bool has_slash_or_nul(const u8 *p)
{
	u64 word, slash;

	__builtin_memcpy(&word, p, sizeof(word));
	slash = word ^ (ONES * '/');
	return (((word - ONES) & ~word) | ((slash - ONES) & ~slash)) & HIGHS;
}

static bool refuse_name(struct utf8guard_report *report, u8 reason,
			size_t offset, size_t length, u32 codepoint)
{
	report->offset = offset;
	report->length = length;
	report->codepoint = codepoint;
	report->reason = reason;
	report->shadow_length = 0;
	report->path_trick = false;
	return true;
}

/**
 * utf8guard_name_violation() - the first thing a filename component breaks
 * @classes: UTF8GUARD_CLASS_* bits
 * @name: the component's bytes
 * @len: their number
 * @report: filled with what is refused, if anything
 *
 * First the component rules, whatever @classes say: a name is not empty
 * (empty-name), not "." or ".." (dot-name), has no '/' (slash) and no NUL
 * byte (nul) in its first UTF8GUARD_NAME_MAX bytes, and is at most
 * UTF8GUARD_NAME_MAX bytes long (name-too-long, reported at byte 255).
 * Then utf8guard_first_violation() under @classes.
 *
 * Context: any context; does not sleep.
 * Return: true if @name is refused.
 */
bool utf8guard_name_violation(u32 classes, const u8 *name, size_t len,
			      struct utf8guard_report *report)
{
	size_t k, limit;

	if (!len)
		return refuse_name(report, UTF8GUARD_REASON_EMPTY_NAME, 0, 0, 0);
	if (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.')))
		return refuse_name(report, UTF8GUARD_REASON_DOT_NAME, 0, len,
				   0);
	limit = len < UTF8GUARD_NAME_MAX ? len : UTF8GUARD_NAME_MAX;
	/* Eight bytes at a time up to the word that holds one... */
	for (k = 0; k + 8 <= limit; k += 8)
		if (has_slash_or_nul(name + k))
			break;
	/* ...or to the end, its last word overlapping the one before... */
	if (k >= 8 && k < limit && k + 8 > limit &&
	    !has_slash_or_nul(name + limit - 8))
		k = limit;
	/* ...then byte by byte. */
	for (; k < limit; k++) {
		if (name[k] == '/')
			return refuse_name(report, UTF8GUARD_REASON_SLASH, k, 1,
					   '/');
		if (!name[k])
			return refuse_name(report, UTF8GUARD_REASON_NUL, k, 1, 0);
	}
	if (len > UTF8GUARD_NAME_MAX)
		return refuse_name(report, UTF8GUARD_REASON_NAME_TOO_LONG,
				   UTF8GUARD_NAME_MAX, len - UTF8GUARD_NAME_MAX,
				   0);
	return utf8guard_first_violation(classes, name, len, report);
}
UTF8GUARD_EXPORT(utf8guard_name_violation);
