// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl status - what is loaded, how it is set, whether it is
 * healthy, and the main counters.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "compiler.h"
#include "commands.h"
#include "escape.h"
#include "exempt.h"
#include "json.h"
#include "mounts.h"
#include "sysfs.h"

struct hook {
	const char *dir;	/* "fs" */
	const char *module;	/* "utf8guard_fs" */
	const char *title;	/* "filesystem hook" */
	const char *const *settings;
	const char *const *gauges;
	const char *const *counters;
	const char *list;	/* a file of one entry a line, or NULL */
};

static const char *const fs_settings[] = {
	"enabled", "fstypes", "check_symlink_target", NULL
};
static const char *const fs_gauges[] = { "missed", "unhooked", NULL };
static const char *const fs_counters[] = {
	"checked", "rejected", "audited", "exempted", NULL
};
static const char *const net_settings[] = {
	"enabled", "ports", "forward", "action", NULL
};
static const char *const net_gauges[] = { "flows", "flows_max", NULL };
static const char *const net_counters[] = {
	"checked", "dropped", "audited", "unparsed", "nomem", "evicted",
	"full", "connections_reset", NULL
};
static const char *const global_counters[] = {
	"checked", "rejected", "audited", NULL
};

static const struct hook hooks[] = {
	{ "fs", "utf8guard_fs", "filesystem hook", fs_settings, fs_gauges,
	  fs_counters, "exempt" },
	{ "net", "utf8guard_nf", "network hook", net_settings, net_gauges,
	  net_counters, NULL },
};

static void status_usage(FILE *out)
{
	fprintf(out,
		"usage: utf8guardctl status [--json]\n"
		"\n"
		"Show which modules are loaded, the version, mode, policy and lock,\n"
		"each hook's settings and health (fs: unhooked, missed), the fs/mounts\n"
		"entries (a policy per filesystem) with each filesystem's type, source\n"
		"and device, the cgroups exempt from the fs policy, and the main\n"
		"counters, from %s.\n"
		"\n"
		"options:\n"
		"  --json        one JSON object\n"
		"  -h, --help    show this help\n"
		"exit status: 0 loaded and healthy, 1 not loaded or degraded, 2 error\n",
		sysfs_root());
}

/* Read @dir/@name; "" (and false) when it cannot be read. */
static bool read_in(const char *dir, const char *name, char *buf, size_t size)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s%s%s", dir, *dir ? "/" : "", name);
	if (sysfs_read(rel, buf, size)) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

static bool hook_degraded(const struct hook *hook)
{
	char value[64];
	size_t i;

	for (i = 0; hook->gauges[i]; i++)
		if ((!strcmp(hook->gauges[i], "missed") ||
		     !strcmp(hook->gauges[i], "unhooked")) &&
		    read_in(hook->dir, hook->gauges[i], value, sizeof(value)) &&
		    strcmp(value, "0"))
			return true;
	return false;
}

/* A JSON value: numbers and 0/1 as they are, anything else as a string. */
static void json_value(const char *text)
{
	size_t k, len = strlen(text);
	bool number = len > 0 && len < 20;

	for (k = 0; k < len; k++)
		if (text[k] < '0' || text[k] > '9' || (k == 0 && text[k] == '0' && len > 1))
			number = false;
	if (number)
		fputs(text, stdout);
	else
		json_write_string(stdout, text);
}

/* "name":value members; a comma first unless *@first. */
static void json_members(const char *dir, const char *const *names,
			 const char *stats_dir, bool *first)
{
	char value[SYSFS_VALUE_MAX], rel[128];
	size_t i;

	for (i = 0; names[i]; i++) {
		snprintf(rel, sizeof(rel), "%s%s%s", stats_dir, *stats_dir ? "/" : "",
			 names[i]);
		if (!read_in(dir, rel, value, sizeof(value)))
			continue;
		if (!*first)
			fputc(',', stdout);
		*first = false;
		json_write_string(stdout, names[i]);
		fputc(':', stdout);
		json_value(value);
	}
}

/*
 * ,"mounts":[{"path":"/srv","policy":"strict","off":false,"fstype":"ext4",
 * "source":"/dev/sda1","device":"8:1"}],"mounts_gone":0 - nothing from a
 * module without fs/mounts; fstype, source and device null where the
 * path is not found here.
 */
