// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Exhaustive differential test: every byte string of 1, 2, 3 and 4 bytes,
 * core against the reference (validity and every field of the first
 * error).
 *
 * Strings of 1 to 3 bytes also get the full error list, the report
 * invariants, whether the bytes the stream holds at the end can still
 * complete (utf8guard_stream_may_complete()), and the stream cut at every
 * single offset and byte by byte.
 * 4-byte strings whose value (first byte most significant) is a multiple
 * of the stride (--stride, default 7, 1 for all) get the full error list,
 * the invariants, whether the held bytes can complete and the stream cut once, at (value / stride) % 5: the
 * stride is prime to 256, so the sample has every last byte, and the cut
 * goes round 0..4 from one sampled string to the next.
 *
 * --leads LO-HI[,LO-HI...] (hex, e.g. E0-F4 or E0-E1,EC-F1) limits the
 * 4-byte strings to those whose first byte is in one of the ranges: the
 * core's vector paths run the strings of 3- and 4-byte leads, where the
 * fourth byte matters to them, and all shorter strings (tests/core/run.sh).
 *
 * Usage: exhaustive_test [--threads N] [--max-length 1..4] [--stride N]
 *			  [--stop-after N] [--leads LO-HI[,LO-HI...]]
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "differential.h"

#define MAX_LENGTH 4
#define MAX_PRINTED 10

/*
 * Number of well-formed strings of each length, from the number of
 * scalar values UTF-8 encodes in 1, 2, 3 and 4 bytes (U+0000..007F,
 * U+0080..07FF, U+0800..FFFF less the 2048 surrogates,
 * U+10000..10FFFF): valid(n) = sum over k of chars(k) * valid(n - k).
 */
static uint64_t expected_valid(unsigned int length)
{
	static const uint64_t chars[MAX_LENGTH + 1] = {
		0, 0x80, 0x800 - 0x80, 0x10000 - 0x800 - 0x800,
		0x110000 - 0x10000
	};
	uint64_t valid[MAX_LENGTH + 1] = { 1 };
	unsigned int n, k;

	for (n = 1; n <= length; n++)
		for (k = 1; k <= n; k++)
			valid[n] += chars[k] * valid[n - k];
	return valid[length];
}

struct counts {
	uint64_t checked;
	uint64_t valid;
	uint64_t deep;		/* also checked for all errors and stream */
	uint64_t mismatches;
};

struct job {
	unsigned int length;
	uint32_t stride;
	const bool *leads;
	atomic_uint next_lead;
	atomic_ullong mismatches;
	atomic_uint printed;
	uint64_t stop_after;
	pthread_mutex_t log_lock;
};

struct worker {
	pthread_t thread;
	struct job *job;
	struct counts counts;
};

static bool should_stop(struct job *job)
{
	return job->stop_after &&
	       atomic_load(&job->mismatches) >= job->stop_after;
}

/*
 * Count a mismatch.  Returns true, with the log lock held, for the first
 * few: the caller prints the details, then calls end_mismatch_log().
 */
static bool count_mismatch(struct job *job, struct counts *counts)
{
	counts->mismatches++;
	atomic_fetch_add(&job->mismatches, 1);
	if (atomic_fetch_add(&job->printed, 1) >= MAX_PRINTED)
		return false;
	pthread_mutex_lock(&job->log_lock);
	return true;
}

static void end_mismatch_log(struct job *job)
{
	pthread_mutex_unlock(&job->log_lock);
}

/* The stream cut at every single offset, then byte by byte. */
static bool check_all_cuts(const u8 *buf, size_t len,
			   struct differential_scratch *scratch, FILE *log)
{
	static const size_t bytewise[] = { 1, 2, 3 };
	bool ok = true;
	size_t cut;

	for (cut = 0; cut <= len; cut++)
		ok &= differential_check(buf, len, &cut, 1, CHECK_STREAM,
					 scratch, log);
	ok &= differential_check(buf, len, bytewise, len ? len - 1 : 0,
				 CHECK_STREAM, scratch, log);
	return ok;
}

static void check_short(struct job *job, struct counts *counts,
			const u8 *buf, size_t len,
			struct differential_scratch *scratch)
{
	const unsigned int checks = CHECK_FIRST | CHECK_ALL |
				    CHECK_INVARIANTS | CHECK_MAY_COMPLETE;
	struct utf8guard_report report;

