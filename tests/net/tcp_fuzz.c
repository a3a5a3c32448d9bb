// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_fuzz - a model-based fuzzer of what utf8guard_nf.ko lets TCP deliver.
 *
 *   tcp_fuzz [--seed S] [--count N | --seconds T] [--family 4|6]
 *            [--port P] [--pressure H] [--timeout MS] [--verbose]
 *
 * For each of N sequences drawn from a PRNG seeded with S (printed; from
 * getrandom() when not given), or for T seconds of sequences: a
 * connection over loopback (127.0.0.1 or ::1, port P, default 8080) whose
 * receiver's sequence numbers are read in TCP repair mode, on which only
 * segments injected over raw sockets (tcp_inject.c) are sent, as net_op
 * tcp-inject does.  A sequence is a reference text, random well-formed
 * UTF-8 with many 2-, 3- and 4-byte characters, and a schedule of
 * segments over it: the text cut at random points (characters split
 * across segments), retransmissions, out-of-order segments and, in the
 * schedules that are not clean, overlapping segments with other content
 * (ill-formed bytes: lone continuations, a lead byte before ASCII, the
 * overlongs C0 AE and E0 80 AF, the surrogate ED A0 80, F4 90 80 80, FF;
 * or well-formed text that starts elsewhere), and segments with SYN, FIN,
 * RST or URG, a bad checksum, from a stray source port or as IP fragments.
 * Every segment is sent back to back; nothing reads the receiving socket
 * meanwhile (so the hook always sees it not busy).  Then everything the
 * application can read arrives within --timeout MS of quiet (default 50),
 * and is checked against a model of TCP:
 *
 *  1. invariant: the bytes delivered are well-formed UTF-8; a sequence cut
 *     short is allowed only at the very end while the connection is open
 *     or after it was reset (a RST aborts the stream, at either end, and
 *     the reader gets ECONNRESET, not the end of a text), never before
 *     the end of the stream;
 *  2. consistency: the byte delivered at stream position p is the byte at
 *     p of some segment sent that TCP could take (a valid checksum, its
 *     own source port, neither SYN nor RST) and that covers p; past an
 *     urgent byte (URG, pointer 1: the segment's first byte), which TCP
 *     takes out of the stream, the positions may shift by it;
 *  3. liveness, for the clean schedules (the reference text's own bytes,
 *     in order, retransmitted or out of order, no flags): a non-empty
 *     prefix of the text arrives.  Not judged under --pressure, where a
 *     full flow table makes split characters wait (by design).
 *
 * --pressure H first holds H connections of its own, each left with
 * "a" E2 delivered (a split character, a flow entry each), for the whole
 * run: with flows_max below H the table is full throughout.
 *
 * Each broken check prints "violation K: WHY" (1 and 3) or "inconsistent
 * K: WHY" (2), then what arrived and the sequence as net_op tcp-inject
 * replays it (OFFSET:HEX[:FLAGS],...).  The last line is
 *   seed S sequences N delivered B violations V inconsistent C clean-delivered K
 * (B all bytes read, K those of clean schedules, of "clean-sent" bytes
 * in the line before).  Exit status 0, 1 when V or C is not 0, 2 on a
 * usage error, 3 on a system error.  Needs CAP_NET_RAW and CAP_NET_ADMIN.
 *
 * Built by tests/net/build-net-tools.sh, with the validator core: what
 * arrived is judged by the core, the project's one decoder.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "tcp_inject.h"
#include "utf8guard_core.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_CHARS 100		/* characters of a reference text */
#define MAX_TEXT (MAX_CHARS * 4)
#define MAX_SEG_DATA 40		/* bytes of one segment */
#define MAX_SEGMENTS 160	/* segments of one schedule */
#define MAX_RECEIVED 8192
#define CONNECT_TIMEOUT_MS 5000
#define STRAY_PORT_DISTANCE 1000	/* as net_op tcp-inject's p flag */

/* Segment flags: net_op tcp-inject's letters. */
enum {
	F_BAD_SUM = 1 << 0,	/* b */
	F_URG = 1 << 1,		/* u */
	F_FIN = 1 << 2,		/* f */
	F_RST = 1 << 3,		/* r */
	F_SYN = 1 << 4,		/* s */
	F_STRAY = 1 << 5,	/* p */
	F_FRAGMENTS = 1 << 6,	/* g */
};

static const char flag_letters[] = "bufrspg";

/* Segments that TCP never delivers on this connection. */
#define F_NOT_DELIVERED (F_BAD_SUM | F_RST | F_SYN | F_STRAY)

struct fseg {
	uint32_t off;		/* from the receiver's first rcv_nxt */
	uint16_t len;
	unsigned char data[MAX_SEG_DATA];
	unsigned int flags;
};

struct sequence {
	unsigned char text[MAX_TEXT];
	size_t text_len;
	bool clean;
	struct fseg seg[MAX_SEGMENTS];
	size_t count;
};

static struct {
	uint64_t seed;
	long count;
	long seconds;
	int family;
	int port;
	int pressure;
	int timeout_ms;
	bool verbose;
} opt = { .count = 100, .family = 4, .port = 8080, .timeout_ms = 50 };

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "tcp_fuzz: %s: %s\n", what, strerror(errno));
	exit(3);
}

