// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the validator core.  For each input: the first
 * error and the full error list against the reference, the report
 * invariants, and the streaming validator against utf8guard_scan() fed in
 * chunks whose lengths the input's own bytes choose (so the fuzzer steers
 * the boundaries), in chunks of up to 256 bytes chosen the same way, then
 * byte by byte.  All of it on every path of the core this CPU has (scalar,
 * SSE4.1, AVX2, AVX-512; each taking every buffer however short, and the
 * scalar path's plain build too where it defaults to its BMI2 build), so
 * the paths are fuzzed against the reference and so against each other.
 * abort() on any disagreement.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined (see Makefile.inc).
 */
#include <stdlib.h>

#include "differential.h"
#include "utf8guard_vector.h"

/*
 * Cut where the input says: from each cut, the byte there plus the number
 * of cuts so far, modulo @modulus, is the next chunk's length (0: an empty
 * chunk).
 */
static size_t cuts_from_input(const u8 *data, size_t size, size_t *cuts,
			      size_t max, size_t modulus)
{
	size_t count = 0;
	size_t pos = 0;
	size_t step;

	while (pos < size && count < max) {
		step = (data[pos] + count) % modulus;
		if (step > size - pos)
			break;
		pos += step;
		cuts[count++] = pos;
	}
	return count;
}

static size_t bytewise_cuts(size_t size, size_t *cuts)
{
	size_t k;

	for (k = 1; k < size; k++)
		cuts[k - 1] = k;
	return size ? size - 1 : 0;
}

/* The checks on the path selected; abort() on any disagreement. */
static void check_path(const uint8_t *data, size_t size, size_t *cuts,
		       size_t max_cuts, struct differential_scratch *scratch)
{
	const unsigned int checks = CHECK_FIRST | CHECK_ALL |
				    CHECK_INVARIANTS | CHECK_STREAM |
				    CHECK_MAY_COMPLETE;
	size_t count;

	count = cuts_from_input(data, size, cuts, max_cuts, 7);
	if (!differential_check(data, size, cuts, count, checks, scratch,
				stderr))
		abort();
	count = cuts_from_input(data, size, cuts, max_cuts, 257);
	if (!differential_check(data, size, cuts, count, CHECK_STREAM, scratch,
				stderr))
		abort();
	count = bytewise_cuts(size, cuts);
	if (!differential_check(data, size, cuts, count, CHECK_STREAM, scratch,
				stderr))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct differential_scratch scratch;
	static size_t *cuts;
	size_t max_cuts = 2 * size + 2;
	unsigned int isa;

	if (size > scratch.capacity || !cuts) {
		differential_scratch_free(&scratch);
		free(cuts);
		cuts = malloc(max_cuts * sizeof(*cuts));
		if (!cuts || differential_scratch_init(&scratch, size))
			abort();
	}
	for (isa = 0; isa < UTF8GUARD_VECTOR_ISA_COUNT; isa++)
		if (utf8guard_vector_select(isa, 0))
			check_path(data, size, cuts, max_cuts, &scratch);
	/* The scalar path's plain build, where BMI2 is the default. */
	if (utf8guard_scalar_bmi2()) {
		utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0);
		utf8guard_scalar_use_bmi2(false);
		check_path(data, size, cuts, max_cuts, &scratch);
		utf8guard_scalar_use_bmi2(true);
	}
	return 0;
}
