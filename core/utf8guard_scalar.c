// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard validator core: strict RFC 3629 validation and error reports.
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl; see
 * utf8guard_core.h for the report semantics.
 *
 * Well-formed sequences (RFC 3629 section 4, Unicode Table 3-7):
 *
 *	00..7F
 *	C2..DF 80..BF
 *	E0     A0..BF 80..BF
 *	E1..EC 80..BF 80..BF
 *	ED     80..9F 80..BF
 *	EE..EF 80..BF 80..BF
 *	F0     90..BF 80..BF 80..BF
 *	F1..F3 80..BF 80..BF 80..BF
 *	F4     80..8F 80..BF 80..BF
 */
#include "utf8guard_core.h"
#include "utf8guard_vector.h"

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

/* Smallest code point each lenient form length may encode. */
static const u32 lenient_minimum[UTF8GUARD_MAX_SHADOW_LENGTH + 1] = {
	0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000
};

static inline bool is_continuation(u8 c)
{
	return (c & 0xC0) == 0x80;
}

/* Length of the well-formed form led by @lead; 0 if @lead never leads one. */
static unsigned int strict_length(u8 lead)
{
	if (lead < 0x80)
		return 1;
	if (lead < 0xC2)
		return 0;
	if (lead < 0xE0)
		return 2;
	if (lead < 0xF0)
		return 3;
	if (lead < 0xF5)
		return 4;
	return 0;
}

/* Length of the RFC 2279 form led by @lead; 0 for 80..BF, FE and FF. */
static unsigned int lenient_length(u8 lead)
{
	if (lead < 0x80)
		return 1;
	if (lead < 0xC0)
		return 0;
	if (lead < 0xE0)
		return 2;
	if (lead < 0xF0)
		return 3;
	if (lead < 0xF8)
		return 4;
	if (lead < 0xFC)
		return 5;
	if (lead < 0xFE)
		return 6;
	return 0;
}

/* Allowed range of the second byte after a well-formed lead byte. */
static void second_byte_range(u8 lead, u8 *lo, u8 *hi)
{
	*lo = 0x80;
	*hi = 0xBF;
	if (lead == 0xE0)
		*lo = 0xA0;
	else if (lead == 0xED)
		*hi = 0x9F;
	else if (lead == 0xF0)
		*lo = 0x90;
	else if (lead == 0xF4)
		*hi = 0x8F;
}

/* Maximal subpart at @p: the longest prefix of any well-formed sequence. */
static unsigned int maximal_subpart(const u8 *p, size_t avail)
{
	unsigned int n = strict_length(p[0]);
	unsigned int k;
	u8 lo, hi;

	if (n < 2 || avail < 2)
		return 1;
	second_byte_range(p[0], &lo, &hi);
	if (p[1] < lo || p[1] > hi)
		return 1;
	for (k = 2; k < n && k < avail && is_continuation(p[k]); k++)
		;
	return k;
}

/*
 * The fast path: a shift-based DFA over Table 3-7 (RFC 3629 section 4).
 *
 * A state is a bit offset, a multiple of 6; dfa_row[byte] holds, at bit
 * offset s, the 6-bit state that follows state s on that byte.  One step is
 * "state = dfa_row[byte] >> state", then "& 63": a single shift on the
 * dependency chain, with the table load off it.  DFA_ERROR is 0, so every
 * transition a row does not list leads to it and it never leaves it.
 */
#define DFA_ERROR	0
#define DFA_ACCEPT	6	/* at a character boundary */
#define DFA_TAIL1	12	/* one 80..BF to go */
#define DFA_TAIL2	18	/* two 80..BF to go */
#define DFA_TAIL3	24	/* three 80..BF to go */
#define DFA_AFTER_E0	30	/* A0..BF, then one 80..BF */
#define DFA_AFTER_ED	36	/* 80..9F, then one 80..BF */
#define DFA_AFTER_F0	42	/* 90..BF, then two 80..BF */
#define DFA_AFTER_F4	48	/* 80..8F, then two 80..BF */
#define DFA_MASK	63

