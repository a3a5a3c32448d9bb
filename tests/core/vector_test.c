// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector paths against the scalar path, where they differ: long
 * buffers, 64-byte block edges and 4096-byte chunk edges.
 *
 * 1. Sweep: for every background (ASCII, Latin, CJK, emoji: each a run of
 *    whole characters), every ill-formed sequence of a list (the
 *    overlongs of "/../", surrogates, truncations, stray continuations,
 *    F5..FF, a lead cut by the end), and every offset 0..300 and around
 *    the 4096-byte chunk edge: the first error report of each path.
 * 2. Random: buffers of random characters up to 10,000 bytes with 0 to 3
 *    random corruptions (bytes replaced, inserted, deleted), biased
 *    towards block and chunk edges: the first report, the number of
 *    errors and utf8guard_valid_prefix() of each path.
 * 3. The validators' own contract (utf8guard_vector.h), called directly,
 *    final and not: the boundary they return is a character boundary
 *    at or before the scalar prefix, and "clean" is right.
 *
 * Every path this CPU has runs, each with the minimum length 0, and the
 * scalar path's plain build (scalar-plain) where the scalar path defaults
 * to its BMI2 build; the output names the paths run and those the CPU
 * lacks.
 *
 * Usage: vector_test [--random N (200000)] [--seed S]
 *        vector_test --list   (the paths besides the default scalar one
 *                              this CPU has, one a line)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_utf8_encode.h"
#include "array_size.h"
#include "report_compare.h"
#include "utf8guard_core.h"
#include "utf8guard_vector.h"

#define MAX_BUFFER 10240
#define MAX_PRINTED 10

/*
 * The paths compared: enum utf8guard_vector_isa, and the scalar path's
 * plain build where it defaults to its BMI2 build.
 */
#define PATH_SCALAR_PLAIN UTF8GUARD_VECTOR_ISA_COUNT
static unsigned int paths[UTF8GUARD_VECTOR_ISA_COUNT + 1];
static unsigned int path_count;
static uint64_t checks, failures;
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A random scalar value, of 1 to 4 bytes as @kind says (0: any). */
static u32 random_char(unsigned int kind)
{
	u32 cp;

	switch (kind ? kind : 1 + rng() % 4) {
	case 1:
		return 0x20 + rng() % 0x5F;
	case 2:
		return 0x80 + rng() % (0x800 - 0x80);
	case 3:
		do
			cp = 0x800 + rng() % (0x10000 - 0x800);
		while (cp >= 0xD800 && cp <= 0xDFFF);
		return cp;
	default:
		return 0x10000 + rng() % (0x110000 - 0x10000);
	}
}

/* Fill @buf with whole characters of @kind up to exactly @len bytes. */
static void fill(u8 *buf, size_t len, unsigned int kind)
{
	u8 one[4];
	size_t pos = 0, n;

	while (pos < len) {
		n = test_utf8_encode(random_char(kind), one);
		if (n > len - pos)
			n = test_utf8_encode(random_char(1), one);
		memcpy(buf + pos, one, n);
		pos += n;
	}
}

static void print_input(const char *what, const u8 *buf, size_t len,
			size_t near)
{
	size_t from = near > 8 ? near - 8 : 0;
	size_t k;

	printf("vector: FAIL %s (length %zu), bytes from %zu:", what, len,
	       from);
	for (k = from; k < len && k < from + 24; k++)
		printf(" %02X", buf[k]);
	printf("\n");
}

struct outcome {
	bool ill_formed;
	struct utf8guard_report first;
	uint64_t errors;
	size_t prefix;
};

static const char *path_name(unsigned int path)
{
	return path == PATH_SCALAR_PLAIN ? "scalar-plain" :
	       utf8guard_vector_isa_name(path);
}

static void run_path(unsigned int path, const u8 *buf, size_t len,
		     struct outcome *out)
{
	bool plain = path == PATH_SCALAR_PLAIN;