static void mounts_json(void)
{
	static struct fs_mount_list list;
	char type[64], source[256], value[64];
	const struct fs_mount_entry *e;
	size_t k;
	int err = fs_mounts_read(&list);

	if (err == -ENOENT)
		return;
	fputs(",\"mounts\":[", stdout);
	for (k = 0; !err && k < list.count; k++) {
		e = &list.entry[k];
		fputs(k ? ",{\"path\":" : "{\"path\":", stdout);
		json_write_string(stdout, e->path);
		fputs(",\"policy\":", stdout);
		json_write_string(stdout, e->words);
		printf(",\"off\":%s", e->off ? "true" : "false");
		if (fs_mount_describe(e, type, sizeof(type), source,
				      sizeof(source))) {
			fputs(",\"fstype\":", stdout);
			json_write_string(stdout, type);
			fputs(",\"source\":", stdout);
			json_write_string(stdout, source);
		} else {
			fputs(",\"fstype\":null,\"source\":null", stdout);
		}
		if (e->stat_errno)
			fputs(",\"device\":null}", stdout);
		else
			printf(",\"device\":\"%u:%u\"}", major(e->dev),
			       minor(e->dev));
	}
	fputc(']', stdout);
	if (read_in("fs", "mounts_gone", value, sizeof(value))) {
		fputs(",\"mounts_gone\":", stdout);
		json_value(value);
	}
}

/* ,"NAME":["line",...] of @dir/@name, if it can be read. */
static void json_list(const char *dir, const char *name)
{
	char value[SYSFS_VALUE_MAX], *line, *next;
	bool first = true;

	if (!read_in(dir, name, value, sizeof(value)))
		return;
	printf(",\"%s\":[", name);
	for (line = value; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!*line)
			continue;
		if (!first)
			fputc(',', stdout);
		first = false;
		json_write_string(stdout, line);
	}
	fputc(']', stdout);
}

static void status_json(bool loaded)
{
	char value[SYSFS_VALUE_MAX];
	bool first;
	size_t i;

	printf("{\"loaded\":{\"utf8guard\":%s", loaded ? "true" : "false");
	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		printf(",\"%s\":%s", hooks[i].module,
		       loaded && sysfs_exists(hooks[i].dir) ? "true" : "false");
	fputc('}', stdout);
	if (loaded) {
		read_in("", "version", value, sizeof(value));
		fputs(",\"version\":", stdout);
		json_write_string(stdout, value);
		sysfs_read_choice("mode", value, sizeof(value));
		fputs(",\"mode\":", stdout);
		json_write_string(stdout, value);
		read_in("", "policy", value, sizeof(value));
		fputs(",\"policy\":", stdout);
		json_write_string(stdout, value);
		read_in("", "locked", value, sizeof(value));
		printf(",\"locked\":%s", strcmp(value, "1") ? "false" : "true");
		if (sysfs_read_choice("validator", value, sizeof(value)))
			value[0] = '\0';
		fputs(",\"validator\":", stdout);
		json_write_string(stdout, value);
		read_in("", "unicode_version", value, sizeof(value));
		fputs(",\"unicode_version\":", stdout);
		json_write_string(stdout, value);
		fputs(",\"counters\":{", stdout);
		first = true;
		json_members("", global_counters, "stats", &first);
		fputc('}', stdout);
	}
	for (i = 0; loaded && i < ARRAY_SIZE(hooks); i++) {
		const struct hook *hook = &hooks[i];

		if (!sysfs_exists(hook->dir))
			continue;
		printf(",\"%s\":{\"degraded\":%s", hook->dir,
		       hook_degraded(hook) ? "true" : "false");
		first = false;
		json_members(hook->dir, hook->settings, "", &first);
		json_members(hook->dir, hook->gauges, "", &first);
		if (hook->list)
			json_list(hook->dir, hook->list);
		fputs(",\"counters\":{", stdout);
		first = true;
		json_members(hook->dir, hook->counters, "stats", &first);
		fputc('}', stdout);
		if (!strcmp(hook->dir, "fs"))
			mounts_json();
		fputc('}', stdout);
	}
	fputs("}\n", stdout);
}

static void text_list(const char *dir, const char *const *names,
		      const char *stats_dir, const char *prefix)
{
	char value[SYSFS_VALUE_MAX], rel[128];
	size_t i;
	bool first = true;

	for (i = 0; names[i]; i++) {
		snprintf(rel, sizeof(rel), "%s%s%s", stats_dir,
			 *stats_dir ? "/" : "", names[i]);
		if (!read_in(dir, rel, value, sizeof(value)))
			continue;
		printf("%s%s %s", first ? prefix : ", ", names[i],
		       *value ? value : "(empty)");
		first = false;
	}
	if (!first)
		fputc('\n', stdout);
}