#define DFA_GOES(from, to)	((u64)(to) << (from))
#define DFA_LEAD(to)		DFA_GOES(DFA_ACCEPT, to)
/* Every continuation byte moves the plain tails on. */
#define DFA_TAILS		(DFA_GOES(DFA_TAIL1, DFA_ACCEPT) | \
				 DFA_GOES(DFA_TAIL2, DFA_TAIL1) | \
				 DFA_GOES(DFA_TAIL3, DFA_TAIL2))

static const u64 dfa_row[256] = {
	[0x00 ... 0x7F] = DFA_LEAD(DFA_ACCEPT),
	[0x80 ... 0x8F] = DFA_TAILS | DFA_GOES(DFA_AFTER_ED, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F4, DFA_TAIL2),
	[0x90 ... 0x9F] = DFA_TAILS | DFA_GOES(DFA_AFTER_ED, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F0, DFA_TAIL2),
	[0xA0 ... 0xBF] = DFA_TAILS | DFA_GOES(DFA_AFTER_E0, DFA_TAIL1) |
			  DFA_GOES(DFA_AFTER_F0, DFA_TAIL2),
	[0xC0 ... 0xC1] = 0,
	[0xC2 ... 0xDF] = DFA_LEAD(DFA_TAIL1),
	[0xE0] = DFA_LEAD(DFA_AFTER_E0),
	[0xE1 ... 0xEC] = DFA_LEAD(DFA_TAIL2),
	[0xED] = DFA_LEAD(DFA_AFTER_ED),
	[0xEE ... 0xEF] = DFA_LEAD(DFA_TAIL2),
	[0xF0] = DFA_LEAD(DFA_AFTER_F0),
	[0xF1 ... 0xF3] = DFA_LEAD(DFA_TAIL3),
	[0xF4] = DFA_LEAD(DFA_AFTER_F4),
	[0xF5 ... 0xFF] = 0,
};

/* Bytes the block loop takes at a time: two words. */
#define DFA_BLOCK 16
/*
 * Bytes left from which blocks go in pairs (dfa_block_pair()): below it,
 * as in names, the pair's branches on where a character starts cost more
 * than the second chain saves (measured with make bench).
 */
#define DFA_PAIR_MIN 64
#define HIGH_BITS 0x8080808080808080ULL

static inline u64 load_word(const u8 *p)
{
	u64 word;

	__builtin_memcpy(&word, p, sizeof(word));
	return word;
}

static inline bool block_is_ascii(const u8 *p)
{
	return !((load_word(p) | load_word(p + 8)) & HIGH_BITS);
}

/* Run the DFA over one block; the result is masked, DFA_ERROR is final. */
static inline u64 dfa_block(u64 state, const u8 *p)
{
	unsigned int k;

	/* Unrolled: four instructions a byte, one of them on the chain. */
#pragma GCC unroll 16
	for (k = 0; k < DFA_BLOCK; k++)
		state = dfa_row[p[k]] >> (state & DFA_MASK);
	return state & DFA_MASK;
}

/*
 * Two blocks at once, from a character boundary at @p: the DFA over
 * p[0..16) and, on a second chain that does not wait for the first, over
 * the 16 bytes from the first character start at or after p + 16 (the 0
 * to 3 continuation bytes before it finish the first chain).  Sound
 * because a character start only follows an accepting state: if the
 * first chain does not accept there, the bytes are ill-formed.  Returns
 * the state after the second block (DFA_ERROR for any error) and sets
 * @end to where that is.  Needs 2 * DFA_BLOCK + 3 bytes at @p.
 */
static inline u64 dfa_block_pair(const u8 *p, size_t *end)
{
	const u8 *q = p + DFA_BLOCK;
	u64 first = DFA_ACCEPT, second = DFA_ACCEPT;
	unsigned int k;

	while (is_continuation(*q)) {
		if (q == p + DFA_BLOCK + 3)
			return DFA_ERROR;	/* four in a row */
		q++;
	}
#pragma GCC unroll 16
	for (k = 0; k < DFA_BLOCK; k++) {
		first = dfa_row[p[k]] >> (first & DFA_MASK);
		second = dfa_row[q[k]] >> (second & DFA_MASK);
	}
	for (k = DFA_BLOCK; p + k < q; k++)
		first = dfa_row[p[k]] >> (first & DFA_MASK);
	if ((first & DFA_MASK) != DFA_ACCEPT)
		return DFA_ERROR;
	*end = q - p + DFA_BLOCK;
	return second & DFA_MASK;
}