	if (!utf8guard_vector_select(plain ? UTF8GUARD_VECTOR_SCALAR : path,
				     0))
		abort();
	if (plain)
		utf8guard_scalar_use_bmi2(false);
	out->ill_formed = utf8guard_first_error(buf, len, &out->first);
	out->errors = utf8guard_scan(buf, len, NULL, NULL);
	out->prefix = utf8guard_valid_prefix(buf, len);
	if (plain)
		utf8guard_scalar_use_bmi2(true);
}

/* Every path on @buf against the scalar one. */
static void compare_paths(const char *what, const u8 *buf, size_t len)
{
	struct outcome scalar, other;
	unsigned int k;

	run_path(UTF8GUARD_VECTOR_SCALAR, buf, len, &scalar);
	for (k = 0; k < path_count; k++) {
		if (paths[k] == UTF8GUARD_VECTOR_SCALAR)
			continue;
		run_path(paths[k], buf, len, &other);
		checks++;
		if (other.ill_formed == scalar.ill_formed &&
		    (!scalar.ill_formed ||
		     core_reports_equal(&other.first, &scalar.first)) &&
		    other.errors == scalar.errors &&
		    other.prefix == scalar.prefix)
			continue;
		if (failures++ < MAX_PRINTED) {
			print_input(what, buf, len, scalar.prefix);
			printf("vector:   scalar: prefix %zu, %" PRIu64 " errors, first at %" PRIu64 "; %s: prefix %zu, %" PRIu64 " errors, first at %" PRIu64 "\n",
			       scalar.prefix, scalar.errors,
			       scalar.ill_formed ? scalar.first.offset : len,
			       path_name(paths[k]),
			       other.prefix, other.errors,
			       other.ill_formed ? other.first.offset : len);
		}
	}
}

/* The ill-formed sequences the sweep plants. */
static const struct {
	const char *name;
	u8 bytes[4];
	size_t length;
} planted[] = {
	{ "overlong '.' C0 AE", { 0xC0, 0xAE }, 2 },
	{ "overlong '/' C0 AF", { 0xC0, 0xAF }, 2 },
	{ "overlong NUL C0 80", { 0xC0, 0x80 }, 2 },
	{ "overlong E0 80 AE", { 0xE0, 0x80, 0xAE }, 3 },
	{ "overlong F0 80 80 AF", { 0xF0, 0x80, 0x80, 0xAF }, 4 },
	{ "overlong F0 8F BF BF", { 0xF0, 0x8F, 0xBF, 0xBF }, 4 },
	{ "surrogate ED A0 80", { 0xED, 0xA0, 0x80 }, 3 },
	{ "surrogate ED BF BF", { 0xED, 0xBF, 0xBF }, 3 },
	{ "above U+10FFFF F4 90 80 80", { 0xF4, 0x90, 0x80, 0x80 }, 4 },
	{ "F5 80 80 80", { 0xF5, 0x80, 0x80, 0x80 }, 4 },
	{ "FF", { 0xFF }, 1 },
	{ "FE", { 0xFE }, 1 },
	{ "stray continuation 80", { 0x80 }, 1 },
	{ "stray continuation BF", { 0xBF }, 1 },
	{ "cut 2-byte C3", { 0xC3 }, 1 },
	{ "cut 3-byte E2 82", { 0xE2, 0x82 }, 2 },
	{ "cut 4-byte F0 9F 98", { 0xF0, 0x9F, 0x98 }, 3 },
	{ "cut 4-byte F4 8F", { 0xF4, 0x8F }, 2 },
	{ "one too many 80 after C3 A9", { 0xC3, 0xA9, 0x80 }, 3 },
	{ "lead then lead E0 E0", { 0xE0, 0xE0 }, 2 },
};

