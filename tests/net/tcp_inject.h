/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_inject - hand-made TCP segments, sent over raw sockets.
 *
 * For the tests that play a TCP sender the kernel would never be: data at
 * a chosen sequence number on someone else's connection, a bad checksum,
 * odd flags, a port nobody listens on, a segment cut into IP fragments.
 * Nothing is received: whoever uses this watches the real sockets.
 *
 * IPv4 and IPv6.  The TCP checksum is always computed here, over the
 * pseudo-header of the addresses given, so it can be made wrong on
 * purpose; the source address is given to the kernel with each segment
 * (IP_PKTINFO, IPV6_PKTINFO), so the one summed is the one sent.  It must
 * be an address of the host (any of 127.0.0.0/8 on loopback), except with
 * TCP_INJECT_SPOOFED (IPv4), which writes the IP header itself.
 */
#ifndef NET_TCP_INJECT_H
#define NET_TCP_INJECT_H

#include <netinet/in.h>
#include <netinet/tcp.h>	/* TH_FIN, TH_SYN, TH_RST, TH_PUSH, TH_ACK, TH_URG */
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* The largest payload of one segment: headers and all fit loopback's MTU. */
#define TCP_INJECT_MAX_DATA 65000

/*
 * With TCP_INJECT_FRAGMENTS, over IPv6 the first fragment must hold the
 * whole TCP header (RFC 8200 4.5; Linux drops it otherwise) and be a
 * multiple of 8 bytes: 24, so the payload needs 5 bytes or more.
 */
#define TCP_INJECT_FRAGMENTS_MIN_DATA6 5

/* How a segment is sent (struct tcp_segment.send). */
enum {
	TCP_INJECT_BAD_SUM = 1 << 0,	/* the checksum off by one */
	TCP_INJECT_FRAGMENTS = 1 << 1,	/* as two IP fragments */
	TCP_INJECT_SPOOFED = 1 << 2,	/* IPv4 only: an IP header of ours,
					 * so @from may be any address */
};

/* An IPv4 or IPv6 address with its port, as the socket calls take it. */
union tcp_inject_addr {
	struct sockaddr sa;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
};

struct tcp_segment {
	union tcp_inject_addr from;	/* source address and port */
	union tcp_inject_addr to;	/* destination address and port */
	uint32_t seq;
	uint32_t ack;
	uint8_t flags;			/* TH_* bits */
	uint16_t window;
	uint16_t urgent;		/* the urgent pointer, with TH_URG */
	const void *data;
	size_t len;
	unsigned int send;		/* TCP_INJECT_* bits */
};

/*
 * Two raw sockets of one family: an IPPROTO_TCP one, for which the kernel
 * writes the IP header, and an IPPROTO_RAW one (IP_HDRINCL), on which the
 * IP header is ours, for fragments.  Open one and send any number of
 * segments with it: a flood needs no socket per segment.
 */
struct tcp_injector {
	int family;		/* AF_INET or AF_INET6 */
	int tcp_fd;
	int ip_fd;
	unsigned char *segment;	/* the TCP header and payload being sent */
	unsigned char *packet;	/* an IP header and a fragment of it */
};

/* Return: 0, or -1 with errno set (EPERM without CAP_NET_RAW). */
int tcp_injector_open(struct tcp_injector *inj, int family);

/*
 * Send @seg, whose addresses are of the injector's family.
 * Return: 0, or -1 with errno set (EMSGSIZE past TCP_INJECT_MAX_DATA,
 * EINVAL for fragments of too short an IPv6 segment).
 */
int tcp_inject(struct tcp_injector *inj, const struct tcp_segment *seg);

void tcp_injector_close(struct tcp_injector *inj);

/*
 * The rcv_nxt and snd_nxt of connected socket @fd, read in TCP repair mode
 * (CAP_NET_ADMIN), which is left again without a window probe: the
 * sequence numbers an injected segment needs to land at a chosen offset.
 * Return: 0, or -1 with errno set (a closed or reset socket refuses it).
 */
int tcp_inject_sequences(int fd, uint32_t *rcv_nxt, uint32_t *snd_nxt);

#endif /* NET_TCP_INJECT_H */
