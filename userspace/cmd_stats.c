// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl stats - the counters, as text, JSON or Prometheus text
 * exposition format (for node_exporter's textfile collector).
 *
 * Every counter file under /sys/kernel/utf8guard/ is listed as it is found
 * (counters.c): a new reason or operation in the kernel shows up here
 * without a change to this file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler.h"
#include "utf8guard_policy.h"
#include "commands.h"
#include "counters.h"
#include "escape.h"
#include "json.h"
#include "prometheus.h"
#include "sysfs.h"

enum stats_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_PROMETHEUS };

static void stats_usage(FILE *out)
{
	fprintf(out,
		"usage: utf8guardctl stats [--json | --prometheus]\n"
		"\n"
		"Print every counter of %s: the global ones, each\n"
		"hook's, and each hook's per operation.\n"
		"\n"
		"options:\n"
		"  --json          one JSON object: {\"utf8guard\":{...},\"fs\":{...,\"mkdir\":{...}},...}\n"
		"  --prometheus    Prometheus text format, e.g. for node_exporter's textfile\n"
		"                  collector (utf8guard-textfile.timer writes it every minute)\n"
		"  -o, --output FILE\n"
		"                  with --prometheus: write FILE atomically (a temporary\n"
		"                  file beside it, mode 0644, then renamed over it), so a\n"
		"                  reader sees the old or the new counters, never half\n"
		"  -h, --help      show this help\n"
		"exit status: 0 ok, 2 utf8guard not loaded (text, JSON) or error\n",
		sysfs_root());
}

static void text_counter(const struct counter *counter, void *arg)
{
	char key[256];

	(void)arg;
	snprintf(key, sizeof(key), "%s%sstats/%s%s%s",
		 counter->hook ? counter->hook : "", counter->hook ? "/" : "",
		 counter->operation ? counter->operation : "",
		 counter->operation ? "/" : "", counter->name);
	printf("%-40s %" PRIu64 "\n", key, counter->value);
}

struct json_state {
	const char *group;	/* the open group object, or NULL */
	const char *operation;	/* the open operation object, or NULL */
	bool first;		/* nothing written yet in the open object */
	char group_name[64], operation_name[64];
};

static void json_counter(const struct counter *counter, void *arg)
{
	struct json_state *state = arg;
	const char *group = counter->hook ? counter->hook : "utf8guard";

	if (!state->group || strcmp(state->group, group)) {
		if (state->operation)
			fputc('}', stdout);
		if (state->group)
			fputs("},", stdout);
		json_write_string(stdout, group);
		fputs(":{", stdout);
		snprintf(state->group_name, sizeof(state->group_name), "%s",
			 group);
		state->group = state->group_name;
		state->operation = NULL;
		state->first = true;
	}
	if (state->operation && (!counter->operation ||
				 strcmp(state->operation, counter->operation))) {
		fputc('}', stdout);
		state->operation = NULL;
		state->first = false;
	}
	if (counter->operation && !state->operation) {
		if (!state->first)
			fputc(',', stdout);
		json_write_string(stdout, counter->operation);
		fputs(":{", stdout);
		snprintf(state->operation_name, sizeof(state->operation_name),
			 "%s", counter->operation);
		state->operation = state->operation_name;
		state->first = true;
	}
	if (!state->first)
		fputc(',', stdout);
	json_write_string(stdout, counter->name);
	printf(":%" PRIu64, counter->value);
	state->first = false;
}

struct prom_state {
	struct prom_set *set;
	int err;
};