/*
 * The scalar path: the length of the longest prefix of @buf made of whole
 * well-formed sequences.  Whole blocks of ASCII are skipped a word at a
 * time, other blocks go through the DFA, which is only looked at once per
 * block, two blocks at once from a character boundary while DFA_PAIR_MIN
 * bytes are left; after a pair that fails, one at a time, so that the
 * byte walk starts at most a block before the error.  The byte walk goes
 * on from the DFA's state where the blocks stopped: over the block that
 * failed, or the last, short one, to find the exact end.  Where the
 * blocks stopped is only turned into a character boundary there, once.
 */
static inline size_t scalar_prefix_body(const u8 *buf, size_t len)
{
	size_t boundary;
	size_t i = 0;
	size_t step;
	bool pairs = true;
	u64 state = DFA_ACCEPT;	/* of the bytes before i */
	u64 next;

	while (len - i >= DFA_BLOCK) {
		if (state == DFA_ACCEPT && block_is_ascii(buf + i)) {
			i += DFA_BLOCK;
			continue;
		}
		if (pairs && state == DFA_ACCEPT && len - i >= DFA_PAIR_MIN) {
			next = dfa_block_pair(buf + i, &step);
			if (next != DFA_ERROR) {
				i += step;
				state = next;
				continue;
			}
			pairs = false;	/* state is still DFA_ACCEPT at i */
		}
		next = dfa_block(state, buf + i);
		if (next == DFA_ERROR)
			break;
		i += DFA_BLOCK;
		state = next;
	}

	/* The DFA accepted all before a sequence that may be unfinished. */
	boundary = state == DFA_ACCEPT ? i : utf8guard_last_char_start(buf, i);
	for (; i < len; i++) {
		state = (dfa_row[buf[i]] >> state) & DFA_MASK;
		if (state == DFA_ERROR)
			break;
		boundary = state == DFA_ACCEPT ? i + 1 : boundary;
	}
	return boundary;
}

/*
 * The scalar path compiled twice.  Each DFA step is a shift by a count
 * that the step before computed: BMI2's shrx is one micro-op on any
 * register, where plain x86-64 moves the count to cl for a shr of two or
 * three.  BMI2 uses no vector register (no kernel_fpu_begin()); the CPU
 * says which runs (utf8guard_scalar_bmi2()).  flatten: the DFA helpers
 * are inlined into each, with its instructions.
 */
__attribute__((flatten))
static size_t scalar_prefix_plain(const u8 *buf, size_t len)
{
	return scalar_prefix_body(buf, len);
}

#ifdef UTF8GUARD_HAVE_VECTOR
__attribute__((target("bmi2"), flatten))
static size_t scalar_prefix_bmi2(const u8 *buf, size_t len)
{
	return scalar_prefix_body(buf, len);
}
#endif

static size_t scalar_prefix(const u8 *buf, size_t len)
{
#ifdef UTF8GUARD_HAVE_VECTOR
	if (utf8guard_scalar_bmi2())
		return scalar_prefix_bmi2(buf, len);
#endif
	return scalar_prefix_plain(buf, len);
}

/*
 * Length of the longest prefix of @buf made of whole well-formed
 * sequences: the vector path (utf8guard_vector.c) as far as it sees no
 * error, then the scalar path, which finds the exact end.
 */
static size_t well_formed_prefix(const u8 *buf, size_t len)
{
	size_t done = utf8guard_vector_prefix(buf, len);

	if (done == len)
		return len;
	return done + scalar_prefix(buf + done, len - done);
}

/*
 * Describe the ill-formed sequence at buf[i].  Returns false when the bytes
 * up to @len do not decide the report yet and more bytes may follow.
 */