static void sweep(void)
{
	static u8 buf[2 * UTF8GUARD_VECTOR_CHUNK + 256];
	static const char *const backgrounds[] = {
		"any", "ASCII", "Latin", "CJK", "emoji"
	};
	char what[128];
	size_t p, t, len, at;
	unsigned int kind;

	for (kind = 0; kind < 5; kind++) {
		for (t = 0; t < ARRAY_SIZE(planted); t++) {
			for (p = 0; p < 300 + 2 * 140; p++) {
				/* 0..299, then around the chunk edge. */
				at = p < 300 ? p : UTF8GUARD_VECTOR_CHUNK -
						   140 + (p - 300);
				len = at + planted[t].length + rng() % 200;
				fill(buf, len, kind ? kind : 0);
				/* Start the bad sequence on a boundary. */
				while (at && (buf[at] & 0xC0) == 0x80)
					at--;
				memcpy(buf + at, planted[t].bytes,
				       planted[t].length);
				snprintf(what, sizeof(what), "%s at %zu in %s",
					 planted[t].name, at, backgrounds[kind]);
				compare_paths(what, buf, len);
				/* The same, ending right after it. */
				compare_paths(what, buf, at + planted[t].length);
			}
		}
	}
}

/* A position biased towards 64-byte block and chunk edges. */
static size_t edge_position(size_t len)
{
	size_t at;

	switch (rng() % 3) {
	case 0:
		at = rng() % len;
		break;
	case 1:
		at = (rng() % (len / UTF8GUARD_VECTOR_BLOCK + 1)) *
		     UTF8GUARD_VECTOR_BLOCK + rng() % 8 - 4;
		break;
	default:
		at = UTF8GUARD_VECTOR_CHUNK * (1 + rng() % 2) + rng() % 8 - 4;
		break;
	}
	return at < len ? at : rng() % len;
}

static void random_buffers(unsigned long count)
{
	static u8 buf[MAX_BUFFER + 16];
	size_t len, at;
	unsigned int n;
	unsigned long i;

	for (i = 0; i < count; i++) {
		len = rng() % 8 ? 1 + rng() % 600 : 1 + rng() % MAX_BUFFER;
		fill(buf, len, rng() % 5);
		for (n = rng() % 4; n; n--) {
			at = edge_position(len);
			switch (rng() % 3) {
			case 0:
				buf[at] = rng();
				break;
			case 1:
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = rng();
				len++;
				break;
			default:
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
				break;
			}
			if (!len)
				break;
			if (len > MAX_BUFFER)
				len = MAX_BUFFER;
		}
		compare_paths("random buffer", buf, len);
	}
}

typedef size_t (*validator_fn)(const u8 *buf, size_t start, size_t len,
			       bool final, bool *clean);

/*
 * One call of a validator from @start (a character boundary within the
 * well-formed prefix) against utf8guard_vector.h's promise.
 */
static void check_contract(const char *name, validator_fn fn, const u8 *buf,
			   size_t start, size_t len, bool final, size_t exact)
{
	bool clean;
	size_t got = fn(buf, start, len, final, &clean);
	size_t blocks_end = start + ((len - start) & ~(size_t)63);
	/* Within the well-formed prefix, and on a character boundary. */
	bool ok = got >= start && got <= exact &&
		  (got == exact || (buf[got] & 0xC0) != 0x80);

	if (clean && final)
		ok = ok && got == len && exact == len;
	if (clean && !final)
		/* All whole blocks seen, less an open sequence. */
		ok = ok && got + 3 >= blocks_end && got <= blocks_end;
	if (!clean)
		/* The error is within the block after got. */
		ok = ok && exact < len &&
		     exact <= got + UTF8GUARD_VECTOR_BLOCK + 3;
	checks++;
	if (!ok && failures++ < MAX_PRINTED) {
		print_input("validator contract", buf, len, got);
		printf("vector:   %s(start %zu, final %d): returned %zu, clean %d; the well-formed prefix is %zu\n",
		       name, start, final, got, clean, exact);
	}
}

