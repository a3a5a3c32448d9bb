/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Deterministic corpora for `make bench`: the same bytes on every machine
 * and every run, written to files so that every implementation (C, node,
 * Python) measures exactly the same input.
 */
#ifndef UTF8GUARD_BENCH_CORPUS_H
#define UTF8GUARD_BENCH_CORPUS_H

#include <stddef.h>
#include <stdint.h>

/* Size of the text corpora. */
#define CORPUS_TEXT_SIZE 65536
/* Names per name corpus. */
#define CORPUS_NAMES 1024

enum corpus_kind {
	CORPUS_ASCII,
	CORPUS_LATIN,
	CORPUS_CJK,
	CORPUS_EMOJI,
	CORPUS_ILL_FORMED,	/* Latin, one overlong '.' 40 bytes from the end */
	CORPUS_KIND_COUNT
};

const char *corpus_kind_name(enum corpus_kind kind);

/*
 * Fill @buf with @size bytes of @kind text: whole characters, padded with
 * ASCII to exactly @size.  @seed varies the text (names use their index).
 */
void corpus_fill(enum corpus_kind kind, uint64_t seed, uint8_t *buf,
		 size_t size);

#endif /* UTF8GUARD_BENCH_CORPUS_H */