static _Noreturn void usage(const char *why)
{
	if (why)
		fprintf(stderr, "tcp_fuzz: %s\n", why);
	fputs("usage: tcp_fuzz [--seed S] [--count N | --seconds T] "
	      "[--family 4|6] [--port P]\n"
	      "                [--pressure H] [--timeout MS] [--verbose]\n",
	      stderr);
	exit(2);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* --- the PRNG: splitmix64, one stream for the whole run ------------------ */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)((rnd64() >> 32) % n);
}

/* True with probability @percent %. */
static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* --- UTF-8 -------------------------------------------------------------- */

static size_t put_utf8(unsigned char *p, uint32_t cp)
{
	if (cp < 0x80) {
		p[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = 0xc0 | cp >> 6;
		p[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = 0xe0 | cp >> 12;
		p[1] = 0x80 | (cp >> 6 & 0x3f);
		p[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	p[0] = 0xf0 | cp >> 18;
	p[1] = 0x80 | (cp >> 12 & 0x3f);
	p[2] = 0x80 | (cp >> 6 & 0x3f);
	p[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* A random scalar value: ASCII, 2, 3 or 4 bytes, a quarter each. */
static uint32_t random_char(void)
{
	uint32_t cp;

	switch (rnd(4)) {
	case 0:
		return 0x20 + rnd(0x5f);
	case 1:
		return 0x80 + rnd(0x800 - 0x80);
	case 2:
		do
			cp = 0x800 + rnd(0x10000 - 0x800);
		while (cp >= 0xd800 && cp <= 0xdfff);
		return cp;
	default:
		return 0x10000 + rnd(0x110000 - 0x10000);
	}
}

/* Random well-formed text of at most @max bytes; returns its length. */
static size_t random_text(unsigned char *p, size_t max, size_t chars)
{
	unsigned char c[4];
	size_t len = 0, n;

	while (chars--) {
		n = put_utf8(c, random_char());
		if (len + n > max)
			break;
		memcpy(p + len, c, n);
		len += n;
	}
	return len;
}

/*
 * RFC 3629 on @s, by the validator core: the offset of the first
 * ill-formed byte, or @n when there is none; *@tail is then where a
 * sequence cut short by the end starts (@n when the text ends on a
 * character boundary).
 */
static size_t utf8_check(const unsigned char *s, size_t n, size_t *tail)
{
	struct utf8guard_report r;

	*tail = n;
	if (!utf8guard_first_error(s, n, &r))
		return n;
	if (r.reason == UTF8GUARD_REASON_TRUNCATED && r.offset + r.length == n) {
		*tail = r.offset;
		return n;
	}
	return r.offset;
}

/* --- schedules ---------------------------------------------------------- */

static struct fseg *add_segment(struct sequence *q, uint32_t off,
				const unsigned char *data, size_t len,
				unsigned int flags)
{
	struct fseg *s;

	if (q->count == MAX_SEGMENTS)
		return NULL;
	s = &q->seg[q->count++];
	if (len > MAX_SEG_DATA)
		len = MAX_SEG_DATA;
	s->off = off;
	s->len = len;
	if (len)
		memcpy(s->data, data, len);
	s->flags = flags;
	return s;
}

/* Bytes [@a, @b) of the reference text as one segment. */
static void add_text(struct sequence *q, size_t a, size_t b,
		     unsigned int flags)
{
	add_segment(q, a, q->text + a, b - a, flags);
}

static const struct {
	unsigned char bytes[4];
	size_t len;
} poisons[] = {
	{ { 0x80 }, 1 },			/* a lone continuation */
	{ { 0xbf }, 1 },
	{ { 0xe2, 0x41 }, 2 },			/* a lead byte before ASCII */
	{ { 0xc3, 0x2f }, 2 },
	{ { 0xc0, 0xae }, 2 },			/* overlong "." */
	{ { 0xe0, 0x80, 0xaf }, 3 },		/* overlong "/" */
	{ { 0xed, 0xa0, 0x80 }, 3 },		/* a surrogate */
	{ { 0xf4, 0x90, 0x80, 0x80 }, 4 },	/* past U+10FFFF */
	{ { 0xff }, 1 },
	{ { 0xf0, 0x9f }, 2 },			/* a 4-byte lead cut short */
	{ { 0xe2 }, 1 },			/* a lead byte, then whatever */
};

/*
 * A segment over [@off, @off + @len) with other content than the text's:
 * the text's bytes (ASCII past its end) with one or two ill-formed
 * sequences written over them, or well-formed text of its own that
 * starts there, sometimes poisoned too.
 */
static void add_bad(struct sequence *q, uint32_t off, size_t len,
		    unsigned int flags)
{
	unsigned char d[MAX_SEG_DATA];
	size_t k, n, at, p;

	if (len > MAX_SEG_DATA)
		len = MAX_SEG_DATA;
	if (chance(30)) {
		n = random_text(d, len, len);
		for (k = n; k < len; k++)
			d[k] = 'a' + rnd(26);
		if (chance(50))
			goto done;
	} else {
		for (k = 0; k < len; k++)
			d[k] = off + k < q->text_len ? q->text[off + k] :
						       'a' + rnd(26);
	}
	for (n = 1 + rnd(2); n; n--) {
		p = rnd(ARRAY_SIZE(poisons));
		at = rnd(len);
		for (k = 0; k < poisons[p].len && at + k < len; k++)
			d[at + k] = poisons[p].bytes[k];
	}
done:
	add_segment(q, off, d, len, flags);
}

/* One flag for a hostile segment: RST the rarest (it ends the test). */
static unsigned int random_flag(void)
{
	static const unsigned int pick[] = {
		F_BAD_SUM, F_BAD_SUM, F_URG, F_URG, F_FIN, F_SYN, F_SYN,
		F_SYN | F_FIN, F_STRAY, F_STRAY, F_FRAGMENTS, F_FRAGMENTS,
		F_RST,
	};

	return pick[rnd(ARRAY_SIZE(pick))];
}

/*
 * A sequence: the text, its cut points, and the schedule.  The text is
 * sent piece by piece in order; around each piece, by chance, a
 * retransmission of earlier text, the next piece first (out of order),
 * and in schedules that are not clean an overlapping segment of other
 * content, a flagged copy of text or other content; at the end perhaps
 * an empty FIN or RST.
 */
static void generate(struct sequence *q)
{
	size_t cut[MAX_TEXT + 1], pieces = 0, k, a, b, len;
	unsigned int flags;

	q->count = 0;
	q->clean = chance(35);
	q->text_len = random_text(q->text, MAX_TEXT, 4 + rnd(MAX_CHARS - 4));
	/* Cut points: 1 to 12 bytes apart, anywhere in a character. */
	cut[pieces++] = 0;
	for (a = 0; a < q->text_len;) {
		a += 1 + rnd(rnd(4) ? 6 : 12);
		if (a > q->text_len)
			a = q->text_len;
		cut[pieces++] = a;
	}
	pieces--;
	for (k = 0; k < pieces; k++) {
		if (chance(15)) {	/* a retransmission of earlier text */
			a = cut[k] > 16 ? cut[k] - 1 - rnd(16) :
					  rnd(cut[k] + 1);
			b = a + 1 + rnd(cut[k + 1] - a);
			if (b > q->text_len)
				b = q->text_len;
			add_text(q, a, b, 0);
		}
		if (k + 1 < pieces && chance(12)) {	/* out of order */
			add_text(q, cut[k + 1], cut[k + 2], 0);
			if (chance(50)) {
				add_text(q, cut[k], cut[k + 1], 0);
				add_text(q, cut[k + 1], cut[k + 2], 0);
				k++;
				continue;
			}
		}
		if (!q->clean && chance(25)) {	/* other content, overlapping */
			a = cut[k] > 6 ? cut[k] - rnd(7) : 0;
			a += rnd(cut[k + 1] - cut[k] + 4);
			add_bad(q, a, 1 + rnd(10), 0);
		}
		if (!q->clean && chance(8)) {	/* a flagged segment */
			flags = random_flag();
			a = cut[k] + rnd(cut[k + 1] - cut[k] + 2);
			len = rnd(8);
			if (chance(50) && a < q->text_len) {
				b = a + len > q->text_len ? q->text_len :
							    a + len;
				add_text(q, a, b, flags);
			} else {
				add_bad(q, a, len ? len : 1, flags);
			}
		}
		add_text(q, cut[k], cut[k + 1], 0);
	}
	/* An end: a FIN or a RST after the text or after a piece of it (in
	 * a character, often), where the receiver's rcv_nxt may well be.
	 */
	if (!q->clean && chance(20))
		add_segment(q, chance(40) ? q->text_len : cut[rnd(pieces + 1)],
			    NULL, 0, chance(50) ? F_FIN : F_RST);
	/* IPv6 cannot fragment segments under 5 bytes of payload. */
	for (k = 0; k < q->count; k++)
		if (opt.family == 6 && (q->seg[k].flags & F_FRAGMENTS) &&
		    q->seg[k].len < TCP_INJECT_FRAGMENTS_MIN_DATA6)
			q->seg[k].flags &= ~F_FRAGMENTS;
}

/* --- connections -------------------------------------------------------- */

struct conn {
	int tx;			/* the connecting socket (never writes) */
	int rx;			/* the accepted one, whose reads are judged */
	union tcp_inject_addr from;	/* tx's address: the injected source */
	uint32_t rcv_nxt;	/* rx's, before any injection */
	uint32_t snd_nxt;
};

static union tcp_inject_addr server;
static socklen_t server_len;
static int listener = -1;
static struct tcp_injector injector;

static void set_int(int fd, int level, int name, int value, const char *what)
{
	if (setsockopt(fd, level, name, &value, sizeof(value)) < 0)
		die(what);
}

static bool wait_for(int fd, short events, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int ready;

	do {
		ready = poll(&pfd, 1, ms);
	} while (ready < 0 && errno == EINTR);
	if (ready < 0)
		die("poll");
	return ready > 0;
}

static void setup(void)
{
	int family = opt.family == 4 ? AF_INET : AF_INET6;

	memset(&server, 0, sizeof(server));
	if (family == AF_INET) {
		server.v4.sin_family = AF_INET;
		server.v4.sin_port = htons(opt.port);
		server.v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		server_len = sizeof(server.v4);
	} else {
		server.v6.sin6_family = AF_INET6;
		server.v6.sin6_port = htons(opt.port);
		server.v6.sin6_addr = in6addr_loopback;
		server_len = sizeof(server.v6);
	}
	listener = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0)
		die("socket");
	set_int(listener, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
	if (bind(listener, &server.sa, server_len) < 0)
		die("bind");
	if (listen(listener, 64) < 0)
		die("listen");
	if (tcp_injector_open(&injector, family) < 0)
		die("raw socket");
}

/* An RST instead of a FIN: nothing is left to retransmit. */
static void close_with_reset(int fd)
{
	struct linger linger = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof(linger));
	close(fd);
}

static void conn_close(struct conn *c)
{
	close_with_reset(c->rx);
	close_with_reset(c->tx);
}

static bool same_peer(const union tcp_inject_addr *a,
		      const union tcp_inject_addr *b)
{
	if (a->sa.sa_family == AF_INET)
		return a->v4.sin_port == b->v4.sin_port &&
		       a->v4.sin_addr.s_addr == b->v4.sin_addr.s_addr;
	return a->v6.sin6_port == b->v6.sin6_port &&
	       !memcmp(&a->v6.sin6_addr, &b->v6.sin6_addr, 16);
}

static void conn_open(struct conn *c)
{
	union tcp_inject_addr peer;
	socklen_t len;

	c->tx = socket(server.sa.sa_family,
		       SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->tx < 0)
		die("socket");
	if (connect(c->tx, &server.sa, server_len) < 0 &&
	    errno != EINPROGRESS)
		die("connect");
	if (!wait_for(c->tx, POLLOUT, CONNECT_TIMEOUT_MS)) {
		errno = ETIMEDOUT;
		die("connect");
	}
	len = sizeof(c->from);
	if (getsockname(c->tx, &c->from.sa, &len) < 0)
		die("getsockname");
	/* Only ours: a SYN injected earlier might have left another. */
	for (;;) {
		if (!wait_for(listener, POLLIN, CONNECT_TIMEOUT_MS)) {
			errno = ETIMEDOUT;
			die("accept");
		}
		len = sizeof(peer);
		c->rx = accept4(listener, &peer.sa, &len,
				SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c->rx < 0)
			die("accept");
		if (same_peer(&peer, &c->from))
			break;
		close_with_reset(c->rx);
	}
	if (tcp_inject_sequences(c->rx, &c->rcv_nxt, &c->snd_nxt) < 0)
		die("TCP repair mode");
}

static in_port_t *port_of(union tcp_inject_addr *a)
{
	return a->sa.sa_family == AF_INET ? &a->v4.sin_port :
					    &a->v6.sin6_port;
}

/* Segment @index of a schedule, as net_op tcp-inject would send it. */
static void send_segment(struct conn *c, const struct fseg *s, size_t index)
{
	struct tcp_segment seg = {
		.from = c->from,
		.to = server,
		.seq = c->rcv_nxt + s->off,
		.ack = c->snd_nxt,
		.flags = TH_PUSH | TH_ACK,
		.window = 65535,
		.data = s->data,
		.len = s->len,
	};
	in_port_t port;

	if (s->flags & F_URG) {
		seg.flags |= TH_URG;
		seg.urgent = 1;
	}
	if (s->flags & F_FIN)
		seg.flags |= TH_FIN;
	if (s->flags & F_RST)
		seg.flags = TH_RST | (seg.flags & (TH_URG | TH_FIN));
	if (s->flags & F_SYN)
		seg.flags |= TH_SYN;
	if (s->flags & F_STRAY) {
		port = ntohs(*port_of(&c->from));
		*port_of(&seg.from) = htons(1024 + (port - 1024 +
			STRAY_PORT_DISTANCE + index) % (65536 - 1024));
	}
	if (s->flags & F_BAD_SUM)
		seg.send |= TCP_INJECT_BAD_SUM;
	if (s->flags & F_FRAGMENTS)
		seg.send |= TCP_INJECT_FRAGMENTS;
	if (tcp_inject(&injector, &seg) < 0)
		die("tcp_inject");
}

enum end { END_OPEN, END_EOF, END_RESET };
static const char *const end_names[] = { "open", "eof", "reset" };

/* Everything readable until --timeout ms pass without a byte. */
static size_t receive(int fd, unsigned char *buf, enum end *end)
{
	size_t got = 0;
	ssize_t n;

	*end = END_OPEN;
	while (wait_for(fd, POLLIN, opt.timeout_ms)) {
		n = read(fd, buf + got, MAX_RECEIVED - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0 && (errno == ECONNRESET || errno == EPIPE)) {
			*end = END_RESET;
			break;
		}
		if (n < 0)
			die("read");
		if (n == 0) {
			*end = END_EOF;
			break;
		}
		got += n;
		if (got == MAX_RECEIVED) {
			errno = EFBIG;
			die("read");
		}
	}
	return got;
}

/* --- the model ---------------------------------------------------------- */

/* "" for nothing, as net_op tcp-inject reads HEX. */
static void print_hex(const unsigned char *p, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		printf("%02x", p[k]);
}

static void print_replay(const struct sequence *q)
{
	size_t k;
	const char *f;

	printf("  replay: net_op tcp-inject %s %d ",
	       opt.family == 4 ? "127.0.0.1" : "::1", opt.port);
	for (k = 0; k < q->count; k++) {
		printf("%s%" PRIu32 ":", k ? "," : "", q->seg[k].off);
		print_hex(q->seg[k].data, q->seg[k].len);
		if (q->seg[k].flags)
			putchar(':');
		for (f = flag_letters; *f; f++)
			if (q->seg[k].flags & 1u << (f - flag_letters))
				putchar(*f);
	}
	putchar('\n');
}

/* Whether some segment TCP could take carries @byte at position @p. */
static bool carried(const struct sequence *q, size_t p, unsigned char byte)
{
	size_t k;

	for (k = 0; k < q->count; k++) {
		const struct fseg *s = &q->seg[k];

		if (s->flags & F_NOT_DELIVERED)
			continue;
		if (p >= s->off && p < s->off + s->len &&
		    s->data[p - s->off] == byte)
			return true;
	}
	return false;
}

/* Whether TCP may take the byte at @p out of the stream: urgent data. */
static bool urgent(const struct sequence *q, size_t p)
{
	size_t k;

	for (k = 0; k < q->count; k++)
		if ((q->seg[k].flags & (F_URG | F_NOT_DELIVERED)) == F_URG &&
		    q->seg[k].off == p)
			return true;
	return false;
}

#define MAX_POSITION (MAX_TEXT + 2 * MAX_SEG_DATA)

/*
 * Check 2: the bytes delivered are, in order, bytes that segments TCP
 * could take carried at consecutive stream positions, less any urgent
 * byte (the first of a URG segment, pointer 1), which a reader without
 * SO_OOBINLINE does not get.  Returns the first delivered byte that fits
 * no such reading, or @len.
 */
static size_t consistent(const struct sequence *q, const unsigned char *got,
			 size_t len)
{
	static bool reach[MAX_POSITION + 2], next[MAX_POSITION + 2];
	size_t p, s;
	bool any;

	memset(reach, 0, sizeof(reach));
	reach[0] = true;
	for (p = 0; p < len; p++) {
		memset(next, 0, sizeof(next));
		any = false;
		for (s = 0; s <= MAX_POSITION; s++) {
			if (!reach[s])
				continue;
			if (urgent(q, s))
				reach[s + 1] = true;
			if (carried(q, s, got[p])) {
				next[s + 1] = true;
				any = true;
			}
		}
		if (!any)
			return p;
		memcpy(reach, next, sizeof(reach));
	}
	return len;
}

static struct {
	long sequences;
	unsigned long long delivered;
	long violations;
	long inconsistent;
	unsigned long long clean_delivered;
	unsigned long long clean_sent;
	long clean;
	long ends[3];
} total;

static void report(const char *kind, long number, const struct sequence *q,
		   const unsigned char *got, size_t len, enum end end,
		   const char *why, size_t at)
{
	printf("%s %ld: %s at stream byte %zu; got ", kind, number, why, at);
	if (!len)
		putchar('-');
	print_hex(got, len);
	printf(" %s (%s schedule of %zu segments, text ", end_names[end],
	       q->clean ? "clean" : "hostile", q->count);
	print_hex(q->text, q->text_len);
	printf(")\n");
	print_replay(q);
	fflush(stdout);
}

static void judge(long number, const struct sequence *q,
		  const unsigned char *got, size_t len, enum end end)
{
	size_t bad, tail, p;

	total.delivered += len;
	total.ends[end]++;
	bad = utf8_check(got, len, &tail);
	if (bad < len) {
		total.violations++;
		report("violation", number, q, got, len, end,
		       "ill-formed UTF-8 delivered", bad);
	} else if (tail < len && end == END_EOF) {
		total.violations++;
		report("violation", number, q, got, len, end,
		       "a character cut short by the end of the stream", tail);
	}
	p = consistent(q, got, len);
	if (p < len) {
		total.inconsistent++;
		report("inconsistent", number, q, got, len, end,
		       "a byte no segment TCP could take carried", p);
	}
	if (!q->clean)
		return;
	total.clean++;
	total.clean_sent += q->text_len;
	total.clean_delivered += len;
	if (opt.pressure)
		return;
	if (!len || len > q->text_len || memcmp(got, q->text, len)) {
		total.violations++;
		report("violation", number, q, got, len, end,
		       "a clean schedule did not deliver a prefix of its text",
		       0);
	}
}

static void run_sequence(long number)
{
	static struct sequence q;
	static unsigned char got[MAX_RECEIVED];
	struct conn c;
	enum end end;
	size_t k, len;

	generate(&q);
	conn_open(&c);
	for (k = 0; k < q.count; k++)
		send_segment(&c, &q.seg[k], k);
	len = receive(c.rx, got, &end);
	judge(number, &q, got, len, end);
	if (opt.verbose) {
		printf("# %ld: %s, %zu segments, text %zu bytes, got %zu %s\n",
		       number, q.clean ? "clean" : "hostile", q.count,
		       q.text_len, len, end_names[end]);
		fflush(stdout);
	}
	conn_close(&c);
}

/* --pressure H: H connections each left holding "a" E2 (a flow entry). */
static struct conn *hold_connections(int n)
{
	static const struct fseg split = {
		.off = 0, .len = 2, .data = { 0x61, 0xe2 },
	};
	struct conn *held = calloc(n, sizeof(*held));
	int k;

	if (!held)
		die("calloc");
	for (k = 0; k < n; k++) {
		conn_open(&held[k]);
		send_segment(&held[k], &split, 0);
	}
	return held;
}

static long parse(const char *text, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		fprintf(stderr, "tcp_fuzz: %s must be %ld to %ld\n", what, min,
			max);
		usage(NULL);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "count", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "family", required_argument, NULL, 'f' },
		{ "port", required_argument, NULL, 'p' },
		{ "pressure", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	bool seeded = false;
	struct conn *held = NULL;
	long long deadline = 0;
	char *end;
	long k;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'S':
			errno = 0;
			opt.seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-')
				usage("--seed is a decimal number below 2^64");
			seeded = true;
			break;
		case 'n':
			opt.count = parse(optarg, 1, 100000000, "--count");
			break;
		case 't':
			opt.seconds = parse(optarg, 1, 86400 * 7, "--seconds");
			break;
		case 'f':
			opt.family = parse(optarg, 4, 6, "--family");
			if (opt.family == 5)
				usage("--family is 4 or 6");
			break;
		case 'p':
			opt.port = parse(optarg, 1, 65535, "--port");
			break;
		case 'P':
			opt.pressure = parse(optarg, 1, 1000, "--pressure");
			break;
		case 'T':
			opt.timeout_ms = parse(optarg, 1, 60000, "--timeout");
			break;
		case 'v':
			opt.verbose = true;
			break;
		default:
			usage(NULL);
		}
	}
	if (optind != argc)
		usage("no arguments, only options");
	if (!seeded && getrandom(&opt.seed, sizeof(opt.seed), 0) !=
			       sizeof(opt.seed))
		die("getrandom");
	rng_state = opt.seed;
	signal(SIGPIPE, SIG_IGN);
	printf("tcp_fuzz: seed %" PRIu64 " family %d port %d %s %ld%s\n",
	       opt.seed, opt.family, opt.port,
	       opt.seconds ? "seconds" : "count",
	       opt.seconds ? opt.seconds : opt.count,
	       opt.pressure ? " (pressure)" : "");
	fflush(stdout);
	setup();
	if (opt.pressure)
		held = hold_connections(opt.pressure);
	if (opt.seconds)
		deadline = now_ms() + opt.seconds * 1000LL;
	for (k = 0; opt.seconds ? now_ms() < deadline : k < opt.count; k++)
		run_sequence(k);
	total.sequences = k;
	for (k = 0; held && k < opt.pressure; k++)
		conn_close(&held[k]);
	free(held);
	tcp_injector_close(&injector);
	close(listener);
	printf("# clean schedules %ld of %ld: %llu of their %llu bytes arrived; "
	       "ends: open %ld eof %ld reset %ld\n",
	       total.clean, total.sequences, total.clean_delivered,
	       total.clean_sent, total.ends[END_OPEN], total.ends[END_EOF],
	       total.ends[END_RESET]);
	printf("seed %" PRIu64 " sequences %ld delivered %llu violations %ld "
	       "inconsistent %ld clean-delivered %llu\n",
	       opt.seed, total.sequences, total.delivered, total.violations,
	       total.inconsistent, total.clean_delivered);
	return total.violations || total.inconsistent ? 1 : 0;
}
