// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard policy words: the tokenizer of word lists, and the parsing
 * and formatting of the mode, policy, flag and validator words.
 *
 * Grammar (sysfs files and module parameters alike; surrounding blanks and
 * one trailing newline are ignored, words are separated by blanks or
 * commas):
 *
 *	mode       = "off" | "audit" | "enforce"
 *	policy     = "none" | class-list | edit-list
 *	class-list = one or more class names
 *	edit-list  = one or more edits
 *	edit       = ("+" | "-") followed by a class name
 *	class name = "strict" | "path-tricks" | "controls" | "bidi" |
 *		     "ignorables" | "noncharacters" | "bom" |
 *		     "confusable-path" | "nfc"
 *
 * Anything else (an empty text, a NUL byte, an unknown word, a class list
 * mixed with edits, a lone "+") is refused with a parse error.
 */
#include "utf8guard_vector.h"
#include "utf8guard_words.h"

static const char *const mode_names[UTF8GUARD_MODE_COUNT] = {
	[UTF8GUARD_MODE_OFF] = "off",
	[UTF8GUARD_MODE_AUDIT] = "audit",
	[UTF8GUARD_MODE_ENFORCE] = "enforce",
};

static const char *const class_names[UTF8GUARD_CLASS_BIT_COUNT] = {
	[UTF8GUARD_CLASS_BIT_STRICT] = "strict",
	[UTF8GUARD_CLASS_BIT_PATH_TRICKS] = "path-tricks",
	[UTF8GUARD_CLASS_BIT_CONTROLS] = "controls",
	[UTF8GUARD_CLASS_BIT_BIDI] = "bidi",
	[UTF8GUARD_CLASS_BIT_IGNORABLES] = "ignorables",
	[UTF8GUARD_CLASS_BIT_NONCHARACTERS] = "noncharacters",
	[UTF8GUARD_CLASS_BIT_BOM] = "bom",
	[UTF8GUARD_CLASS_BIT_CONFUSABLE_PATH] = "confusable-path",
	[UTF8GUARD_CLASS_BIT_NFC] = "nfc",
};

/**
 * utf8guard_mode_name() - the word for a mode
 * @mode: an enum utf8guard_mode value
 *
 * Return: "off", "audit", "enforce", or "unknown".
 */
const char *utf8guard_mode_name(unsigned int mode)
{
	return mode < UTF8GUARD_MODE_COUNT ? mode_names[mode] : "unknown";
}
UTF8GUARD_EXPORT(utf8guard_mode_name);

/* Is @c between words, in a text utf8guard_next_word() reads with @flags. */
static bool is_separator(char c, unsigned int flags)
{
	return c == ' ' || c == '\t' || c == ',' ||
	       (c == '\n' && (flags & UTF8GUARD_WORDS_NEWLINE));
}

/**
 * utf8guard_next_word() - the next word of a word list
 * @text: the text, not necessarily NUL-terminated
 * @len: its length
 * @flags: UTF8GUARD_WORDS_* bits: whether '\n' separates words, whether
 *	one '\n' ending @text is not part of it
 * @pos: in: where to look from (0 for the first word); out: just after
 *	the word found
 * @start: set to the offset of the word in @text
 * @length: set to its length (at least 1)
 *
 * The one tokenizer of the word lists users write (the policy words of
 * this file, the filesystem types and ports of the hooks): words are
 * runs of bytes other than separators, and separators are ' ', '\t',
 * ',' and, with %UTF8GUARD_WORDS_NEWLINE, '\n'.  Any other byte, NUL
 * included, is part of a word; it is the caller's to refuse.  With
 * %UTF8GUARD_WORDS_TRAILING_NEWLINE, one '\n' at the very end of @text
 * (as echo writes) is not part of it; a '\n' elsewhere is then a word
 * byte unless %UTF8GUARD_WORDS_NEWLINE is set too.
 *
 * Context: any context.
 * Return: true if there was a word at or after *@pos (*@start, *@length
 * and *@pos set); false at the end (nothing set).
 */
bool utf8guard_next_word(const char *text, size_t len, unsigned int flags,
			 size_t *pos, size_t *start, size_t *length)
{
	size_t k = *pos;

	if ((flags & UTF8GUARD_WORDS_TRAILING_NEWLINE) && len &&
	    text[len - 1] == '\n')
		len--;
	while (k < len && is_separator(text[k], flags))
		k++;
	if (k >= len)
		return false;
	*start = k;
	while (k < len && !is_separator(text[k], flags))
		k++;
	*length = k - *start;
	*pos = k;
	return true;
}
UTF8GUARD_EXPORT(utf8guard_next_word);