static void prom_counter(const struct counter *counter, void *arg)
{
	struct prom_state *state = arg;
	char family[128], help[256], where[128];
	const char *labels[5] = { NULL };
	const char *name = counter->is_reason ? "violations" : counter->name;
	int n = 0;

	snprintf(where, sizeof(where), "%s/%s%sstats/%s%s", sysfs_root(),
		 counter->hook ? counter->hook : "", counter->hook ? "/" : "",
		 counter->operation ? counter->operation : "",
		 counter->operation ? "/" : "");
	snprintf(family, sizeof(family), "utf8guard_%s%s%s%s_total",
		 counter->hook ? counter->hook : "", counter->hook ? "_" : "",
		 counter->operation ? "operation_" : "", name);
	if (counter->operation) {
		labels[n++] = "operation";
		labels[n++] = counter->operation;
	}
	if (counter->is_reason) {
		labels[n++] = "reason";
		labels[n++] = counter->name;
		snprintf(help, sizeof(help),
			 "Checks refused (mode enforce) or audited (mode audit), by the reason of the first violation (%sREASON)",
			 where);
	} else {
		snprintf(help, sizeof(help), "Counter %s%s", where,
			 counter->name);
	}
	if (prom_add(state->set, family, "counter", help, labels,
		     counter->value))
		state->err = -ENOMEM;
}

/* Gauges that are not counters: loaded, locked, mode, policy, health. */
static int prom_gauges(struct prom_set *set)
{
	static const char *const modules[][2] = {
		{ "utf8guard", "" }, { "utf8guard_fs", "fs" },
		{ "utf8guard_nf", "net" },
	};
	static const char *const gauges[][3] = {
		{ "locked", "utf8guard_locked", "1 while utf8guard is locked until reboot" },
		{ "fs/unhooked", "utf8guard_fs_unhooked", "Filesystem hooks not in effect (0 to 6)" },
		{ "net/flows", "utf8guard_net_flows", "TCP flow directions with state" },
		{ "net/flows_max", "utf8guard_net_flows_max", "Most TCP flow entries" },
	};
	const char *labels[3] = { NULL };
	char text[UTF8GUARD_POLICY_TEXT_MAX], word[64];
	struct utf8guard_parse_error parse;
	u32 mode, classes, bit;
	uint64_t value;
	size_t i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(modules); i++) {
		labels[0] = "module";
		labels[1] = modules[i][0];
		err |= prom_add(set, "utf8guard_loaded", "gauge",
				"1 if the module is loaded (its sysfs directory exists)",
				labels, sysfs_exists(modules[i][1]));
	}
	if (sysfs_read("mode", text, sizeof(text)) == 0 &&
	    sysfs_read_choice("mode", word, sizeof(word)) == 0 &&
	    utf8guard_parse_mode(word, strlen(word), &mode, &parse)) {
		labels[0] = "mode";
		for (i = 0; i < UTF8GUARD_MODE_COUNT; i++) {
			labels[1] = utf8guard_mode_name(i);
			err |= prom_add(set, "utf8guard_mode", "gauge",
					"1 for the current mode", labels,
					i == mode);
		}
	}
	if (sysfs_read("policy", text, sizeof(text)) == 0 &&
	    utf8guard_parse_policy(text, strlen(text), 0, &classes, &parse)) {
		labels[0] = "class";
		for (bit = 0; bit < UTF8GUARD_CLASS_BIT_COUNT; bit++) {
			utf8guard_format_policy(1U << bit, word, sizeof(word));
			labels[1] = word;
			err |= prom_add(set, "utf8guard_policy_class", "gauge",
					"1 for each check class in force",
					labels, !!(classes & (1U << bit)));
		}
	}
	for (i = 0; i < ARRAY_SIZE(gauges); i++)
		if (sysfs_read_u64(gauges[i][0], &value) == 0)
			err |= prom_add(set, gauges[i][1], "gauge",
					gauges[i][2], NULL, value);
	if (sysfs_read_u64("fs/missed", &value) == 0)
		err |= prom_add(set, "utf8guard_fs_missed_total", "counter",
				"Filesystem probe hits the kernel skipped (operations not checked)",
				NULL, value);
	return err ? -ENOMEM : 0;
}

static int write_prometheus(FILE *out)
{
	struct prom_state state = { .set = prom_new() };
	int err;

	if (!state.set)
		return -ENOMEM;
	err = prom_gauges(state.set);
	if (!err && sysfs_exists(NULL)) {
		err = counters_walk(prom_counter, &state);
		if (!err)
			err = state.err;
	}
	if (!err)
		err = prom_write(state.set, out);
	prom_free(state.set);
	return err;
}

