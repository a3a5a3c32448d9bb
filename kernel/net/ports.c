// SPDX-License-Identifier: GPL-2.0
/*
 * The watched port set of utf8guard_nf.ko: "udp:514 tcp:80 tcp:8000-8090".
 *
 * Words are PROTO:PORT or PROTO:FIRST-LAST, PROTO is tcp or udp, ports are
 * decimal 1 to 65535 without leading zeros, FIRST <= LAST; words are
 * separated by spaces, tabs or commas, with one optional trailing newline.
 * At most NET_PORTS_WORDS_MAX words.  An empty text is the empty set.  Formatting gives the canonical form:
 * tcp before udp, ascending, overlapping and adjacent ranges merged.
 */
#include <linux/bitmap.h>
#include <linux/in.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "net_hook.h"

#define PORT_COUNT NET_PORT_COUNT
/* So that the canonical text always fits in NET_PORTS_TEXT_MAX. */
#define NET_PORTS_WORDS_MAX 128

/* Parse a port: 1 to 65535, decimal, no sign, no leading zero. */
static const char *parse_port(const char *text, size_t len, u32 *port)
{
	size_t k;
	u32 value = 0;

	if (!len)
		return "missing port number";
	if (len > 5)
		return "port number above 65535";
	if (text[0] == '0')
		return "port numbers are 1 to 65535, without leading zeros";
	for (k = 0; k < len; k++) {
		if (text[k] < '0' || text[k] > '9')
			return "port numbers are decimal digits";
		value = value * 10 + (text[k] - '0');
	}
	if (value > 65535)
		return "port number above 65535";
	*port = value;
	return NULL;
}

static const char *parse_word(const char *word, size_t len,
			      struct net_ports *ports)
{
	unsigned long *map;
	const char *dash, *error;
	u32 first, last;

	if (len > 4 && !memcmp(word, "tcp:", 4))
		map = ports->tcp;
	else if (len > 4 && !memcmp(word, "udp:", 4))
		map = ports->udp;
	else if (memchr(word, ':', len))
		return "protocol must be tcp or udp, e.g. tcp:80";
	else
		return "expected PROTO:PORT or PROTO:FIRST-LAST, e.g. udp:514";
	word += 4;
	len -= 4;
	dash = memchr(word, '-', len);
	error = parse_port(word, dash ? dash - word : len, &first);
	if (error)
		return error;
	last = first;
	if (dash) {
		error = parse_port(dash + 1, len - (dash + 1 - word), &last);
		if (error)
			return error;
		if (last < first)
			return "range goes down (FIRST-LAST needs FIRST <= LAST)";
	}
	bitmap_set(map, first, last - first + 1);
	return NULL;
}

/**
 * net_ports_parse() - parse a port set
 * @text: the text (not necessarily NUL-terminated)
 * @len: its length
 * @error: set to why the text was refused
 *
 * Return: the set (free with net_ports_free()), NULL with *@error set
 * when the text does not parse, or ERR_PTR(-ENOMEM).
 */
struct net_ports *net_ports_parse(const char *text, size_t len,
				  const char **error)
{
	struct net_ports *ports;
	size_t pos = 0, start, length, words = 0;

	ports = kzalloc(sizeof(*ports), GFP_KERNEL);
	if (!ports)
		return ERR_PTR(-ENOMEM);
	while (utf8guard_next_word(text, len, UTF8GUARD_WORDS_TRAILING_NEWLINE,
				   &pos, &start, &length)) {
		*error = ++words > NET_PORTS_WORDS_MAX ?
			"more than 128 words" :
			parse_word(text + start, length, ports);
		if (*error) {
			kfree(ports);
			return NULL;
		}
	}
	return ports;
}

void net_ports_free(struct net_ports *ports)
{
	kfree(ports);
}

/* Whether any port of @protocol (IPPROTO_TCP or IPPROTO_UDP) is watched. */
bool net_ports_any(const struct net_ports *ports, u8 protocol)
{
	const unsigned long *map = protocol == IPPROTO_TCP ? ports->tcp :
				   ports->udp;

	return find_first_bit(map, PORT_COUNT) < PORT_COUNT;
}

static size_t format_map(const unsigned long *map, const char *proto,
			 char *buf, size_t size, size_t n)
{
	unsigned int first, last;

	for_each_set_bitrange(first, last, map, PORT_COUNT) {
		if (n)
			n += scnprintf(buf + n, size - n, " ");
		if (last - first == 1)
			n += scnprintf(buf + n, size - n, "%s:%u", proto, first);
		else
			n += scnprintf(buf + n, size - n, "%s:%u-%u", proto,
				       first, last - 1);
	}
	return n;
}

/**
 * net_ports_format() - the canonical text of a port set
 * @ports: the set
 * @buf: where to write it, NUL-terminated ("" for the empty set)
 * @size: size of @buf; the text is cut at @size - 1 bytes
 *
 * Return: the length written.
 */
size_t net_ports_format(const struct net_ports *ports, char *buf,
			size_t size)
{
	size_t n;

	buf[0] = '\0';
	n = format_map(ports->tcp, "tcp", buf, size, 0);
	return format_map(ports->udp, "udp", buf, size, n);
}