static bool word_is(const char *word, size_t len, const char *name)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (!name[k] || name[k] != word[k])
			return false;
	return !name[len];
}

static bool refuse(struct utf8guard_parse_error *error, const char *message,
		   size_t offset, size_t length)
{
	error->message = message;
	error->offset = offset;
	error->length = length;
	return false;
}

/* Next word of a policy text at or after *@pos; false at the end. */
static bool next_word(const char *text, size_t len, size_t *pos,
		      size_t *start, size_t *length)
{
	return utf8guard_next_word(text, len, UTF8GUARD_WORDS_NEWLINE, pos,
				   start, length);
}

/* Refuse NUL bytes and texts with no word at all. */
static bool check_text(const char *text, size_t len,
		       struct utf8guard_parse_error *error)
{
	size_t k, pos = 0, start, length;

	for (k = 0; k < len; k++)
		if (text[k] == '\0')
			return refuse(error, "contains a NUL byte", k, 1);
	if (!next_word(text, len, &pos, &start, &length))
		return refuse(error, "is empty", 0, 0);
	return true;
}

/* The one word of @text; refuses an empty text or a second word. */
static bool only_word(const char *text, size_t len, size_t *start,
		      size_t *length, struct utf8guard_parse_error *error)
{
	size_t pos = 0, extra_start, extra_length;

	if (!check_text(text, len, error))
		return false;
	next_word(text, len, &pos, start, length);
	if (next_word(text, len, &pos, &extra_start, &extra_length))
		return refuse(error, "takes one word", extra_start,
			      extra_length);
	return true;
}

/**
 * utf8guard_parse_mode() - parse a mode word
 * @text: the text, not necessarily NUL-terminated
 * @len: its length
 * @mode: set to the enum utf8guard_mode value on success
 * @error: set on failure
 *
 * Return: true on success; on failure *@mode is untouched.
 */
bool utf8guard_parse_mode(const char *text, size_t len, u32 *mode,
			  struct utf8guard_parse_error *error)
{
	size_t start, length;
	unsigned int m;

	if (!only_word(text, len, &start, &length, error))
		return false;
	for (m = 0; m < UTF8GUARD_MODE_COUNT; m++) {
		if (word_is(text + start, length, mode_names[m])) {
			*mode = m;
			return true;
		}
	}
	return refuse(error, "unknown mode (off, audit, enforce)", start,
		      length);
}
UTF8GUARD_EXPORT(utf8guard_parse_mode);

static int class_bit(const char *word, size_t len)
{
	unsigned int bit;

	for (bit = 0; bit < UTF8GUARD_CLASS_BIT_COUNT; bit++)
		if (word_is(word, len, class_names[bit]))
			return bit;
	return -1;
}

/**
 * utf8guard_parse_policy() - parse a class list or +/- edits
 * @text: the text, not necessarily NUL-terminated
 * @len: its length
 * @edit_base: the classes the edits apply to
 * @classes: set to the resulting classes on success
 * @error: set on failure
 *
 * Return: true on success; on failure *@classes is untouched.
 */
bool utf8guard_parse_policy(const char *text, size_t len, u32 edit_base,
			    u32 *classes, struct utf8guard_parse_error *error)
{
	size_t pos = 0, start, length;
	bool edits = false, list = false, none = false;
	u32 result = 0;
	int bit;

	if (!check_text(text, len, error))
		return false;
	while (next_word(text, len, &pos, &start, &length)) {
		const char *word = text + start;
		bool is_edit = word[0] == '+' || word[0] == '-';

		if (is_edit ? list : edits)
			return refuse(error,
				      "mixes a class list with +/- edits",
				      start, length);
		if (is_edit) {
			if (!edits)
				result = edit_base;
			edits = true;
			bit = class_bit(word + 1, length - 1);
			if (bit < 0)
				return refuse(error, "unknown class", start,
					      length);
			if (word[0] == '+')
				result |= 1U << bit;
			else
				result &= ~(1U << bit);
			continue;
		}
		if (word_is(word, length, "none")) {
			if (list)
				return refuse(error,
					      "\"none\" must stand alone",
					      start, length);
			none = true;
			list = true;
			continue;
		}
		if (none)
			return refuse(error, "\"none\" must stand alone", start,
				      length);
		list = true;
		bit = class_bit(word, length);
		if (bit < 0)
			return refuse(error, "unknown class", start, length);
		result |= 1U << bit;
	}
	*classes = result;
	return true;
}
UTF8GUARD_EXPORT(utf8guard_parse_policy);

/**
 * utf8guard_parse_flag() - parse "0" or "1"
 * @text: the text, not necessarily NUL-terminated
 * @len: its length
 * @value: set on success
 * @error: set on failure
 *
 * Stricter than kstrtobool(): exactly one word, "0" or "1".
 *
 * Return: true on success; on failure *@value is untouched.
 */
