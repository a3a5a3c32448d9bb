// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a file for validation without loading it whole: regular files
 * are mapped, everything else is streamed through the core's streaming
 * validator in fixed-size chunks.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_file.h"

#define CHUNK_BYTES (256 * 1024)
/* Bytes of the previous chunk kept for context (more than a carry). */
#define HISTORY_BYTES 16

struct relay {
	file_error_fn fn;
	void *arg;
	struct byte_window window;
};

static bool relay_error(const struct utf8guard_report *report, void *arg)
{
	struct relay *relay = arg;

	return relay->fn(report, &relay->window, relay->arg);
}

static int validate_mapped(int fd, size_t size, struct relay *relay)
{
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

	if (map == MAP_FAILED)
		return -1;
	madvise(map, size, MADV_SEQUENTIAL);
	relay->window.bytes = map;
	relay->window.len = size;
	relay->window.base = 0;
	utf8guard_scan(map, size, relay_error, relay);
	munmap(map, size);
	return 0;
}

static int validate_streamed(int fd, struct relay *relay, u64 *size)
{
	static unsigned char buf[HISTORY_BYTES + CHUNK_BYTES];
	struct utf8guard_stream stream;
	size_t history = 0;
	ssize_t got;

	utf8guard_stream_init(&stream);
	*size = 0;
	for (;;) {
		got = read(fd, buf + history, CHUNK_BYTES);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		relay->window.bytes = buf;
		relay->window.len = history + (size_t)got;
		relay->window.base = *size - history;
		utf8guard_stream_feed(&stream, buf + history, (size_t)got,
				      relay_error, relay);
		*size += (u64)got;
		if (stream.stopped)
			return 0;
		/* Keep the tail: a held sequence may be reported later. */
		history = relay->window.len < HISTORY_BYTES ?
			  relay->window.len : HISTORY_BYTES;
		memmove(buf, buf + relay->window.len - history, history);
		relay->window.len = history;
		relay->window.base = *size - history;
	}
	utf8guard_stream_end(&stream, relay_error, relay);
	return 0;
}

int input_file_validate(const char *path, file_error_fn fn, void *arg,
			u64 *size)
{
	struct relay relay = { .fn = fn, .arg = arg };
	struct stat st;
	int fd, ret, saved;

	if (!strcmp(path, "-"))
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		ret = -1;
	} else if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		ret = -1;
	} else if (S_ISREG(st.st_mode) && st.st_size > 0 &&
		   validate_mapped(fd, (size_t)st.st_size, &relay) == 0) {
		*size = (u64)st.st_size;
		ret = 0;
	} else {
		ret = validate_streamed(fd, &relay, size);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}
