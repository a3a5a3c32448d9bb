/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard policy words: the mode, the check classes and their words,
 * how texts of them are parsed and formatted, and the one tokenizer of
 * the word lists users write (utf8guard_next_word()).
 *
 * Pure functions, compiled verbatim into the module and the CLI (like the
 * core), so that `utf8guardctl` parses exactly as the kernel.
 */
#ifndef UTF8GUARD_WORDS_H
#define UTF8GUARD_WORDS_H

#include "utf8guard_types.h"

enum utf8guard_mode {
	UTF8GUARD_MODE_OFF = 0,
	UTF8GUARD_MODE_AUDIT,
	UTF8GUARD_MODE_ENFORCE,
	UTF8GUARD_MODE_COUNT
};

/* Check classes; the bit numbers and words are ABI. */
enum utf8guard_class_bit {
	UTF8GUARD_CLASS_BIT_STRICT = 0,
	UTF8GUARD_CLASS_BIT_PATH_TRICKS,
	UTF8GUARD_CLASS_BIT_CONTROLS,
	UTF8GUARD_CLASS_BIT_BIDI,
	UTF8GUARD_CLASS_BIT_IGNORABLES,
	UTF8GUARD_CLASS_BIT_NONCHARACTERS,
	UTF8GUARD_CLASS_BIT_BOM,
	UTF8GUARD_CLASS_BIT_CONFUSABLE_PATH,
	UTF8GUARD_CLASS_BIT_NFC,
	UTF8GUARD_CLASS_BIT_COUNT
};

#define UTF8GUARD_CLASS_STRICT		(1U << UTF8GUARD_CLASS_BIT_STRICT)
#define UTF8GUARD_CLASS_PATH_TRICKS	(1U << UTF8GUARD_CLASS_BIT_PATH_TRICKS)
#define UTF8GUARD_CLASS_CONTROLS	(1U << UTF8GUARD_CLASS_BIT_CONTROLS)
#define UTF8GUARD_CLASS_BIDI		(1U << UTF8GUARD_CLASS_BIT_BIDI)
#define UTF8GUARD_CLASS_IGNORABLES	(1U << UTF8GUARD_CLASS_BIT_IGNORABLES)
#define UTF8GUARD_CLASS_NONCHARACTERS	\
	(1U << UTF8GUARD_CLASS_BIT_NONCHARACTERS)
#define UTF8GUARD_CLASS_BOM		(1U << UTF8GUARD_CLASS_BIT_BOM)
#define UTF8GUARD_CLASS_CONFUSABLE_PATH	\
	(1U << UTF8GUARD_CLASS_BIT_CONFUSABLE_PATH)
#define UTF8GUARD_CLASS_NFC		(1U << UTF8GUARD_CLASS_BIT_NFC)
#define UTF8GUARD_CLASSES_ALL		((1U << UTF8GUARD_CLASS_BIT_COUNT) - 1)
/* The classes that judge ill-formed sequences. */
#define UTF8GUARD_CLASSES_ILL_FORMED \
	(UTF8GUARD_CLASS_STRICT | UTF8GUARD_CLASS_PATH_TRICKS)
/* The normalize-reject classes, which judge well-formed characters. */
#define UTF8GUARD_CLASSES_CHARS \
	(UTF8GUARD_CLASSES_ALL & ~UTF8GUARD_CLASSES_ILL_FORMED)

/* Longest text utf8guard_format_policy() or _mode() writes, with NUL. */
#define UTF8GUARD_POLICY_TEXT_MAX	128

/*
 * utf8guard_next_word() flags.  Words are always separated by ' ', '\t'
 * and ','.
 */
/* '\n' separates words too (else it is part of a word). */
#define UTF8GUARD_WORDS_NEWLINE			(1U << 0)
/* One '\n' at the very end of the text is not part of it. */
#define UTF8GUARD_WORDS_TRAILING_NEWLINE	(1U << 1)

bool utf8guard_next_word(const char *text, size_t len, unsigned int flags,
			 size_t *pos, size_t *start, size_t *length);

/**
 * struct utf8guard_parse_error - why a mode or policy text was refused
 * @message: what was wrong, e.g. "unknown class"
 * @offset: where in the text the offending word starts
 * @length: its length (0 when the text as a whole is wrong)
 */
struct utf8guard_parse_error {
	const char *message;
	size_t offset;
	size_t length;
};

const char *utf8guard_mode_name(unsigned int mode);

bool utf8guard_parse_mode(const char *text, size_t len, u32 *mode,
			  struct utf8guard_parse_error *error);
bool utf8guard_parse_policy(const char *text, size_t len, u32 edit_base,
			    u32 *classes, struct utf8guard_parse_error *error);
bool utf8guard_parse_flag(const char *text, size_t len, bool *value,
			  struct utf8guard_parse_error *error);
bool utf8guard_parse_validator(const char *text, size_t len,
			       unsigned int *isa,
			       struct utf8guard_parse_error *error);
size_t utf8guard_format_validator(unsigned int selected, char *buf,
				  size_t size);

size_t utf8guard_format_mode(u32 mode, char *buf, size_t size);
size_t utf8guard_format_policy(u32 classes, char *buf, size_t size);

#endif /* UTF8GUARD_WORDS_H */