bool utf8guard_parse_flag(const char *text, size_t len, bool *value,
			  struct utf8guard_parse_error *error)
{
	size_t start, length;

	if (!only_word(text, len, &start, &length, error))
		return false;
	if (length != 1 || (text[start] != '0' && text[start] != '1'))
		return refuse(error, "must be 0 or 1", start, length);
	*value = text[start] == '1';
	return true;
}
UTF8GUARD_EXPORT(utf8guard_parse_flag);

/* Append @word to @buf at *@at, keeping room for the NUL. */
static void append(char *buf, size_t size, size_t *at, const char *word)
{
	while (*word) {
		if (*at + 1 < size)
			buf[*at] = *word;
		(*at)++;
		word++;
	}
	if (size)
		buf[*at < size ? *at : size - 1] = '\0';
}

/* Append one word of a choice list, " " before all but the first. */
static void append_choice(char *buf, size_t size, size_t *at,
			  const char *word, bool chosen)
{
	if (*at)
		append(buf, size, at, " ");
	append(buf, size, at, chosen ? "[" : "");
	append(buf, size, at, word);
	append(buf, size, at, chosen ? "]" : "");
}

/**
 * utf8guard_format_mode() - write the modes with the current one bracketed
 * @mode: the current mode
 * @buf: where to write, NUL-terminated ("off audit [enforce]")
 * @size: size of @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t utf8guard_format_mode(u32 mode, char *buf, size_t size)
{
	size_t at = 0;
	unsigned int m;

	append(buf, size, &at, "");
	for (m = 0; m < UTF8GUARD_MODE_COUNT; m++)
		append_choice(buf, size, &at, mode_names[m], m == mode);
	return at;
}
UTF8GUARD_EXPORT(utf8guard_format_mode);

/**
 * utf8guard_parse_validator() - parse the name of a validator path
 * @text: the text, not necessarily NUL-terminated
 * @len: its length
 * @isa: set to an enum utf8guard_vector_isa value, or
 *	UTF8GUARD_VECTOR_AUTO for "auto" (the best one available)
 * @error: set on failure
 *
 * Knows every path's name; whether the CPU runs it is the caller's
 * question (utf8guard_vector_available()).
 *
 * Return: true on success; on failure *@isa is untouched.
 */
bool utf8guard_parse_validator(const char *text, size_t len,
			       unsigned int *isa,
			       struct utf8guard_parse_error *error)
{
	size_t start, length;
	unsigned int i;

	if (!only_word(text, len, &start, &length, error))
		return false;
	if (word_is(text + start, length, "auto")) {
		*isa = UTF8GUARD_VECTOR_AUTO;
		return true;
	}
	for (i = 0; i < UTF8GUARD_VECTOR_ISA_COUNT; i++) {
		if (word_is(text + start, length,
			    utf8guard_vector_isa_name(i))) {
			*isa = i;
			return true;
		}
	}
	return refuse(error, "unknown validator (auto, scalar, sse4.1, avx2, avx512)",
		      start, length);
}

/**
 * utf8guard_format_validator() - write the paths this CPU can run
 * @selected: the enum utf8guard_vector_isa value to show in brackets
 * @buf: where to write, NUL-terminated, e.g. "scalar sse4.1 [avx2]"
 * @size: size of @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t utf8guard_format_validator(unsigned int selected, char *buf,
				  size_t size)
{
	size_t at = 0;
	unsigned int i;

	append(buf, size, &at, "");
	for (i = 0; i < UTF8GUARD_VECTOR_ISA_COUNT; i++)
		if (utf8guard_vector_available(i))
			append_choice(buf, size, &at,
				      utf8guard_vector_isa_name(i),
				      i == selected);
	return at;
}

/**
 * utf8guard_format_policy() - write the enabled classes
 * @classes: UTF8GUARD_CLASS_* bits
 * @buf: where to write, NUL-terminated ("strict path-tricks", or "none")
 * @size: size of @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t utf8guard_format_policy(u32 classes, char *buf, size_t size)
{
	size_t at = 0;
	unsigned int bit;

	append(buf, size, &at, "");
	for (bit = 0; bit < UTF8GUARD_CLASS_BIT_COUNT; bit++) {
		if (!(classes & (1U << bit)))
			continue;
		append(buf, size, &at, at ? " " : "");
		append(buf, size, &at, class_names[bit]);
	}
	if (!at)
		append(buf, size, &at, "none");
	return at;
}
UTF8GUARD_EXPORT(utf8guard_format_policy);
