// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard character classes: the well-formed characters a policy
 * refuses (controls, bidi, ignorables, noncharacters, bom,
 * confusable-path) and text that is not already in NFC.
 *
 * One pass over the characters, decoded by the core's utf8guard_decode().
 * Ill-formed bytes are skipped here (the strict and path-tricks classes
 * judge them) and end the current NFC segment.
 */
#include "utf8guard_chars.h"
#include "utf8guard_nfc.h"
#include "utf8guard_policy.h"
#include "utf8guard_unicode.h"

/* The classes judged here, and the props flag each one refuses. */
static const struct {
	u32 class;
	unsigned int flag;
	u8 reason;
} flag_classes[] = {
	/* Most specific first: U+FEFF is a BOM before it is ignorable. */
	{ UTF8GUARD_CLASS_CONTROLS, UTF8GUARD_CHAR_CONTROL,
	  UTF8GUARD_REASON_CONTROL },
	{ UTF8GUARD_CLASS_BIDI, UTF8GUARD_CHAR_BIDI, UTF8GUARD_REASON_BIDI },
	{ UTF8GUARD_CLASS_BOM, UTF8GUARD_CHAR_BOM, UTF8GUARD_REASON_BOM },
	{ UTF8GUARD_CLASS_CONFUSABLE_PATH, UTF8GUARD_CHAR_CONFUSABLE_PATH,
	  UTF8GUARD_REASON_CONFUSABLE_PATH },
	{ UTF8GUARD_CLASS_IGNORABLES, UTF8GUARD_CHAR_IGNORABLE,
	  UTF8GUARD_REASON_IGNORABLE },
	{ 0 }
};

/* Why @classes refuse a character with @props and value @cp, or 0. */
static u8 refused_reason(u32 classes, u32 cp, unsigned int props)
{
	size_t k;

	for (k = 0; flag_classes[k].class; k++)
		if ((props & flag_classes[k].flag) &&
		    (classes & flag_classes[k].class))
			return flag_classes[k].reason;
	if ((classes & UTF8GUARD_CLASS_NONCHARACTERS) &&
	    utf8guard_is_noncharacter(cp))
		return UTF8GUARD_REASON_NONCHARACTER;
	return UTF8GUARD_REASON_NONE;
}

static bool refuse_char(struct utf8guard_report *report, size_t offset,
			unsigned int length, u32 cp, u8 reason)
{
	report->offset = offset;
	report->length = length;
	report->codepoint = cp;
	report->reason = reason;
	report->shadow_length = length;
	report->path_trick = false;
	return true;
}

/**
 * utf8guard_scan_chars() - the first well-formed character a set of
 *	classes refuses
 * @classes: UTF8GUARD_CLASS_* bits; only the character classes
 *	(UTF8GUARD_CLASSES_CHARS) count here
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @valid: bytes at the start of @buf known to be well-formed
 *	(utf8guard_valid_prefix()); runs of plain characters are only
 *	skipped there
 * @report: filled with the refused character, if any: its offset, its
 *	length, its value in @codepoint (and @shadow_length, the same
 *	length), and the reason
 *
 * For utf8guard_first_violation(), which knows @valid from its own
 * ill-formed search.  A character refused by several classes gets the
 * reason of the most specific one: control, bidi, bom, confusable-path,
 * ignorable, noncharacter.  Under "nfc" the text must already be in
 * Normalization Form C; the character reported is the last of the
 * shortest prefix that is not (the mark that should have composed, the
 * one out of canonical order, or a character NFC never contains).
 * Ill-formed bytes are skipped and end the NFC segment.
 *
 * Context: any context; does not sleep.
 * Return: true if @classes refuse a character of @buf.
 */
bool utf8guard_scan_chars(u32 classes, const u8 *buf, size_t len,
			  size_t valid, struct utf8guard_report *report)
{
	bool nfc = classes & UTF8GUARD_CLASS_NFC;
	size_t pos = 0, segment = 0, last;
	unsigned int last_ccc = 0;

	while (pos < len) {
		unsigned int props, ccc, step;
		u32 cp;
		u8 reason;

		if (pos < valid) {
			step = utf8guard_plain_run(buf + pos, valid - pos,
						   &last);
			if (step) {
				segment = pos + last;
				last_ccc = 0;
				pos += step;
				continue;
			}
		}
		step = utf8guard_decode(buf + pos, len - pos, &cp);
		if (!step) {
			pos++;
			segment = pos;
			last_ccc = 0;
			continue;
		}
		props = utf8guard_char_props(cp);
		reason = refused_reason(classes, cp, props);
		if (reason)
			return refuse_char(report, pos, step, cp, reason);
		if (nfc) {
			unsigned int qc = props & UTF8GUARD_CHAR_NFC_QC;

			ccc = props & UTF8GUARD_CHAR_COMBINING ?
			      utf8guard_char_ccc(cp) : 0;
			if (qc == UTF8GUARD_CHAR_NFC_NO ||
			    (ccc && last_ccc > ccc) ||
			    (qc == UTF8GUARD_CHAR_NFC_MAYBE &&
			     !utf8guard_nfc_segment_stable(buf + segment,
							   pos + step -
							   segment)))
				return refuse_char(report, pos, step, cp,
						   UTF8GUARD_REASON_NOT_NFC);
			if (!ccc)
				segment = pos;
			last_ccc = ccc;
		}
		pos += step;
	}
	return false;
}
