// SPDX-License-Identifier: GPL-2.0
/* Prometheus text exposition format (version 0.0.4). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "prometheus.h"

#define PROM_NAME_MAX 128
#define PROM_LABELS_MAX 256
#define PROM_HELP_MAX 256

struct prom_sample {
	char family[PROM_NAME_MAX];
	char type[8];
	char help[PROM_HELP_MAX];
	char labels[PROM_LABELS_MAX];	/* name="value",... without braces */
	uint64_t value;
};

struct prom_set {
	struct prom_sample *samples;
	size_t count, capacity;
};

struct prom_set *prom_new(void)
{
	return calloc(1, sizeof(struct prom_set));
}

void prom_free(struct prom_set *set)
{
	if (!set)
		return;
	free(set->samples);
	free(set);
}

static void metric_name(const char *in, char *out, size_t size)
{
	size_t k;

	for (k = 0; in[k] && k + 1 < size; k++) {
		char c = in[k];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  c == '_' || c == ':' || (k && c >= '0' && c <= '9');

		out[k] = ok ? c : '_';
	}
	out[k] = '\0';
}

/* Append name="value" with the value escaped as the format requires. */
static void append_label(char *buf, size_t size, const char *name,
			 const char *value)
{
	size_t at = strlen(buf);
	char clean[PROM_NAME_MAX];

	metric_name(name, clean, sizeof(clean));
	at += snprintf(buf + at, at < size ? size - at : 0, "%s%s=\"",
		       at ? "," : "", clean);
	for (; *value && at + 3 < size; value++) {
		if (*value == '\\' || *value == '"') {
			buf[at++] = '\\';
			buf[at++] = *value;
		} else if (*value == '\n') {
			buf[at++] = '\\';
			buf[at++] = 'n';
		} else {
			buf[at++] = *value;
		}
	}
	if (at + 1 < size)
		buf[at++] = '"';
	buf[at < size ? at : size - 1] = '\0';
}

int prom_add(struct prom_set *set, const char *family, const char *type,
	     const char *help, const char *const *labels, uint64_t value)
{
	struct prom_sample *sample;

	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? 2 * set->capacity : 64;
		void *more = realloc(set->samples,
				     capacity * sizeof(*set->samples));

		if (!more)
			return -ENOMEM;
		set->samples = more;
		set->capacity = capacity;
	}
	sample = &set->samples[set->count++];
	memset(sample, 0, sizeof(*sample));
	metric_name(family, sample->family, sizeof(sample->family));
	snprintf(sample->type, sizeof(sample->type), "%s", type);
	snprintf(sample->help, sizeof(sample->help), "%s", help);
	for (; labels && labels[0] && labels[1]; labels += 2)
		append_label(sample->labels, sizeof(sample->labels), labels[0],
			     labels[1]);
	sample->value = value;
	return 0;
}

static void write_help(FILE *out, const char *help)
{
	for (; *help; help++) {
		if (*help == '\\')
			fputs("\\\\", out);
		else if (*help == '\n')
			fputs("\\n", out);
		else
			fputc(*help, out);
	}
}

int prom_write(const struct prom_set *set, FILE *out)
{
	size_t i, j, k;

	for (i = 0; i < set->count; i++) {
		const struct prom_sample *first = &set->samples[i];
		bool seen = false;

		for (k = 0; k < i && !seen; k++)
			seen = !strcmp(set->samples[k].family, first->family);
		if (seen)
			continue;
		fprintf(out, "# HELP %s ", first->family);
		write_help(out, first->help);
		fprintf(out, "\n# TYPE %s %s\n", first->family, first->type);
		for (j = i; j < set->count; j++) {
			const struct prom_sample *sample = &set->samples[j];

			if (strcmp(sample->family, first->family))
				continue;
			fputs(sample->family, out);
			if (sample->labels[0])
				fprintf(out, "{%s}", sample->labels);
			fprintf(out, " %" PRIu64 "\n", sample->value);
		}
	}
	return ferror(out) ? -EIO : 0;
}