/*
 * The directory of @path, opened without following a symbolic link in its
 * last component: utf8guard-textfile.service writes as root into
 * /var/lib/prometheus/node-exporter, whose parent belongs to the user
 * prometheus, who could put a link to any directory in its place (review
 * round 14, finding 4).  A real directory swapped in gets the file, which
 * is harmless.  Fills @base with the file's name in it.
 */
static int open_output_dir(const char *path, const char **base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	if (!slash) {
		*base = path;
		snprintf(dir, sizeof(dir), ".");
	} else {
		*base = slash + 1;
		if (slash - path >= (long)sizeof(dir))
			return -ENAMETOOLONG;
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		if (!dir[0])
			snprintf(dir, sizeof(dir), "/");
	}
	if (!**base || strlen(*base) > NAME_MAX - 8)
		return -EINVAL;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	/* O_DIRECTORY says ENOTDIR for a link: tell the two apart. */
	if (errno == ENOTDIR && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -errno;
}

/*
 * write_prometheus() into @path: a temporary file beside it (a name that
 * does not end in .prom, made with O_EXCL), renamed over it.
 */
static int write_prometheus_file(const char *path)
{
	char tmp[NAME_MAX + 1];
	const char *base;
	unsigned int r;
	FILE *out;
	int dir, fd, err, i;

	dir = open_output_dir(path, &base);
	if (dir < 0)
		return dir;
	fd = -1;
	for (i = 0; i < 100 && fd < 0; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)getpid() * 2654435761u + i;
		snprintf(tmp, sizeof(tmp), "%s.%06x", base, r & 0xffffff);
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		err = -errno;
		close(dir);
		return err;
	}
	out = fdopen(fd, "w");
	if (!out) {
		err = -errno;
		close(fd);
		unlinkat(dir, tmp, 0);
		close(dir);
		return err;
	}
	err = fchmod(fd, 0644) < 0 ? -errno : write_prometheus(out);
	if (fclose(out) && !err)
		err = -errno;
	if (!err && renameat(dir, tmp, dir, base) < 0)
		err = -errno;
	if (err)
		unlinkat(dir, tmp, 0);
	close(dir);
	return err;
}

int cmd_stats(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum stats_format format = FORMAT_TEXT;
	struct json_state json = { 0 };
	const char *output = NULL;
	int opt, err;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:ho:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'j':
		case 'p':
			if (format != FORMAT_TEXT) {
				fputs("utf8guardctl stats: choose one of --json and --prometheus\n",
				      stderr);
				return EXIT_ERROR;
			}
			format = opt == 'j' ? FORMAT_JSON : FORMAT_PROMETHEUS;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			stats_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("stats", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return extra_argument_error("stats", argv[optind]);
	if (output && format != FORMAT_PROMETHEUS) {
		fputs("utf8guardctl stats: --output needs --prometheus\n", stderr);
		return EXIT_ERROR;
	}
	if (output && !*output) {
		fputs("utf8guardctl stats: --output needs a file name\n", stderr);
		return EXIT_ERROR;
	}
	if (output) {
		err = write_prometheus_file(output);
		if (err) {
			fputs("utf8guardctl stats: cannot write ", stderr);
			escape_write_string(stderr, output);
			fprintf(stderr, ": %s\n", err == -ELOOP ?
				"its directory is a symbolic link (not followed)" :
				err == -EINVAL ? "not a file name" : strerror(-err));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (format == FORMAT_PROMETHEUS) {
		err = write_prometheus(stdout);
	} else if (!sysfs_exists(NULL)) {
		fprintf(stderr, "utf8guardctl stats: utf8guard is not loaded (no %s)\n",
			sysfs_root());
		return EXIT_ERROR;
	} else if (format == FORMAT_JSON) {
		fputc('{', stdout);
		err = counters_walk(json_counter, &json);
		if (json.operation)
			fputc('}', stdout);
		if (json.group)
			fputc('}', stdout);
		fputs("}\n", stdout);
	} else {
		err = counters_walk(text_counter, NULL);
	}
	if (!err && fflush(stdout))
		err = -errno;
	if (err) {
		fprintf(stderr, "utf8guardctl stats: %s\n", strerror(-err));
		return EXIT_ERROR;
	}
	return EXIT_OK;
}
