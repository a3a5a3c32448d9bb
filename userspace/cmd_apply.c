// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl apply [FILE] - apply a config file, all or nothing.
 *
 * The whole file is parsed and every value checked first (config.c);
 * then every key's module must be loaded and utf8guard unlocked; only then
 * is anything written: the hooks' settings, then the policy, then the
 * mode, so that "enforce" comes into force last, with everything else
 * already in place.  If the kernel refuses a write (fs.fstypes and
 * net.ports are judged by the kernel only), the settings already written
 * are put back as they were.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "mounts.h"
#include "escape.h"
#include "sysfs.h"

#define DEFAULT_CONFIG "/etc/utf8guard.conf"

static void apply_usage(FILE *out)
{
	fprintf(out,
		"usage: utf8guardctl apply [--check] [FILE]\n"
		"\n"
		"Apply the settings of FILE (default %s): one\n"
		"'KEY = VALUE' a line, the keys of 'utf8guardctl set' (%s),\n"
		"each at most once; '#' comments and blank lines are ignored.\n"
		"\n"
		"The whole file is checked first: if any line is wrong, every wrong line\n"
		"is reported with its number and nothing is applied.  Then the hooks'\n"
		"settings are written, then the policy, then the mode (enforce last).\n"
		"If the kernel refuses a value, what was written is put back.\n"
		"\n"
		"options:\n"
		"  --check       only check the file's syntax and values; write nothing\n"
		"  -h, --help    show this help\n"
		"exit status: 0 applied (or checked), 2 nothing applied: the file is wrong,\n"
		"a module is not loaded, utf8guard is locked, or the kernel refused a value\n",
		DEFAULT_CONFIG, "mode, policy, fs.*, net.*");
}

static int by_order(const void *a, const void *b)
{
	const struct config_entry *x = a, *y = b;

	if (x->setting->order != y->setting->order)
		return x->setting->order - y->setting->order;
	return (int)x->line - (int)y->line;
}

/* Every key's module loaded, and not locked.  Returns the error count. */
static int preflight(const struct config *config, const char *name)
{
	char locked[16];
	unsigned int i;
	int errors = 0;

	if (!sysfs_exists(NULL)) {
		fprintf(stderr,
			"utf8guardctl apply: utf8guard is not loaded (no %s); run 'utf8guardctl load' first\n",
			sysfs_root());
		return 1;
	}
	for (i = 0; i < config->count; i++) {
		const struct setting *setting = config->entries[i].setting;

		if (setting_available(setting))
			continue;
		escape_write_string(stderr, name);
		fprintf(stderr,
			":%u: %s: %s is not loaded (no %s/%s); run 'utf8guardctl load --%s'\n",
			config->entries[i].line, setting->key, setting->module,
			sysfs_root(), setting->file,
			strncmp(setting->key, "fs.", 3) ? "net" : "fs");
		errors++;
	}
	if (config->count && sysfs_read("locked", locked, sizeof(locked)) == 0 &&
	    !strcmp(locked, "1")) {
		fprintf(stderr,
			"utf8guardctl apply: utf8guard is locked (%s/locked is 1): no setting can change until reboot\n",
			sysfs_root());
		errors++;
	}
	return errors;
}

/* Whether a line of @text starts with @prefix. */
static bool has_line(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);

	for (; text; text = strchr(text, '\n')) {
		if (*text == '\n')
			text++;
		if (!strncmp(text, prefix, len))
			return true;
	}
	return false;
}

/*
 * fs/mounts as it was (@old, its listing): the config's paths without an
 * entry before removed, the old entries written back.
 */
