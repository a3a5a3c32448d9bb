// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_inject - hand-made TCP segments, sent over raw sockets (see
 * tcp_inject.h).  A segment is built whole (TCP header, payload, checksum)
 * and then either handed to the kernel, which puts an IP header before it,
 * or cut in two, each piece behind an IP header of ours.
 */
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "tcp_inject.h"

#define TCP_HEADER 20		/* no options */
#define MAX_SEGMENT (TCP_HEADER + TCP_INJECT_MAX_DATA)
#define MAX_IP_HEADERS (sizeof(struct ip6_hdr) + sizeof(struct ip6_frag))

/*
 * The first fragment's share of the segment: a multiple of 8 bytes, as all
 * but the last fragment's must be.  24 is the TCP header and 4 bytes of
 * payload, so the payload itself is split; a shorter segment (IPv4 only)
 * is split inside its TCP header instead, at 16.
 */
#define FIRST_FRAGMENT 24
#define FIRST_FRAGMENT_SHORT 16

int tcp_injector_open(struct tcp_injector *inj, int family)
{
	int err;

	inj->family = family;
	inj->tcp_fd = -1;
	inj->ip_fd = -1;
	inj->segment = malloc(MAX_SEGMENT);
	inj->packet = malloc(MAX_IP_HEADERS + MAX_SEGMENT);
	if (!inj->segment || !inj->packet) {
		errno = ENOMEM;
		goto fail;
	}
	inj->tcp_fd = socket(family, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_TCP);
	if (inj->tcp_fd < 0)
		goto fail;
	/* IPPROTO_RAW implies IP_HDRINCL, for IPv6 too (Linux). */
	inj->ip_fd = socket(family, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (inj->ip_fd < 0)
		goto fail;
	return 0;
fail:
	err = errno;
	tcp_injector_close(inj);
	errno = err;
	return -1;
}

void tcp_injector_close(struct tcp_injector *inj)
{
	if (inj->tcp_fd >= 0)
		close(inj->tcp_fd);
	if (inj->ip_fd >= 0)
		close(inj->ip_fd);
	free(inj->segment);
	free(inj->packet);
	inj->tcp_fd = -1;
	inj->ip_fd = -1;
	inj->segment = NULL;
	inj->packet = NULL;
}

/* RFC 1071: the 16-bit one's complement sum, folded later. */
static uint32_t sum16(uint32_t sum, const unsigned char *p, size_t len)
{
	size_t k;

	for (k = 0; k + 1 < len; k += 2)
		sum += p[k] << 8 | p[k + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * The checksum over the pseudo-header (RFC 9293 3.1: source, destination,
 * zero, protocol, 16-bit length; RFC 8200 8.1: source, destination, 32-bit
 * length, three zeros, next header) and the @len bytes of @tcp.
 */
static uint16_t tcp_checksum(const struct tcp_segment *seg,
			     const unsigned char *tcp, size_t len)
{
	unsigned char pseudo[40] = { 0 };
	size_t size;

	if (seg->from.sa.sa_family == AF_INET) {
		memcpy(pseudo, &seg->from.v4.sin_addr, 4);
		memcpy(pseudo + 4, &seg->to.v4.sin_addr, 4);
		pseudo[9] = IPPROTO_TCP;
		pseudo[10] = len >> 8;
		pseudo[11] = len & 0xff;
		size = 12;
	} else {
		memcpy(pseudo, &seg->from.v6.sin6_addr, 16);
		memcpy(pseudo + 16, &seg->to.v6.sin6_addr, 16);
		pseudo[34] = len >> 8;
		pseudo[35] = len & 0xff;
		pseudo[39] = IPPROTO_TCP;
		size = 40;
	}
	return fold(sum16(sum16(0, pseudo, size), tcp, len));
}

static uint16_t port_of(const union tcp_inject_addr *a)
{
	return a->sa.sa_family == AF_INET ? a->v4.sin_port : a->v6.sin6_port;
}

/* @seg's TCP header and payload into inj->segment; returns the length. */
static size_t build_segment(struct tcp_injector *inj,
			    const struct tcp_segment *seg)
{
	size_t len = TCP_HEADER + seg->len;
	struct tcphdr th = {
		.th_sport = port_of(&seg->from),
		.th_dport = port_of(&seg->to),
		.th_seq = htonl(seg->seq),
		.th_ack = htonl(seg->ack),
		.th_off = TCP_HEADER / 4,
		.th_flags = seg->flags,
		.th_win = htons(seg->window),
		.th_urp = htons(seg->urgent),
	};
	uint16_t sum;

	memcpy(inj->segment, &th, TCP_HEADER);
	memcpy(inj->segment + TCP_HEADER, seg->data, seg->len);
	sum = tcp_checksum(seg, inj->segment, len);
	/* XOR, not +1: 0xffff + 1 would be 0, the same sum in one's
	 * complement, and a "bad" checksum that TCP accepts.
	 */
	if (seg->send & TCP_INJECT_BAD_SUM)
		sum ^= 1;
	sum = htons(sum);
	memcpy(inj->segment + offsetof(struct tcphdr, th_sum), &sum, 2);
	return len;
}

/* The destination as a raw socket takes it: for IPv6 the port would be
 * read as the protocol number (rawv6_sendmsg()), so no port.
 */
static socklen_t raw_destination(const struct tcp_segment *seg,
				 union tcp_inject_addr *to)
{
	*to = seg->to;
	if (to->sa.sa_family == AF_INET) {
		to->v4.sin_port = 0;
		return sizeof(to->v4);
	}
	to->v6.sin6_port = 0;
	return sizeof(to->v6);
}

static int sent(ssize_t done, size_t len)
{
	if (done == (ssize_t)len)
		return 0;
	if (done >= 0)
		errno = EMSGSIZE;
	return -1;
}

/* The whole segment on the IPPROTO_TCP socket, from seg->from's address. */
static int send_whole(struct tcp_injector *inj, const struct tcp_segment *seg,
		      size_t len)
{
	union {
		struct cmsghdr header;
		unsigned char bytes[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	} control;
	struct iovec iov = { .iov_base = inj->segment, .iov_len = len };
	struct in6_pktinfo info6 = { .ipi6_addr = seg->from.v6.sin6_addr };
	struct in_pktinfo info = { .ipi_spec_dst = seg->from.v4.sin_addr };
	union tcp_inject_addr to;
	struct msghdr msg = {
		.msg_name = &to,
		.msg_namelen = raw_destination(seg, &to),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = &control,
	};
	struct cmsghdr *cm = &control.header;

	memset(&control, 0, sizeof(control));
	if (inj->family == AF_INET) {
		cm->cmsg_level = IPPROTO_IP;
		cm->cmsg_type = IP_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(info));
		memcpy(CMSG_DATA(cm), &info, sizeof(info));
		msg.msg_controllen = CMSG_SPACE(sizeof(info));
	} else {
		cm->cmsg_level = IPPROTO_IPV6;
		cm->cmsg_type = IPV6_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(info6));
		memcpy(CMSG_DATA(cm), &info6, sizeof(info6));
		msg.msg_controllen = CMSG_SPACE(sizeof(info6));
	}
	return sent(sendmsg(inj->tcp_fd, &msg, 0), len);
}

/*
 * Bytes [@off, @off + @n) of the segment as one fragment of datagram @id,
 * behind an IP header (and for IPv6 a Fragment header) of ours.
 */
static int send_fragment(struct tcp_injector *inj,
			 const struct tcp_segment *seg, uint32_t id,
			 size_t off, size_t n, bool more)
{
	union tcp_inject_addr to;
	socklen_t to_len = raw_destination(seg, &to);
	size_t header;

	if (inj->family == AF_INET) {
		/* The kernel fills in the header checksum. */
		struct iphdr ip = {
			.version = 4,
			.ihl = sizeof(ip) / 4,
			.tot_len = htons(sizeof(ip) + n),
			.id = htons(id),
			.frag_off = htons(off / 8 | (more ? IP_MF : 0)),
			.ttl = 64,
			.protocol = IPPROTO_TCP,
			.saddr = seg->from.v4.sin_addr.s_addr,
			.daddr = seg->to.v4.sin_addr.s_addr,
		};

		header = sizeof(ip);
		memcpy(inj->packet, &ip, header);
	} else {
		struct ip6_hdr ip6 = {
			.ip6_flow = htonl(6 << 28),	/* version 6 */
			.ip6_plen = htons(sizeof(struct ip6_frag) + n),
			.ip6_nxt = IPPROTO_FRAGMENT,
			.ip6_hlim = 64,
			.ip6_src = seg->from.v6.sin6_addr,
			.ip6_dst = seg->to.v6.sin6_addr,
		};
		/* The offset in 8-byte units, in the top 13 bits: @off. */
		struct ip6_frag frag = {
			.ip6f_nxt = IPPROTO_TCP,
			.ip6f_offlg = htons(off) | (more ? IP6F_MORE_FRAG : 0),
			.ip6f_ident = htonl(id),
		};

		memcpy(inj->packet, &ip6, sizeof(ip6));
		memcpy(inj->packet + sizeof(ip6), &frag, sizeof(frag));
		header = sizeof(ip6) + sizeof(frag);
	}
	memcpy(inj->packet + header, inj->segment + off, n);
	return sent(sendto(inj->ip_fd, inj->packet, header + n, 0, &to.sa,
			   to_len), header + n);
}

/*
 * Two fragments, the first a multiple of 8 bytes, of a datagram with a
 * random identification (with DF clear) that the receiver reassembles.
 */
static int send_fragments(struct tcp_injector *inj,
			  const struct tcp_segment *seg, size_t len)
{
	size_t first = len > FIRST_FRAGMENT ? FIRST_FRAGMENT :
					      FIRST_FRAGMENT_SHORT;
	uint32_t id = 0;

	if (inj->family == AF_INET6 && first != FIRST_FRAGMENT) {
		errno = EINVAL;
		return -1;
	}
	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		return -1;
	if (inj->family == AF_INET)
		id &= 0xffff;
	if (!id)
		id = 1;		/* an IPv4 0 would be replaced by the kernel's */
	if (send_fragment(inj, seg, id, 0, first, true) < 0)
		return -1;
	return send_fragment(inj, seg, id, first, len - first, false);
}

#ifndef TCP_REPAIR_OFF_NO_WP
#define TCP_REPAIR_OFF_NO_WP -1
#endif

static int set_int(int fd, int name, int value)
{
	return setsockopt(fd, IPPROTO_TCP, name, &value, sizeof(value));
}

int tcp_inject_sequences(int fd, uint32_t *rcv_nxt, uint32_t *snd_nxt)
{
	socklen_t len = sizeof(uint32_t);
	int err;

	if (set_int(fd, TCP_REPAIR, TCP_REPAIR_ON) < 0)
		return -1;
	if (set_int(fd, TCP_REPAIR_QUEUE, TCP_RECV_QUEUE) < 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, rcv_nxt, &len) < 0 ||
	    set_int(fd, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE) < 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, snd_nxt, &len) < 0) {
		err = errno;
		set_int(fd, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP);
		errno = err;
		return -1;
	}
	return set_int(fd, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP);
}

int tcp_inject(struct tcp_injector *inj, const struct tcp_segment *seg)
{
	size_t len;

	if (seg->from.sa.sa_family != inj->family ||
	    seg->to.sa.sa_family != inj->family) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (seg->len > TCP_INJECT_MAX_DATA) {
		errno = EMSGSIZE;
		return -1;
	}
	len = build_segment(inj, seg);
	if (seg->send & TCP_INJECT_FRAGMENTS)
		return send_fragments(inj, seg, len);
	if (seg->send & TCP_INJECT_SPOOFED) {
		if (inj->family != AF_INET) {
			errno = EINVAL;
			return -1;
		}
		/* Identification 0, no fragment flags: one whole datagram. */
		return send_fragment(inj, seg, 0, 0, len, false);
	}
	return send_whole(inj, seg, len);
}