/* "  fs/mounts: ..." and a line an entry; nothing without fs/mounts. */
static void mounts_text(void)
{
	static struct fs_mount_list list;
	char type[64], source[256], gone[64];
	const struct fs_mount_entry *e;
	size_t k;
	int err = fs_mounts_read(&list);

	if (err == -ENOENT)
		return;
	if (!read_in("fs", "mounts_gone", gone, sizeof(gone)))
		snprintf(gone, sizeof(gone), "?");
	if (err) {
		printf("  fs/mounts: cannot read: %s\n", strerror(-err));
		return;
	}
	if (!list.count) {
		printf("  fs/mounts: no entry (%s gone since load)\n", gone);
		return;
	}
	printf("  fs/mounts: %zu %s (%s gone since load)\n", list.count,
	       list.count == 1 ? "entry" : "entries", gone);
	for (k = 0; k < list.count; k++) {
		e = &list.entry[k];
		fputs("    ", stdout);
		escape_write_string(stdout, e->path);
		printf(": %s", e->words);
		if (e->stat_errno) {
			printf(" (not found here: %s)\n",
			       strerror(e->stat_errno));
			continue;
		}
		if (fs_mount_describe(e, type, sizeof(type), source,
				      sizeof(source))) {
			printf(" (%s, ", type);
			escape_write_string(stdout, source);
			fputs(",", stdout);
		} else {
			fputs(" (", stdout);
		}
		printf(" device %u:%u)\n", major(e->dev), minor(e->dev));
	}
}

static void status_text(bool loaded)
{
	char version[64], mode[64], policy[128], locked[16], validator[64];
	char paths[128], unicode[32];
	char value[SYSFS_VALUE_MAX], summary[SYSFS_VALUE_MAX];
	size_t i;

	if (!loaded) {
		printf("utf8guard: not loaded (no %s)\n", sysfs_root());
		return;
	}
	read_in("", "version", version, sizeof(version));
	sysfs_read_choice("mode", mode, sizeof(mode));
	read_in("", "policy", policy, sizeof(policy));
	read_in("", "locked", locked, sizeof(locked));
	printf("utf8guard %s: loaded, mode %s, policy %s, %s\n", version, mode,
	       policy, strcmp(locked, "1") ? "unlocked" :
	       "LOCKED until reboot");
	if (read_in("", "validator", paths, sizeof(paths))) {
		sysfs_choice_word(paths, validator, sizeof(validator));
		read_in("", "unicode_version", unicode, sizeof(unicode));
		printf("  validator %s (of: %s), Unicode %s\n", validator,
		       paths, unicode);
	}
	text_list("", global_counters, "stats", "  counters: ");
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		const struct hook *hook = &hooks[i];

		if (!sysfs_exists(hook->dir)) {
			printf("%s (%s): not loaded\n", hook->title,
			       hook->module);
			continue;
		}
		printf("%s (%s): loaded%s\n", hook->title, hook->module,
		       hook_degraded(hook) ? ", DEGRADED: some operations are not checked" :
		       "");
		text_list(hook->dir, hook->settings, "", "  settings: ");
		if (!strcmp(hook->dir, "fs"))
			mounts_text();
		if (hook->list &&
		    read_in(hook->dir, hook->list, value, sizeof(value))) {
			fs_exempt_summary(value, summary, sizeof(summary));
			printf("  %s: %s\n", hook->list, summary);
		}
		text_list(hook->dir, hook->gauges, "", "  state: ");
		text_list(hook->dir, hook->counters, "stats", "  counters: ");
	}
}

int cmd_status(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, loaded, degraded = false;
	size_t i;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			status_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("status", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return extra_argument_error("status", argv[optind]);
	loaded = sysfs_exists(NULL);
	if (json)
		status_json(loaded);
	else
		status_text(loaded);
	for (i = 0; loaded && i < ARRAY_SIZE(hooks); i++)
		if (sysfs_exists(hooks[i].dir) && hook_degraded(&hooks[i]))
			degraded = true;
	if (fflush(stdout))
		return EXIT_ERROR;
	return loaded && !degraded ? EXIT_OK : EXIT_FINDING;
}
