// SPDX-License-Identifier: GPL-2.0
/*
 * Validating an L4 payload where it lies: a payload in the linear part is
 * fed to the core's streaming validator at once; the linear part, page
 * fragments and the frag_list of a non-linear skb chunk by chunk
 * (skb_seq_read()), never linearized or copied.
 * Only the few bytes around a violation are copied, for the log line
 * verdict.c writes, so that the verdict needs nothing more of the skb.
 */
#include <linux/skbuff.h>

#include "net_hook.h"

/*
 * A segment that ends in a carry no bytes can complete: TCP delivers it
 * now, so it is judged as if the text ended there.  If the policy refuses
 * nothing there, the carry is kept: the next bytes may make a path trick.
 */
static void judge_dead_carry(struct net_payload *result, u32 classes)
{
	struct utf8guard_stream end = result->stream;
	struct utf8guard_violation_search search = {
		.classes = classes,
		.report = &result->violation,
		.found = false,
	};

	if (utf8guard_stream_may_complete(&end))
		return;
	utf8guard_stream_end(&end, utf8guard_stop_at_violation, &search);
	result->found = search.found;
}

/*
 * Copies bytes of carry + payload (@count from @start, counting @carry
 * first) to @out.  Return: bytes copied (fewer than @count at the end of
 * the payload).
 */
static size_t copy_window(const struct sk_buff *skb, unsigned int offset,
			  unsigned int len, const u8 *carry, u8 carry_length,
			  u64 start, size_t count, u8 *out)
{
	u64 total = (u64)carry_length + len;
	size_t n = 0;

	while (n < count && start + n < total) {
		u64 at = start + n;

		if (at < carry_length) {
			out[n] = carry[at];
		} else if (skb_copy_bits(skb, offset + (at - carry_length),
					 out + n, 1)) {
			break;
		}
		n++;
	}
	return n;
}

/* The bytes around the violation in @result, for the log line. */
static void fill_window(const struct sk_buff *skb, unsigned int offset,
			unsigned int len, const u8 *carry, u8 carry_length,
			struct net_payload *result)
{
	u64 start = result->violation.offset;
	size_t before = min_t(u64, start, NET_LOG_CONTEXT_BYTES);

	result->window_before = before;
	result->window_length =
		copy_window(skb, offset, len, carry, carry_length,
			    start - before, before + result->violation.length +
			    NET_LOG_CONTEXT_BYTES, result->window);
}

/*
 * A payload beyond the linear part, chunk by chunk, in place, in one
 * vector section (the core would take one per chunk) renewed every
 * NET_VECTOR_HOLD_BYTES, which bounds how long preemption is off.
 */
static void feed_chunks(struct sk_buff *skb, unsigned int offset,
			unsigned int len, struct net_payload *result,
			struct utf8guard_violation_search *search)
{
	struct skb_seq_state state;
	unsigned int consumed = 0, held_from = 0, n;
	bool held = utf8guard_vector_hold();
	const u8 *data;

	skb_prepare_seq_read(skb, offset, offset + len, &state);
	while (!result->stream.stopped &&
	       (n = skb_seq_read(consumed, &data, &state)) != 0) {
		/* A block can run past @len (bytes after the UDP length). */
		n = min(n, len - consumed);
		if (held && consumed - held_from >= NET_VECTOR_HOLD_BYTES) {
			utf8guard_vector_release();
			held = utf8guard_vector_hold();
			held_from = consumed;
		}
		utf8guard_stream_feed(&result->stream, data, n,
				      utf8guard_stop_at_violation, search);
		consumed += n;
	}
	if (held)
		utf8guard_vector_release();
	if (result->stream.stopped)
		skb_abort_seq_read(&state);
}

/**
 * net_payload_check() - validate bytes of an skb under a set of classes
 * @skb: the packet
 * @offset: offset of the payload in @skb
 * @len: payload length
 * @carry: bytes a previous segment left undecided, fed first
 * @carry_length: how many (0 for none)
 * @at_end: whether the text ends with this payload (a UDP datagram, a
 *	TCP segment with FIN): an undecided sequence at the end is then an
 *	error (truncated)
 * @classes: UTF8GUARD_CLASS_* bits to refuse
 * @result: the outcome; report offsets count @carry first; with a
 *	violation, the bytes around it (for the log line)
 *
 * Context: any context; does not sleep.
 * Return: 0, or -EFAULT if @offset + @len is outside @skb.
 */
int net_payload_check(struct sk_buff *skb, unsigned int offset,
		      unsigned int len, const u8 *carry, u8 carry_length,
		      bool at_end, u32 classes, struct net_payload *result)
{
	struct utf8guard_violation_search search = {
		.classes = classes,
		.report = &result->violation,
		.found = false,
	};

	result->found = false;
	result->carried = carry_length;
	utf8guard_stream_init(&result->stream);
	if (offset > skb->len || len > skb->len - offset)
		return -EFAULT;
	if (carry_length)
		utf8guard_stream_feed(&result->stream, carry, carry_length,
				      utf8guard_stop_at_violation, &search);
	/* Both do nothing once the carry has stopped the stream. */
	if (len <= skb_headlen(skb) - min(offset, skb_headlen(skb))) {
		/* All in the linear part: no skb_seq_read() machinery. */
		utf8guard_stream_feed(&result->stream, skb->data + offset, len,
				      utf8guard_stop_at_violation, &search);
	} else {
		feed_chunks(skb, offset, len, result, &search);
	}
	if (!result->stream.stopped && at_end)
		utf8guard_stream_end(&result->stream,
				     utf8guard_stop_at_violation, &search);
	result->found = search.found;
	if (!result->found && result->stream.carry_length)
		judge_dead_carry(result, classes);
	if (result->found)
		fill_window(skb, offset, len, carry, carry_length, result);
	return 0;
}
