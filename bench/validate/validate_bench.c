// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * validate_bench - the C side of `make bench`: our validator core (built
 * from the very sources the module compiles) and the C baselines, timed on
 * the corpora of corpus.c.
 *
 *   validate_bench write DIR
 *	write the corpora: DIR/<kind>-text.bin (64 KiB) and
 *	DIR/<kind>-name<SIZE>.bin (1024 names of SIZE bytes, back to back)
 *   validate_bench time DIR [SAMPLES]
 *	time every implementation on every corpus; one line each:
 *	"<impl> <corpus> <unit bytes> <valid 0|1> <median ns per unit>"
 *   validate_bench repeat IMPL FILE UNIT COUNT
 *	validate FILE's units COUNT times and nothing else (for callgrind:
 *	the instructions of COUNT minus those of 0 are the validation's)
 *   validate_bench steps IMPL FILE UNIT COUNT
 *	the number of instructions COUNT passes over FILE's units take,
 *	counted by single-stepping them (x86-64's trap flag): exact on any
 *	CPU, and it runs the code valgrind cannot (AVX-512)
 */
#include <errno.h>
#include <signal.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicode/ustring.h>

#include "corpus.h"
#include "core_bytewise.h"
#include "utf8guard_policy.h"
#include "utf8guard_vector.h"

static const size_t name_sizes[] = { 16, 20, 60, 255 };
#define NAME_SIZE_COUNT (sizeof(name_sizes) / sizeof(name_sizes[0]))
/* Each timed sample lasts at least this long. */
#define SAMPLE_NS 20000000ULL
#define MAX_SAMPLES 99

static bool with_utf8guard(const uint8_t *buf, size_t len)
{
	struct utf8guard_report report;

	return !utf8guard_first_error(buf, len, &report);
}

static bool with_policy(const uint8_t *buf, size_t len)
{
	struct utf8guard_report report;

	return !utf8guard_first_violation(UTF8GUARD_CLASSES_DEFAULT, buf, len,
					  &report);
}

/* The name check of the fs hook with every class on (issue 7's budget). */
static bool with_all_classes(const uint8_t *buf, size_t len)
{
	struct utf8guard_report report;

	return !utf8guard_name_violation(UTF8GUARD_CLASSES_ALL, buf, len,
					 &report);
}

static bool with_glib(const uint8_t *buf, size_t len)
{
	return g_utf8_validate_len((const gchar *)buf, len, NULL);
}

/* Preflight (no output buffer): ICU reads all of it, or stops at an error. */
static bool with_icu(const uint8_t *buf, size_t len)
{
	UErrorCode error = U_ZERO_ERROR;
	int32_t length;

	u_strFromUTF8(NULL, 0, &length, (const char *)buf, (int32_t)len,
		      &error);
	return error == U_ZERO_ERROR || error == U_BUFFER_OVERFLOW_ERROR ||
	       error == U_STRING_NOT_TERMINATED_WARNING;
}

/* The core as shipped: the best vector path from its minimum length. */
#define AS_SHIPPED (-1)
/* The scalar path's plain build, where it defaults to its BMI2 build. */
#define SCALAR_PLAIN (-2)

/*
 * @names_only: timed on the name corpora only; it judges more than UTF-8
 * (the table leaves it out of the validity agreement).
 * @path: the core's path (enum utf8guard_vector_isa, forced for every
 * length), SCALAR_PLAIN or AS_SHIPPED; skipped where the CPU lacks it.
 */
static const struct implementation {
	const char *name;
	bool (*valid)(const uint8_t *buf, size_t len);
	bool names_only;
	int path;
} implementations[] = {
	{ "utf8guard", with_utf8guard, false, AS_SHIPPED },
	{ "scalar", with_utf8guard, false, UTF8GUARD_VECTOR_SCALAR },
	{ "scalar-plain", with_utf8guard, false, SCALAR_PLAIN },
	{ "sse4.1", with_utf8guard, false, UTF8GUARD_VECTOR_SSE41 },
	{ "avx2", with_utf8guard, false, UTF8GUARD_VECTOR_AVX2 },
	{ "avx512", with_utf8guard, false, UTF8GUARD_VECTOR_AVX512 },
	{ "utf8guard-policy", with_policy, false, AS_SHIPPED },
	{ "all-classes", with_all_classes, true, AS_SHIPPED },
	{ "table-dfa", core_bytewise_valid, false, AS_SHIPPED },
	{ "glib", with_glib, false, AS_SHIPPED },
	{ "icu", with_icu, false, AS_SHIPPED },
};
#define IMPLEMENTATION_COUNT \
	(sizeof(implementations) / sizeof(implementations[0]))

static void die(const char *what, const char *path)
{
	fprintf(stderr, "validate_bench: %s %s: %s\n", what, path,
		strerror(errno));
	exit(1);
}

static void write_file(const char *dir, const char *name, const uint8_t *buf,
		       size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write", path);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	uint8_t *buf;
	long size;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read", path);
	buf = malloc(size ? size : 1);
	if (!buf || fread(buf, 1, size, f) != (size_t)size)
		die("cannot read", path);
	fclose(f);
	*len = size;
	return buf;
}

static int write_corpora(const char *dir)
{
	static uint8_t buf[CORPUS_TEXT_SIZE];
	uint8_t *names;
	char file[64];
	unsigned int kind, s, n;

	for (kind = 0; kind < CORPUS_KIND_COUNT; kind++) {
		corpus_fill(kind, 0, buf, sizeof(buf));
		snprintf(file, sizeof(file), "%s-text.bin",
			 corpus_kind_name(kind));
		write_file(dir, file, buf, sizeof(buf));
		for (s = 0; s < NAME_SIZE_COUNT; s++) {
			size_t size = name_sizes[s];

			names = malloc(CORPUS_NAMES * size);
			if (!names)
				die("out of memory for", "names");
			for (n = 0; n < CORPUS_NAMES; n++)
				corpus_fill(kind, n + 1, names + n * size,
					    size);
			snprintf(file, sizeof(file), "%s-name%zu.bin",
				 corpus_kind_name(kind), size);
			write_file(dir, file, names, CORPUS_NAMES * size);
			free(names);
		}
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static volatile unsigned long sink;

/* Put the core on @impl's path; false if this CPU cannot take it. */
static bool use_path(const struct implementation *impl)
{
	/* The BMI2 build where the CPU has it, but for scalar-plain. */
	utf8guard_scalar_use_bmi2(true);
	if (impl->path == SCALAR_PLAIN)
		return utf8guard_scalar_bmi2() &&
		       utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0) &&
		       utf8guard_scalar_use_bmi2(false);
	if (impl->path == AS_SHIPPED)
		return utf8guard_vector_select(utf8guard_vector_best(),
					       UTF8GUARD_VECTOR_MIN_LENGTH);
	return utf8guard_vector_select(impl->path, 0);
}

/* One pass over every unit of @buf; returns how many were valid. */
static size_t pass(const struct implementation *impl, const uint8_t *buf,
		   size_t len, size_t unit)
{
	size_t at, valid = 0;

	for (at = 0; at + unit <= len; at += unit)
		valid += impl->valid(buf + at, unit);
	return valid;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median time of one unit over @samples samples of SAMPLE_NS or more. */
static double time_units(const struct implementation *impl,
			 const uint8_t *buf, size_t len, size_t unit,
			 unsigned int samples)
{
	uint64_t times[MAX_SAMPLES], start, elapsed;
	unsigned long passes = 1, p;
	unsigned int s;

	/* Calibrate: enough passes for one sample to last SAMPLE_NS. */
	for (;;) {
		start = now_ns();
		for (p = 0; p < passes; p++)
			sink += pass(impl, buf, len, unit);
		elapsed = now_ns() - start;
		if (elapsed >= SAMPLE_NS)
			break;
		passes *= elapsed < SAMPLE_NS / 16 ? 8 : 2;
	}
	for (s = 0; s < samples; s++) {
		start = now_ns();
		for (p = 0; p < passes; p++)
			sink += pass(impl, buf, len, unit);
		times[s] = now_ns() - start;
	}
	qsort(times, samples, sizeof(times[0]), compare_u64);
	return (double)times[samples / 2] / passes / (len / unit);
}

static void time_corpus(const char *dir, const char *corpus, size_t unit,
			unsigned int samples)
{
	char path[4096];
	const struct implementation *impl;
	uint8_t *buf;
	size_t len, valid;
	unsigned int i;

	snprintf(path, sizeof(path), "%s/%s.bin", dir, corpus);
	buf = read_file(path, &len);
	for (i = 0; i < IMPLEMENTATION_COUNT; i++) {
		impl = &implementations[i];
		if ((impl->names_only && unit == CORPUS_TEXT_SIZE) ||
		    !use_path(impl))
			continue;
		valid = pass(impl, buf, len, unit);
		printf("%s %s %zu %d %.3f\n", impl->name, corpus, unit,
		       valid == len / unit,
		       time_units(impl, buf, len, unit, samples));
		fflush(stdout);
	}
	free(buf);
}

static int time_all(const char *dir, unsigned int samples)
{
	char corpus[64];
	unsigned int kind, s;

	for (kind = 0; kind < CORPUS_KIND_COUNT; kind++) {
		snprintf(corpus, sizeof(corpus), "%s-text",
			 corpus_kind_name(kind));
		time_corpus(dir, corpus, CORPUS_TEXT_SIZE, samples);
		for (s = 0; s < NAME_SIZE_COUNT; s++) {
			snprintf(corpus, sizeof(corpus), "%s-name%zu",
				 corpus_kind_name(kind), name_sizes[s]);
			time_corpus(dir, corpus, name_sizes[s], samples);
		}
	}
	return 0;
}

/* The implementation named @name, on its path; NULL (said) if none here. */
static const struct implementation *find_implementation(const char *name,
							size_t unit)
{
	unsigned int i;

	for (i = 0; i < IMPLEMENTATION_COUNT; i++)
		if (!strcmp(implementations[i].name, name) &&
		    unit && use_path(&implementations[i]))
			return &implementations[i];
	fprintf(stderr, "validate_bench: no implementation '%s' here, or unit 0\n",
		name);
	return NULL;
}

#ifdef __x86_64__
static volatile uint64_t steps;

static void count_step(int signal)
{
	(void)signal;
	steps++;
}

/*
 * With the trap flag set, the CPU raises a debug exception after each
 * instruction and the kernel sends SIGTRAP; the handler runs without the
 * flag, and sigreturn sets it again.  What the flag's own setting and
 * clearing add is the same for every COUNT: the difference of two counts
 * is exact.
 */
static void trap_flag(bool on)
{
	struct sigaction action = { .sa_handler = count_step };

	if (on) {
		sigemptyset(&action.sa_mask);
		if (sigaction(SIGTRAP, &action, NULL))
			die("cannot handle", "SIGTRAP");
		steps = 0;
		__asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
	} else {
		__asm__ volatile("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
	}
}
#endif

/*
 * COUNT passes over FILE's units with IMPL; with @stepped, single-stepped
 * after a first pass (pages in, symbols resolved), printing the count.
 */
static int repeat(const char *name, const char *path, size_t unit,
		  unsigned long count, bool stepped)
{
	const struct implementation *impl;
	unsigned long k;
	uint8_t *buf;
	size_t len;

	impl = find_implementation(name, unit);
	if (!impl)
		return 2;
#ifndef __x86_64__
	if (stepped) {
		fprintf(stderr, "validate_bench: steps needs x86-64\n");
		return 2;
	}
#endif
	buf = read_file(path, &len);
	if (stepped) {
		sink += pass(impl, buf, len, unit);
		trap_flag(true);
	}
	for (k = 0; k < count; k++)
		sink += pass(impl, buf, len, unit);
	if (stepped) {
		trap_flag(false);
		printf("%llu\n", (unsigned long long)steps);
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int samples = 11;

	if (argc == 3 && !strcmp(argv[1], "write"))
		return write_corpora(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "time")) {
		if (argc == 4)
			samples = strtoul(argv[3], NULL, 10);
		if (samples < 1 || samples > MAX_SAMPLES) {
			fprintf(stderr, "validate_bench: samples must be 1..%d\n",
				MAX_SAMPLES);
			return 2;
		}
		return time_all(argv[2], samples);
	}
	if (argc == 6 && (!strcmp(argv[1], "repeat") ||
			  !strcmp(argv[1], "steps")))
		return repeat(argv[2], argv[3], strtoul(argv[4], NULL, 10),
			      strtoul(argv[5], NULL, 10),
			      !strcmp(argv[1], "steps"));
	fprintf(stderr,
		"usage: validate_bench write DIR\n"
		"       validate_bench time DIR [SAMPLES]\n"
		"       validate_bench repeat IMPL FILE UNIT COUNT\n"
		"       validate_bench steps IMPL FILE UNIT COUNT\n");
	return 2;
}