static int mounts_put_back(const struct config *config, const char *old,
			   char *now, size_t now_size, char *error, size_t size)
{
	char *text = calloc(1, SYSFS_VALUE_MAX * 2);
	char want[FS_MOUNT_PATH_MAX * 4 + 8];
	unsigned int i;
	int err;

	if (!text) {
		snprintf(error, size, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < config->mount_count; i++) {
		want[0] = '\0';
		fs_mount_line(config->mount_path[i], "", want, sizeof(want));
		want[strlen(want) - 1] = '\0';	/* "PATH " */
		if (!has_line(old, want))
			fs_mount_line(config->mount_path[i], "-", text,
				      SYSFS_VALUE_MAX * 2);
	}
	snprintf(text + strlen(text), SYSFS_VALUE_MAX * 2 - strlen(text),
		 "%s\n", old);
	/* Nothing before and nothing added: nothing to write. */
	err = *text == '\n' ? 0 : sysfs_write("fs/mounts", text);
	free(text);
	if (err) {
		snprintf(error, size, "cannot put back fs.mount: %s",
			 strerror(-err));
		return err;
	}
	snprintf(now, now_size, "as before");
	return 0;
}

/* Whether a line of @text is @line. */
static bool has_exact_line(const char *text, const char *line)
{
	size_t len = strlen(line);

	for (; text; text = strchr(text, '\n')) {
		if (*text == '\n')
			text++;
		if (!strncmp(text, line, len) &&
		    (text[len] == '\n' || text[len] == '\0'))
			return true;
	}
	return false;
}

/*
 * fs/exempt as it was (@old, its listing): the config's cgroups not listed
 * before removed, the old entries written back.
 */
static int exempt_put_back(const struct config *config, const char *old,
			   char *now, size_t now_size, char *error, size_t size)
{
	char *text = calloc(1, SYSFS_VALUE_MAX * 2);
	char want[FS_EXEMPT_PATH_MAX * 4 + 8];
	unsigned int i;
	int err = 0;

	if (!text) {
		snprintf(error, size, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < config->exempt_count; i++) {
		want[0] = '\0';
		fs_path_escape(config->exempt_path[i], want, sizeof(want));
		if (!has_exact_line(old, want))
			fs_exempt_line(config->exempt_path[i], true, text,
				       SYSFS_VALUE_MAX * 2);
	}
	snprintf(text + strlen(text), SYSFS_VALUE_MAX * 2 - strlen(text),
		 "%s\n", old);
	/* Nothing before and nothing added: nothing to write. */
	if (*text != '\n')
		err = sysfs_write("fs/exempt", text);
	free(text);
	if (err) {
		snprintf(error, size, "cannot put back fs.exempt: %s",
			 strerror(-err));
		return err;
	}
	snprintf(now, now_size, "as before");
	return 0;
}

/* Put back the first @count settings of @config (sorted), newest first. */
static void roll_back(const struct config *config, char (*old)[SYSFS_VALUE_MAX],
		      unsigned int count)
{
	char now[SYSFS_VALUE_MAX], error[SETTING_ERROR_MAX];

	while (count--) {
		const struct setting *setting = config->entries[count].setting;
		int err;

		if (setting->kind == SETTING_MOUNTS)
			err = mounts_put_back(config, old[count], now,
					      sizeof(now), error,
					      sizeof(error));
		else if (setting->kind == SETTING_EXEMPT)
			err = exempt_put_back(config, old[count], now,
					      sizeof(now), error,
					      sizeof(error));
		else
			err = setting_write(setting, old[count], now,
					    sizeof(now), error, sizeof(error));
		if (err)
			fprintf(stderr, "utf8guardctl apply: rolling back: %s\n",
				error);
		else
			fprintf(stderr, "utf8guardctl apply: put back %s = %s\n",
				setting->key, now);
	}
}

static int apply_all(struct config *config)
{
	char (*old)[SYSFS_VALUE_MAX];
	char now[SYSFS_VALUE_MAX], error[SETTING_ERROR_MAX];
	unsigned int i;
	int err;

	qsort(config->entries, config->count, sizeof(config->entries[0]),
	      by_order);
	old = calloc(config->count ? config->count : 1, sizeof(*old));
	if (!old) {
		fputs("utf8guardctl apply: out of memory; nothing applied\n",
		      stderr);
		return EXIT_ERROR;
	}
	for (i = 0; i < config->count; i++) {
		err = setting_read(config->entries[i].setting, old[i],
				   sizeof(old[i]));
		if (err) {
			fprintf(stderr,
				"utf8guardctl apply: cannot read %s: %s; nothing applied\n",
				config->entries[i].setting->key, strerror(-err));
			free(old);
			return EXIT_ERROR;
		}
	}
	for (i = 0; i < config->count; i++) {
		const struct config_entry *entry = &config->entries[i];

		if (setting_write(entry->setting, entry->value, now, sizeof(now),
				  error, sizeof(error))) {
			fprintf(stderr, "utf8guardctl apply: line %u: %s\n",
				entry->line, error);
			roll_back(config, old, i);
			fprintf(stderr, "utf8guardctl apply: nothing applied\n");
			free(old);
			return EXIT_ERROR;
		}
		printf("%s = %s\n", entry->setting->key, now);
	}
	free(old);
	return EXIT_OK;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = DEFAULT_CONFIG;
	struct config config;
	bool check_only = false;
	int opt, errors, status;
	FILE *in;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			check_only = true;
			break;
		case 'h':
			apply_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("apply", opt, argv[optind - 1]);
		}
	}
	if (argc - optind > 1) {
		fputs("utf8guardctl apply: give at most one FILE\n", stderr);
		return EXIT_ERROR;
	}
	if (optind < argc)
		name = argv[optind];
	in = strcmp(name, "-") ? fopen(name, "re") : stdin;
	if (!in) {
		fputs("utf8guardctl apply: cannot open ", stderr);
		escape_write_string(stderr, name);
		fprintf(stderr, ": %s\n", strerror(errno));
		return EXIT_ERROR;
	}
	errors = config_parse(in, name, &config);
	if (in != stdin)
		fclose(in);
	if (errors < 0) {
		fputs("utf8guardctl apply: reading ", stderr);
		escape_write_string(stderr, name);
		fputs(" failed; nothing applied\n", stderr);
		config_free(&config);
		return EXIT_ERROR;
	}
	if (!errors && !check_only)
		errors = preflight(&config, name);
	if (errors) {
		fprintf(stderr, "utf8guardctl apply: %d error%s; nothing applied\n",
			errors, errors == 1 ? "" : "s");
		config_free(&config);
		return EXIT_ERROR;
	}
	if (check_only) {
		printf("%u setting%s, all valid\n", config.count,
		       config.count == 1 ? "" : "s");
		status = EXIT_OK;
	} else {
		status = apply_all(&config);
	}
	config_free(&config);
	return status;
}
