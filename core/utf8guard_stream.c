// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * utf8guard validator core: streams.  A stream validates a byte string
 * given in chunks, holding a sequence a chunk's end cuts until the next
 * chunk decides it; its reports are those of utf8guard_scan() on the
 * whole string.
 *
 * Compiled verbatim into utf8guard.ko and into utf8guardctl; see
 * utf8guard_core.h for the report semantics.
 */
#include "utf8guard_core.h"
#include "utf8guard_dfa.h"

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
		state = dfa_step(state, stream->carry[n]);
	return !stream->carry_length ||
	       (state != DFA_ERROR && state != DFA_ACCEPT);
}
UTF8GUARD_EXPORT(utf8guard_stream_may_complete);
