// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard validator core: the decoder and the reasons' words.
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl; see
 * utf8guard_core.h for the reasons and their stable words.
 */
#include "utf8guard_core.h"
#include "utf8guard_dfa.h"

static const char *const reason_names[UTF8GUARD_REASON_COUNT] = {
	[UTF8GUARD_REASON_NONE] = "none",
	[UTF8GUARD_REASON_TRUNCATED] = "truncated",
	[UTF8GUARD_REASON_UNEXPECTED_CONTINUATION] = "unexpected-continuation",
	[UTF8GUARD_REASON_INVALID_BYTE] = "invalid-byte",
	[UTF8GUARD_REASON_OVERLONG] = "overlong",
	[UTF8GUARD_REASON_SURROGATE] = "surrogate",
	[UTF8GUARD_REASON_OUT_OF_RANGE] = "out-of-range",
	[UTF8GUARD_REASON_CONTROL] = "control",
	[UTF8GUARD_REASON_BIDI] = "bidi",
	[UTF8GUARD_REASON_IGNORABLE] = "ignorable",
	[UTF8GUARD_REASON_NONCHARACTER] = "noncharacter",
	[UTF8GUARD_REASON_BOM] = "bom",
	[UTF8GUARD_REASON_CONFUSABLE_PATH] = "confusable-path",
	[UTF8GUARD_REASON_NOT_NFC] = "not-nfc",
	[UTF8GUARD_REASON_EMPTY_NAME] = "empty-name",
	[UTF8GUARD_REASON_DOT_NAME] = "dot-name",
	[UTF8GUARD_REASON_SLASH] = "slash",
	[UTF8GUARD_REASON_NUL] = "nul",
	[UTF8GUARD_REASON_NAME_TOO_LONG] = "name-too-long",
};

/**
 * utf8guard_decode() - decode the character at the start of a buffer
 * @buf: bytes
 * @len: number of bytes at @buf
 * @codepoint: set to the character's scalar value when it is well-formed
 *
 * The one UTF-8 decoder of the project: the same DFA as the validator,
 * accumulating the value as it goes.  Callers that step through a buffer
 * skip one byte, or the maximal subpart utf8guard_next_error() reports,
 * when it returns 0.
 *
 * Context: any context.
 * Return: the length of the well-formed character at @buf (1 to 4), or 0
 * if @buf is empty or starts with an ill-formed or cut-off sequence
 * (*@codepoint is then untouched).
 */
unsigned int utf8guard_decode(const u8 *buf, size_t len, u32 *codepoint)
{
	u64 state = DFA_ACCEPT;
	unsigned int n;
	u32 value;

	if (!len)
		return 0;
	if (buf[0] < 0x80) {
		*codepoint = buf[0];
		return 1;
	}
	value = buf[0] & (0x7F >> strict_length(buf[0]));
	for (n = 0; n < len && n < 4; n++) {
		state = dfa_step(state, buf[n]);
		if (state == DFA_ERROR)
			return 0;
		if (n)
			value = value << 6 | (buf[n] & 0x3F);
		if (state == DFA_ACCEPT) {
			*codepoint = value;
			return n + 1;
		}
	}
	return 0;
}
UTF8GUARD_EXPORT(utf8guard_decode);

/**
 * utf8guard_reason_name() - the stable word for a reason
 * @reason: an enum utf8guard_reason value
 *
 * Return: "truncated", "overlong", ...; "unknown" for an invalid value.
 */
const char *utf8guard_reason_name(unsigned int reason)
{
	if (reason >= UTF8GUARD_REASON_COUNT)
		return "unknown";
	return reason_names[reason];
}
UTF8GUARD_EXPORT(utf8guard_reason_name);

/**
 * utf8guard_reason_from_name() - parse a reason word
 * @word: the word, not necessarily NUL-terminated
 * @len: its length
 *
 * Return: the enum utf8guard_reason value, or -1 if @word is not one.
 */
int utf8guard_reason_from_name(const char *word, size_t len)
{
	unsigned int r;
	size_t k;

	for (r = 0; r < UTF8GUARD_REASON_COUNT; r++) {
		const char *name = reason_names[r];

		for (k = 0; k < len && name[k] && name[k] == word[k]; k++)
			;
		if (k == len && !name[k])
			return r;
	}
	return -1;
}
UTF8GUARD_EXPORT(utf8guard_reason_from_name);