static bool describe_error(const u8 *buf, size_t len, size_t i, bool at_end,
			   struct utf8guard_report *report)
{
	const u8 *p = buf + i;
	size_t avail = len - i;
	unsigned int n = lenient_length(p[0]);
	unsigned int k;
	u32 cp;

	report->offset = i;
	report->length = 1;
	report->codepoint = 0;
	report->shadow_length = 0;
	report->path_trick = false;

	if (n == 0) {
		report->reason = is_continuation(p[0]) ?
			UTF8GUARD_REASON_UNEXPECTED_CONTINUATION :
			UTF8GUARD_REASON_INVALID_BYTE;
		return true;
	}

	/* The lenient RFC 2279 reading: n - 1 continuation bytes. */
	cp = p[0] & (0x7F >> n);
	for (k = 1; k < n && k < avail && is_continuation(p[k]); k++)
		cp = (cp << 6) | (p[k] & 0x3F);
	if (k < n && k == avail && !at_end)
		return false;

	report->length = maximal_subpart(p, avail);

	if (k == n) {
		report->codepoint = cp;
		report->shadow_length = n;
		report->path_trick = cp < 0x80;
		if (cp < lenient_minimum[n])
			report->reason = UTF8GUARD_REASON_OVERLONG;
		else if (cp >= 0xD800 && cp <= 0xDFFF)
			report->reason = UTF8GUARD_REASON_SURROGATE;
		else
			report->reason = UTF8GUARD_REASON_OUT_OF_RANGE;
		return true;
	}

	/* Incomplete lenient reading: C0, C1 and F5..FD never appear. */
	if (strict_length(p[0]) == 0) {
		report->reason = UTF8GUARD_REASON_INVALID_BYTE;
		return true;
	}
	/* A continuation byte outside E0, ED, F0 or F4's second-byte range. */
	if (k >= 2 && report->length == 1) {
		if (p[0] == 0xED)
			report->reason = UTF8GUARD_REASON_SURROGATE;
		else if (p[0] == 0xF4)
			report->reason = UTF8GUARD_REASON_OUT_OF_RANGE;
		else
			report->reason = UTF8GUARD_REASON_OVERLONG;
		return true;
	}
	report->reason = UTF8GUARD_REASON_TRUNCATED;
	return true;
}

/**
 * utf8guard_next_error() - find the next ill-formed sequence
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @pos: in: offset to start at; out: where the step stopped (see Return)
 * @at_end: no bytes follow @buf; when false, a sequence cut by the end of
 *	@buf is left undecided instead of being reported
 * @report: filled with the error, offsets relative to @buf
 *
 * Return: %UTF8GUARD_STEP_CLEAN with *@pos == @len when the rest is
 * well-formed; %UTF8GUARD_STEP_ERROR with *@pos == @report->offset;
 * %UTF8GUARD_STEP_NEED_MORE with *@pos at the undecided tail (only when
 * @at_end is false).  To resume after an error, start again at
 * @report->offset + @report->length.
 */
enum utf8guard_step utf8guard_next_error(const u8 *buf, size_t len,
					 size_t *pos, bool at_end,
					 struct utf8guard_report *report)
{
	size_t i = *pos + well_formed_prefix(buf + *pos, len - *pos);

	*pos = i;
	if (i == len)
		return UTF8GUARD_STEP_CLEAN;
	/* The prefix is exact: the sequence at i is ill-formed or cut. */
	if (!describe_error(buf, len, i, at_end, report))
		return UTF8GUARD_STEP_NEED_MORE;
	return UTF8GUARD_STEP_ERROR;
}
UTF8GUARD_EXPORT(utf8guard_next_error);

/**
 * utf8guard_first_error() - validate a complete buffer
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @report: filled with the first ill-formed sequence, if any
 *
 * Return: true if @buf is ill-formed (and @report describes why).
 */
bool utf8guard_first_error(const u8 *buf, size_t len,
			   struct utf8guard_report *report)
{
	size_t pos = 0;

	return utf8guard_next_error(buf, len, &pos, true, report) ==
	       UTF8GUARD_STEP_ERROR;
}
UTF8GUARD_EXPORT(utf8guard_first_error);