	counts->checked++;
	counts->deep++;
	if (!utf8guard_first_error(buf, len, &report))
		counts->valid++;
	if (differential_check(buf, len, NULL, 0, checks, scratch, NULL) &&
	    check_all_cuts(buf, len, scratch, NULL))
		return;
	if (count_mismatch(job, counts)) {
		differential_check(buf, len, NULL, 0, checks, scratch, stderr);
		check_all_cuts(buf, len, scratch, stderr);
		end_mismatch_log(job);
	}
}

/*
 * Every 4-byte string: validity and the first error, core against the
 * reference.  Every job->stride-th one: the full differential check, the
 * stream cut at (value / stride) % 5.
 */
static void check_four(struct job *job, struct counts *counts, uint32_t value,
		       struct differential_scratch *scratch)
{
	const unsigned int checks = CHECK_ALL | CHECK_INVARIANTS |
				    CHECK_STREAM | CHECK_MAY_COMPLETE;
	struct utf8guard_report core;
	struct ref_report ref;
	size_t cut = (value / job->stride) % 5;
	bool core_bad, ref_bad;
	u8 buf[4];

	buf[0] = value >> 24;
	buf[1] = value >> 16;
	buf[2] = value >> 8;
	buf[3] = value;
	counts->checked++;
	core_bad = utf8guard_first_error(buf, 4, &core);
	ref_bad = ref_first_error(buf, 4, &ref);
	if (!core_bad)
		counts->valid++;
	if (core_bad != ref_bad ||
	    (core_bad && !core_matches_ref(&core, &ref))) {
		if (count_mismatch(job, counts)) {
			differential_check(buf, 4, NULL, 0, CHECK_FIRST,
					   scratch, stderr);
			end_mismatch_log(job);
		}
		return;
	}
	if (value % job->stride)
		return;
	counts->deep++;
	if (differential_check(buf, 4, &cut, 1, checks, scratch, NULL))
		return;
	if (count_mismatch(job, counts)) {
		differential_check(buf, 4, &cut, 1, checks, scratch, stderr);
		end_mismatch_log(job);
	}
}

/* All strings of the job's length whose first byte is @lead. */
static void check_lead(struct job *job, struct counts *counts,
		       unsigned int lead, struct differential_scratch *scratch)
{
	uint32_t rest, rest_count, value;
	u8 buf[MAX_LENGTH];
	unsigned int k;

	rest_count = (uint32_t)1 << (8 * (job->length - 1));
	for (rest = 0; rest < rest_count; rest++) {
		if ((rest & 0xFFFF) == 0 && should_stop(job))
			return;
		value = (lead << (8 * (job->length - 1))) | rest;
		if (job->length == 4) {
			check_four(job, counts, value, scratch);
			continue;
		}
		for (k = 0; k < job->length; k++)
			buf[k] = value >> (8 * (job->length - 1 - k));
		check_short(job, counts, buf, job->length, scratch);
	}
}

static void *work(void *arg)
{
	struct worker *worker = arg;
	struct job *job = worker->job;
	struct differential_scratch scratch;
	unsigned int lead;

	if (differential_scratch_init(&scratch, MAX_LENGTH)) {
		fputs("exhaustive: out of memory\n", stderr);
		worker->counts.mismatches++;
		atomic_fetch_add(&job->mismatches, 1);
		return NULL;
	}
	while ((lead = atomic_fetch_add(&job->next_lead, 1)) <= 0xFF &&
	       !should_stop(job))
		if (job->length < 4 || job->leads[lead])
			check_lead(job, &worker->counts, lead, &scratch);
	differential_scratch_free(&scratch);
	return NULL;
}

