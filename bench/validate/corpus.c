// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Deterministic corpora for `make bench` (see corpus.h).
 *
 * The text is made of words of 2 to 9 characters separated by spaces,
 * drawn from a xorshift64* generator:
 *   ascii   English letters;
 *   latin   letters, one in six from U+00C0..U+00FF (2 bytes);
 *   cjk     U+4E00..U+9FFF (3 bytes), a space or comma in one of twelve;
 *   emoji   a quarter each of letters, U+0400..U+04FF (2 bytes),
 *           U+4E00..U+9FFF (3 bytes) and U+1F300..U+1FAFF (4 bytes);
 *   ill-formed  Latin text with "/\xC0\xAE./" 40 bytes before the end
 *           (in the middle of a name shorter than 80 bytes).
 */
#include "corpus.h"

static const char *const kind_names[CORPUS_KIND_COUNT] = {
	[CORPUS_ASCII] = "ascii",
	[CORPUS_LATIN] = "latin",
	[CORPUS_CJK] = "cjk",
	[CORPUS_EMOJI] = "emoji",
	[CORPUS_ILL_FORMED] = "ill-formed",
};

const char *corpus_kind_name(enum corpus_kind kind)
{
	return kind_names[kind];
}

static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

static uint32_t pick(uint64_t *state, uint32_t from, uint32_t to)
{
	return from + (uint32_t)((next_random(state) >> 32) % (to - from + 1));
}

/* UTF-8 encoding of the scalar value @cp into @out; returns its length. */
static size_t encode(uint32_t cp, uint8_t *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xC0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xE0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3F);
		out[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	out[0] = 0xF0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3F);
	out[2] = 0x80 | ((cp >> 6) & 0x3F);
	out[3] = 0x80 | (cp & 0x3F);
	return 4;
}

static uint32_t letter(uint64_t *state)
{
	return pick(state, 0, 1) ? pick(state, 'a', 'z') : pick(state, 'A', 'Z');
}

/* The next character of a word of @kind text. */
static uint32_t word_character(enum corpus_kind kind, uint64_t *state)
{
	switch (kind) {
	case CORPUS_LATIN:
	case CORPUS_ILL_FORMED:
		return pick(state, 0, 5) ? letter(state) :
		       pick(state, 0xC0, 0xFF);
	case CORPUS_CJK:
		return pick(state, 0x4E00, 0x9FFF);
	case CORPUS_EMOJI:
		switch (pick(state, 0, 3)) {
		case 0:
			return letter(state);
		case 1:
			return pick(state, 0x400, 0x4FF);
		case 2:
			return pick(state, 0x4E00, 0x9FFF);
		default:
			return pick(state, 0x1F300, 0x1FAFF);
		}
	default:
		return letter(state);
	}
}

static uint32_t separator(enum corpus_kind kind, uint64_t *state)
{
	if (kind == CORPUS_CJK)
		return pick(state, 0, 11) ? pick(state, 0x4E00, 0x9FFF) :
		       (pick(state, 0, 1) ? ' ' : ',');
	return ' ';
}

/* @size bytes of @kind text, whole characters padded with ASCII. */
static void fill_text(enum corpus_kind kind, uint64_t seed, uint8_t *buf,
		      size_t size)
{
	uint64_t state = 0x9E3779B97F4A7C15ULL ^ (seed * 0xBF58476D1CE4E5B9ULL)
			 ^ ((uint64_t)kind << 56);
	uint8_t bytes[4];
	size_t at = 0, n, k;
	unsigned int left = 0;
	uint32_t cp;

	while (at < size) {
		if (left == 0) {
			left = pick(&state, 2, 9);
			cp = separator(kind, &state);
		} else {
			left--;
			cp = word_character(kind, &state);
		}
		n = encode(cp, bytes);
		if (n > size - at)
			break;
		for (k = 0; k < n; k++)
			buf[at++] = bytes[k];
	}
	while (at < size)
		buf[at++] = 'x';
}

void corpus_fill(enum corpus_kind kind, uint64_t seed, uint8_t *buf,
		 size_t size)
{
	/* "/\xC0\xAE./": the overlong '.' of the classic attack */
	static const uint8_t attack[] = { '/', 0xC0, 0xAE, '.', '/' };
	size_t at, k;

	if (kind != CORPUS_ILL_FORMED || size < 2 * sizeof(attack)) {
		fill_text(kind, seed, buf, size);
		return;
	}
	at = size > 40 ? size - 40 : size / 2;
	fill_text(kind, seed, buf, at);
	for (k = 0; k < sizeof(attack); k++)
		buf[at + k] = attack[k];
	at += sizeof(attack);
	fill_text(kind, seed + 1, buf + at, size - at);
}