/*
 * Where a validator may start in @buf, whose first @exact bytes are
 * well-formed: at 0, or (as the chunks after the first do) at a character
 * boundary with bytes before it to read.
 */
static size_t start_position(const u8 *buf, size_t exact)
{
	size_t start;

	if (rng() % 2 || !exact)
		return 0;
	start = rng() % (exact + 1);
	while (start < exact && (buf[start] & 0xC0) == 0x80)
		start++;
	return start;
}

/* Each vector path's own validator, by enum utf8guard_vector_isa. */
static const validator_fn validators[UTF8GUARD_VECTOR_ISA_COUNT + 1] = {
	[UTF8GUARD_VECTOR_SSE41] = utf8guard_sse41_prefix,
	[UTF8GUARD_VECTOR_AVX2] = utf8guard_avx2_prefix,
	[UTF8GUARD_VECTOR_AVX512] = utf8guard_avx512_prefix,
};

static void contracts(unsigned long count)
{
	static u8 buf[3 * UTF8GUARD_VECTOR_BLOCK * 8];
	size_t len, exact, start;
	unsigned long i;
	unsigned int k;

	for (i = 0; i < count; i++) {
		len = rng() % sizeof(buf);
		fill(buf, len, rng() % 5);
		if (len && rng() % 4)
			buf[edge_position(len)] = rng();
		utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0);
		exact = utf8guard_valid_prefix(buf, len);
		start = start_position(buf, exact);
		for (k = 0; k < path_count; k++) {
			validator_fn fn = validators[paths[k]];
			const char *name = path_name(paths[k]);

			if (!fn)
				continue;	/* the scalar path's builds */
			check_contract(name, fn, buf, start, len, true, exact);
			check_contract(name, fn, buf, start, len, false, exact);
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long count = 200000;
	unsigned int isa;
	int k;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (isa = 0; isa < UTF8GUARD_VECTOR_ISA_COUNT; isa++)
			if (isa != UTF8GUARD_VECTOR_SCALAR &&
			    utf8guard_vector_available(isa))
				printf("%s\n", utf8guard_vector_isa_name(isa));
		if (utf8guard_scalar_bmi2())
			printf("%s\n", path_name(PATH_SCALAR_PLAIN));
		return 0;
	}
	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--random") && k + 1 < argc)
			count = strtoul(argv[++k], NULL, 10);
		else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
			rng_state = strtoull(argv[++k], NULL, 0) | 1;
		else {
			fprintf(stderr, "usage: vector_test [--random N] [--seed S] | --list\n");
			return 2;
		}
	}
	printf("vector: paths");
	for (isa = 0; isa < UTF8GUARD_VECTOR_ISA_COUNT; isa++) {
		if (utf8guard_vector_available(isa)) {
			paths[path_count++] = isa;
			printf(" %s", utf8guard_vector_isa_name(isa));
		} else {
			printf(" (%s: not on this CPU)",
			       utf8guard_vector_isa_name(isa));
		}
	}
	if (utf8guard_scalar_bmi2()) {
		paths[path_count++] = PATH_SCALAR_PLAIN;
		printf(" %s (scalar: BMI2)", path_name(PATH_SCALAR_PLAIN));
	} else {
		printf(" (scalar: plain, no BMI2 on this CPU)");
	}
	printf("\n");
	if (path_count < 2) {
		printf("vector: FAIL no vector path on this CPU, nothing compared\n");
		return 1;
	}
	sweep();
	printf("vector: sweep: %" PRIu64 " comparisons, %" PRIu64 " failures\n",
	       checks, failures);
	random_buffers(count);
	printf("vector: random: %lu buffers, %" PRIu64 " comparisons in all, %" PRIu64 " failures\n",
	       count, checks, failures);
	contracts(count / 4);
	printf("vector: contract: %lu buffers, %" PRIu64 " checks in all, %" PRIu64 " failures\n",
	       count / 4, checks, failures);
	return failures ? 1 : 0;
}