/**
 * utf8guard_scan() - report every ill-formed sequence of a complete buffer
 * @buf: bytes to check
 * @len: number of bytes in @buf
 * @fn: called for each error in order; may be NULL
 * @arg: passed to @fn
 *
 * After each error the scan resumes after its maximal subpart, so the
 * errors are those a U+FFFD-substituting decoder would replace.
 *
 * Return: the number of errors reported (up to the one @fn stopped at).
 */
u64 utf8guard_scan(const u8 *buf, size_t len, utf8guard_error_fn fn,
		   void *arg)
{
	struct utf8guard_report report;
	size_t pos = 0;
	u64 count = 0;

	while (utf8guard_next_error(buf, len, &pos, true, &report) ==
	       UTF8GUARD_STEP_ERROR) {
		count++;
		if (fn && !fn(&report, arg))
			break;
		pos = report.offset + report.length;
	}
	return count;
}
UTF8GUARD_EXPORT(utf8guard_scan);

/**
 * utf8guard_stream_init() - start a new stream
 * @stream: state to reset
 */
void utf8guard_stream_init(struct utf8guard_stream *stream)
{
	stream->consumed = 0;
	stream->errors = 0;
	stream->first.offset = 0;
	stream->first.length = 0;
	stream->first.codepoint = 0;
	stream->first.reason = UTF8GUARD_REASON_NONE;
	stream->first.shadow_length = 0;
	stream->first.path_trick = false;
	stream->stopped = false;
	stream->carry_length = 0;
}
UTF8GUARD_EXPORT(utf8guard_stream_init);

/* Count an error found at @base + @report->offset and hand it to @fn. */
static bool stream_report(struct utf8guard_stream *stream,
			  const struct utf8guard_report *report, u64 base,
			  utf8guard_error_fn fn, void *arg)
{
	struct utf8guard_report absolute = *report;

	absolute.offset += base;
	if (stream->errors++ == 0)
		stream->first = absolute;
	if (fn && !fn(&absolute, arg)) {
		stream->stopped = true;
		return false;
	}
	return true;
}

static void stream_keep(struct utf8guard_stream *stream, const u8 *tail,
			size_t length)
{
	size_t k;

	for (k = 0; k < length; k++)
		stream->carry[k] = tail[k];
	stream->carry_length = length;
}

/*
 * Decide the sequences that start in the carry, using the first bytes of
 * the new chunk.  Returns the offset in @buf to go on from, or @len + 1
 * when the stream must wait for more (or was stopped).
 */
static size_t stream_settle_carry(struct utf8guard_stream *stream,
				  const u8 *buf, size_t len,
				  utf8guard_error_fn fn, void *arg)
{
	u8 joined[2 * UTF8GUARD_MAX_SHADOW_LENGTH];
	size_t carried = stream->carry_length;
	size_t take = len < UTF8GUARD_MAX_SHADOW_LENGTH ?
		      len : UTF8GUARD_MAX_SHADOW_LENGTH;
	size_t joined_length = carried + take;
	struct utf8guard_report report;
	enum utf8guard_step step;
	size_t pos = 0;
	size_t k;

	for (k = 0; k < carried; k++)
		joined[k] = stream->carry[k];
	for (k = 0; k < take; k++)
		joined[carried + k] = buf[k];

	while (pos < carried) {
		step = utf8guard_next_error(joined, joined_length, &pos, false,
					    &report);
		if (step == UTF8GUARD_STEP_ERROR && pos < carried) {
			if (!stream_report(stream, &report, stream->consumed,
					   fn, arg))
				return len + 1;
			pos = report.offset + report.length;
			continue;
		}
		if (step == UTF8GUARD_STEP_NEED_MORE && pos < carried) {
			/*
			 * Still undecided: then @take was all of @buf, since
			 * six more bytes decide any sequence.
			 */
			stream->consumed += pos;
			stream_keep(stream, joined + pos, joined_length - pos);
			return len + 1;
		}
		break;
	}
	stream->consumed += carried;
	stream->carry_length = 0;
	return pos - carried;
}