static double seconds_since(clockid_t clock, const struct timespec *start)
{
	struct timespec now;

	clock_gettime(clock, &now);
	return (now.tv_sec - start->tv_sec) +
	       (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Check every string of @length bytes on @threads threads. */
static int run_length(unsigned int length, unsigned int threads,
		      uint32_t stride, uint64_t stop_after,
		      const bool *leads, struct counts *total)
{
	struct worker workers[64];
	struct counts counts = { 0, 0, 0, 0 };
	struct timespec start, cpu_start;
	struct job job;
	unsigned int t;

	memset(&job, 0, sizeof(job));
	job.length = length;
	job.stride = stride;
	job.stop_after = stop_after;
	job.leads = leads;
	atomic_store(&job.next_lead, 0);
	pthread_mutex_init(&job.log_lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &start);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
	for (t = 0; t < threads; t++) {
		memset(&workers[t].counts, 0, sizeof(workers[t].counts));
		workers[t].job = &job;
		if (pthread_create(&workers[t].thread, NULL, work,
				   &workers[t])) {
			fputs("exhaustive: cannot start a thread\n", stderr);
			exit(2);
		}
	}
	for (t = 0; t < threads; t++) {
		pthread_join(workers[t].thread, NULL);
		counts.checked += workers[t].counts.checked;
		counts.valid += workers[t].counts.valid;
		counts.deep += workers[t].counts.deep;
		counts.mismatches += workers[t].counts.mismatches;
	}
	pthread_mutex_destroy(&job.log_lock);
	printf("exhaustive: length %u: %" PRIu64 " strings checked, %" PRIu64
	       " valid, %" PRIu64 " with all errors and stream, %" PRIu64
	       " mismatches (%.1f s, %.1f s CPU, %u threads)\n",
	       length, counts.checked, counts.valid, counts.deep,
	       counts.mismatches, seconds_since(CLOCK_MONOTONIC, &start),
	       seconds_since(CLOCK_PROCESS_CPUTIME_ID, &cpu_start), threads);
	if (counts.checked == (uint64_t)1 << (8 * length) &&
	    counts.valid != expected_valid(length)) {
		printf("exhaustive: length %u: expected %" PRIu64
		       " valid strings\n", length, expected_valid(length));
		counts.mismatches++;
	}
	fflush(stdout);
	total->checked += counts.checked;
	total->valid += counts.valid;
	total->deep += counts.deep;
	total->mismatches += counts.mismatches;
	return counts.mismatches ? 1 : 0;
}

static unsigned long parse_number(const char *option, const char *text,
				  unsigned long max)
{
	char *end;
	unsigned long value = strtoul(text, &end, 10);

	if (!*text || *end || value > max) {
		fprintf(stderr, "exhaustive: bad %s '%s'\n", option, text);
		exit(2);
	}
	return value;
}

/*
 * Parse "LO-HI[,LO-HI...]" (hex) into @leads; false if it does not parse
 * or a range runs backwards.
 */
static bool parse_leads(const char *text, bool *leads)
{
	unsigned int lo, hi;
	int used;

	memset(leads, 0, 256 * sizeof(*leads));
	for (;;) {
		if (sscanf(text, "%2x-%2x%n", &lo, &hi, &used) != 2 || lo > hi)
			return false;
		while (lo <= hi)
			leads[lo++] = true;
		text += used;
		if (!*text)
			return true;
		if (*text++ != ',')
			return false;
	}
}

int main(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int threads = cpus > 0 ? cpus : 1;
	unsigned int max_length = MAX_LENGTH;
	struct counts total = { 0, 0, 0, 0 };
	uint64_t stop_after = 0;
	uint32_t stride = 7;
	bool leads[256];
	unsigned int length;
	int failed = 0;
	int k;

	for (k = 0; k < 256; k++)
		leads[k] = true;
	for (k = 1; k + 1 < argc; k += 2) {
		if (!strcmp(argv[k], "--threads"))
			threads = parse_number(argv[k], argv[k + 1], 64);
		else if (!strcmp(argv[k], "--max-length"))
			max_length = parse_number(argv[k], argv[k + 1],
						  MAX_LENGTH);
		else if (!strcmp(argv[k], "--stride"))
			stride = parse_number(argv[k], argv[k + 1],
					      UINT32_MAX);
		else if (!strcmp(argv[k], "--stop-after"))
			stop_after = parse_number(argv[k], argv[k + 1],
						  ~0UL);
		else if (!strcmp(argv[k], "--leads") &&
			 parse_leads(argv[k + 1], leads))
			continue;
		else
			break;
	}
	if (k != argc || threads == 0 || max_length == 0 || stride == 0) {
		fputs("usage: exhaustive_test [--threads 1..64] [--max-length 1..4] [--stride N] [--stop-after N] [--leads LO-HI[,LO-HI...]]\n",
		      stderr);
		return 2;
	}
	for (length = 1; length <= max_length; length++) {
		failed |= run_length(length, threads, stride, stop_after,
				     leads, &total);
		if (failed && stop_after)
			break;
	}
	printf("exhaustive: %" PRIu64 " strings checked, %" PRIu64
	       " valid, %" PRIu64 " with all errors and stream, %" PRIu64
	       " mismatches\n",
	       total.checked, total.valid, total.deep, total.mismatches);
	return failed;
}