/**
 * utf8guard_stream_feed() - validate the next chunk of a stream
 * @stream: state from utf8guard_stream_init()
 * @buf: the chunk
 * @len: number of bytes in @buf
 * @fn: called for each error, with offsets from the start of the stream;
 *	may be NULL (then only @stream->errors and @stream->first change)
 * @arg: passed to @fn
 *
 * A sequence cut by the end of @buf is held in @stream (at most five bytes)
 * until the next chunk or utf8guard_stream_end() decides it.
 */
void utf8guard_stream_feed(struct utf8guard_stream *stream, const u8 *buf,
			   size_t len, utf8guard_error_fn fn, void *arg)
{
	struct utf8guard_report report;
	enum utf8guard_step step;
	size_t pos = 0;

	if (stream->stopped)
		return;
	if (stream->carry_length) {
		pos = stream_settle_carry(stream, buf, len, fn, arg);
		if (pos > len)
			return;
	}
	for (;;) {
		step = utf8guard_next_error(buf, len, &pos, false, &report);
		if (step == UTF8GUARD_STEP_CLEAN) {
			stream->consumed += len;
			return;
		}
		if (step == UTF8GUARD_STEP_NEED_MORE) {
			stream->consumed += pos;
			stream_keep(stream, buf + pos, len - pos);
			return;
		}
		if (!stream_report(stream, &report, stream->consumed, fn, arg))
			return;
		pos = report.offset + report.length;
	}
}
UTF8GUARD_EXPORT(utf8guard_stream_feed);

/**
 * utf8guard_stream_end() - the stream is complete: decide what is held
 * @stream: state from utf8guard_stream_init()
 * @fn: called for each error; may be NULL
 * @arg: passed to @fn
 */
void utf8guard_stream_end(struct utf8guard_stream *stream,
			  utf8guard_error_fn fn, void *arg)
{
	struct utf8guard_report report;
	size_t pos = 0;

	if (stream->stopped || !stream->carry_length)
		return;
	while (utf8guard_next_error(stream->carry, stream->carry_length, &pos,
				    true, &report) == UTF8GUARD_STEP_ERROR) {
		if (!stream_report(stream, &report, stream->consumed, fn, arg))
			return;
		pos = report.offset + report.length;
	}
	stream->consumed += stream->carry_length;
	stream->carry_length = 0;
}
UTF8GUARD_EXPORT(utf8guard_stream_end);

/**
 * utf8guard_stream_may_complete() - can what a stream holds still be valid
 * @stream: state from utf8guard_stream_init()
 *
 * A stream holds the start of a sequence its bytes so far do not decide.
 * Some are held only for the lenient reading a report gives (C0, F5,
 * E0 80, ED A0) and no later bytes can make them well-formed.  A caller
 * that must judge now what it has (bytes a reader gets before the rest
 * arrives) ends a copy of the stream when this returns false.
 *
 * Context: any context.
 * Return: true if nothing is held, or what is held is the start of a
 * well-formed character; false if it is ill-formed whatever follows.
 */
bool utf8guard_stream_may_complete(const struct utf8guard_stream *stream)
{
	u64 state = DFA_ACCEPT;
	unsigned int n;

	for (n = 0; n < stream->carry_length; n++)
		state = (dfa_row[stream->carry[n]] >> state) & DFA_MASK;
	return !stream->carry_length ||
	       (state != DFA_ERROR && state != DFA_ACCEPT);
}
UTF8GUARD_EXPORT(utf8guard_stream_may_complete);

/**
 * utf8guard_valid_prefix() - length of the well-formed start of a buffer
 * @buf: bytes
 * @len: number of bytes at @buf
 *
 * The validator's fast path on its own: how many bytes at the start of
 * @buf are whole well-formed characters.
 *
 * Context: any context.
 * Return: @len if @buf is well-formed, else the offset of the first
 * ill-formed (or cut-off) sequence.
 */
size_t utf8guard_valid_prefix(const u8 *buf, size_t len)
{
	return well_formed_prefix(buf, len);
}
UTF8GUARD_EXPORT(utf8guard_valid_prefix);

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
		state = (dfa_row[buf[n]] >> state) & DFA_MASK;
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
