// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl scan - the pre-flight before mode "enforce": every name in
 * the trees that the policy would refuse if it were created now (component
 * rules and classes: utf8guard_name_violation()), and every symlink whose
 * target it would refuse (path rules: utf8guard_first_violation(), as
 * fs/check_symlink_target does), judged by the kernel's own policy code.
 * Without --policy, a name is judged under the policy the hook would use
 * for it: the fs/mounts entry of the filesystem of its directory
 * (matched by st_dev), not at all under an entry "off"; elsewhere the
 * kernel's global policy, on the types of fs/fstypes only.  With the
 * modules not loaded, the default policy everywhere.  Output is
 * streamed, one line a finding; memory grows with the depth of a tree,
 * not its size.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "utf8guard_policy.h"
#include "commands.h"
#include "escape.h"
#include "fs_types.h"
#include "json.h"
#include "mounts.h"
#include "report_format.h"
#include "sysfs.h"
#include "tree_walk.h"

struct scan {
	u32 classes;
	char words[UTF8GUARD_POLICY_TEXT_MAX];	/* @classes in words */
	bool json;
	uint64_t entries, findings, warnings, mounts_skipped;
	/* fs/mounts, without --policy */
	struct fs_mount_list mounts;
	uint64_t entries_off;		/* names under an entry "off" */
	uint32_t off_seen;		/* which entries "off" they were under */
	const struct fs_mount_entry *last;	/* the entry of last_dev */
	dev_t last_dev;
	bool have_last;
	/* fs/fstypes, without --policy and with the fs hook loaded */
	struct fs_types types;
	bool types_read;
	uint64_t entries_unwatched;	/* names on a type not listed */
	char unwatched[FS_TYPES_TEXT_MAX];	/* those types */
};

static void scan_usage(FILE *out)
{
	fputs("usage: utf8guardctl scan [--policy LIST] [--json] [--no-xdev] DIR...\n"
	      "\n"
	      "Walk each DIR (without following symlinks) and report every name the\n"
	      "policy would refuse if it were created now, and every symlink whose\n"
	      "target it would refuse: run it before 'utf8guardctl set mode enforce'.\n"
	      "Paths are printed escaped (\\xNN), the offending bytes in hex.\n"
	      "Unreadable directories are reported on stderr and skipped.\n"
	      "\n"
	      "options:\n"
	      "  --policy LIST  check classes, as in /sys/kernel/utf8guard/policy\n"
	      "                 (without it: what the kernel would check each name\n"
	      "                 under: its filesystem's fs/mounts entry, nothing\n"
	      "                 under \"off\", else the global policy on the types\n"
	      "                 of fs/fstypes; \"strict path-tricks\" everywhere\n"
	      "                 when the modules are not loaded)\n"
	      "  --json         one JSON object a line: each finding, then a summary\n"
	      "  --no-xdev      cross mount points (default: stay on each DIR's mount)\n"
	      "  -h, --help     show this help\n"
	      "exit status: 0 nothing refused, 1 something refused, 2 error or some\n"
	      "directory could not be read (and nothing refused)\n", out);
}

/* The offending bytes: the maximal subpart, or what a lenient decoder reads. */
static size_t offending_length(const struct utf8guard_report *report,
			       size_t len)
{
	size_t n = report->length > report->shadow_length ? report->length :
			report->shadow_length;

	if (report->offset >= len)
		return 0;
	return n < len - report->offset ? n : len - report->offset;
}

static void report_finding(struct scan *scan, const struct walk_entry *entry,
			   const struct fs_mount_entry *mount,
			   const char *kind, const unsigned char *bytes,
			   size_t len, const struct utf8guard_report *report)
{
	const unsigned char *span = bytes + report->offset;
	size_t n = offending_length(report, len), i;
	bool target = bytes != entry->name;

	scan->findings++;
	if (scan->json) {
		fputs("{\"path\":", stdout);
		json_write_bytes(stdout, (const unsigned char *)entry->path,
				 entry->path_len);
		fputs(",\"path_hex\":", stdout);
		json_write_hex(stdout, (const unsigned char *)entry->path,
			       entry->path_len);
		printf(",\"kind\":\"%s\"", kind);
		if (target) {
			fputs(",\"target\":", stdout);
			json_write_bytes(stdout, bytes, len);
		}
		fputs(",\"bytes\":", stdout);
		json_write_hex(stdout, span, n);
		fputc(',', stdout);
		report_write_json_members(stdout, report);
		fputs(",\"policy\":", stdout);
		json_write_string(stdout, mount ? mount->words : scan->words);
		fputs(",\"fs_mount\":", stdout);
		if (mount)
			json_write_string(stdout, mount->path);
		else
			fputs("null", stdout);
		fputs("}\n", stdout);
		return;
	}
	escape_write(stdout, (const unsigned char *)entry->path,
		     entry->path_len);
	if (target) {
		fputs(": symlink target '", stdout);
		escape_write(stdout, bytes, len);
		fputc('\'', stdout);
	} else {
		fputs(": name", stdout);
	}
	printf(": %s at byte %" PRIu64 ":",
	       utf8guard_reason_name(report->reason), report->offset);
	for (i = 0; i < n; i++)
		printf(" %02x", span[i]);
	if (report->shadow_length &&
	    report->reason > UTF8GUARD_REASON_LAST_ILL_FORMED)
		printf(" (U+%04" PRIX32 ")", report->codepoint);
	else if (report->shadow_length)
		printf(" (a lenient decoder reads U+%04" PRIX32 "%s)",
		       report->codepoint,
		       report->path_trick ? ": path trick" : "");
	if (mount) {
		fputs(" [fs/mounts ", stdout);
		escape_write_string(stdout, mount->path);
		printf(": %s]", mount->words);
	}
	fputc('\n', stdout);
}

/* The fs/mounts entry of the filesystem @dev, or NULL. */
static const struct fs_mount_entry *mount_entry(struct scan *scan, dev_t dev)
{
	if (!scan->mounts.count)
		return NULL;
	if (!scan->have_last || scan->last_dev != dev) {
		scan->last = fs_mounts_find(&scan->mounts, dev);
		scan->last_dev = dev;
		scan->have_last = true;
	}
	return scan->last;
}

/* No entry: whether fs/fstypes has the type of device @dev; counted if not. */
static bool type_watched(struct scan *scan, dev_t dev)
{
	const char *type;

	if (!scan->types_read || fs_types_watched(&scan->types, dev, &type))
		return true;
	scan->entries_unwatched++;
	if (!fs_types_listed(scan->unwatched, type))
		snprintf(scan->unwatched + strlen(scan->unwatched),
			 sizeof(scan->unwatched) - strlen(scan->unwatched),
			 " %s", type);
	return false;
}

static void on_entry(const struct walk_entry *entry, void *arg)
{
	static unsigned char target[PATH_MAX];
	const struct fs_mount_entry *mount;
	struct utf8guard_report report;
	struct scan *scan = arg;
	u32 classes;
	ssize_t len;

	scan->entries++;
	mount = mount_entry(scan, entry->dir_dev);
	if (mount && mount->off) {
		scan->entries_off++;
		scan->off_seen |= 1U << (mount - scan->mounts.entry);
		return;
	}
	if (!mount && !type_watched(scan, entry->dir_dev))
		return;
	classes = mount ? mount->classes : scan->classes;
	if (utf8guard_name_violation(classes, entry->name, entry->name_len,
				     &report))
		report_finding(scan, entry, mount, "name", entry->name,
			       entry->name_len, &report);
	if (entry->type != DT_LNK)
		return;
	len = readlinkat(entry->dir_fd, (const char *)entry->name,
			 (char *)target, sizeof(target));
	if (len < 0) {
		fputs("utf8guardctl scan: warning: cannot read symlink ", stderr);
		escape_write(stderr, (const unsigned char *)entry->path,
			     entry->path_len);
		fprintf(stderr, ": %s\n", strerror(errno));
		scan->warnings++;
		return;
	}
	if (utf8guard_first_violation(classes, target, (size_t)len, &report))
		report_finding(scan, entry, mount, "symlink-target", target,
			       (size_t)len, &report);
}

static void on_warning(const char *path, size_t len, const char *what,
		       int err, void *arg)
{
	struct scan *scan = arg;

	fflush(stdout);
	fprintf(stderr, "utf8guardctl scan: warning: %s ", what);
	escape_write(stderr, (const unsigned char *)path, len);
	fprintf(stderr, ": %s; skipped\n", strerror(err));
	scan->warnings++;
}

static void on_mount(const char *path, size_t len, void *arg)
{
	struct scan *scan = arg;

	(void)path;
	(void)len;
	scan->mounts_skipped++;
}

/*
 * Without --policy and with utf8guard.ko loaded: its global policy, and the
 * fs hook's fs/fstypes, for the names no fs/mounts entry applies to.
 */
static void read_global(struct scan *scan)
{
	struct utf8guard_parse_error parse;
	char text[UTF8GUARD_POLICY_TEXT_MAX];
	int err = sysfs_read("policy", text, sizeof(text));

	if (err == -ENOENT)
		return;
	text[strcspn(text, "\n")] = '\0';
	if (err || !utf8guard_parse_policy(text, strlen(text), 0,
					   &scan->classes, &parse)) {
		fprintf(stderr,
			"utf8guardctl scan: warning: cannot read the global policy (%s/policy): %s; names judged under \"%s\"\n",
			sysfs_root(), err ? strerror(-err) : parse.message,
			scan->words);
		scan->warnings++;
		return;
	}
	utf8guard_format_policy(scan->classes, scan->words,
				sizeof(scan->words));
	err = fs_types_read(&scan->types);
	scan->types_read = !err;
	if (err && err != -ENOENT) {
		fprintf(stderr,
			"utf8guardctl scan: warning: cannot read %s/fs/fstypes: %s; every type judged\n",
			sysfs_root(), strerror(-err));
		scan->warnings++;
	}
}

/*
 * Without --policy: the fs/mounts entries, if the fs hook is loaded (else
 * the default policy everywhere, as without it).  An entry whose path is
 * not there to stat (another mount namespace wrote it) cannot be matched:
 * a warning.
 */
static void read_mounts(struct scan *scan)
{
	const struct fs_mount_entry *mount;
	int err = fs_mounts_read(&scan->mounts);
	size_t k;

	if (err == -ENOENT)
		return;
	if (err) {
		fprintf(stderr,
			"utf8guardctl scan: warning: cannot read %s/%s: %s; every name judged under \"%s\"\n",
			sysfs_root(), FS_MOUNTS_FILE, strerror(-err),
			scan->words);
		scan->mounts.count = 0;
		scan->warnings++;
		return;
	}
	for (k = 0; k < scan->mounts.count; k++) {
		mount = &scan->mounts.entry[k];
		if (!mount->stat_errno)
			continue;
		fputs("utf8guardctl scan: warning: fs/mounts entry ", stderr);
		escape_write_string(stderr, mount->path);
		fprintf(stderr,
			": %s; its filesystem's names are judged under \"%s\"\n",
			strerror(mount->stat_errno), scan->words);
		scan->warnings++;
	}
}

int cmd_scan(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-xdev", no_argument, NULL, 'X' },
		{ "xdev", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan scan = { .classes = UTF8GUARD_CLASSES_DEFAULT };
	struct walk_options options = {
		.xdev = true,
		.entry = on_entry,
		.warning = on_warning,
		.mount_skipped = on_mount,
		.arg = &scan,
	};
	struct utf8guard_parse_error parse;
	int opt, i, err, status = EXIT_OK;
	bool root_errors = false, policy_given = false;
	size_t k;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (!utf8guard_parse_policy(optarg, strlen(optarg),
						    UTF8GUARD_CLASSES_DEFAULT,
						    &scan.classes, &parse)) {
				fputs("utf8guardctl scan: invalid --policy '", stderr);
				escape_write_string(stderr, optarg);
				fprintf(stderr, "': %s\n", parse.message);
				return EXIT_ERROR;
			}
			policy_given = true;
			break;
		case 'j':
			scan.json = true;
			break;
		case 'X':
			options.xdev = false;
			break;
		case 'x':
			options.xdev = true;
			break;
		case 'h':
			scan_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("scan", opt, argv[optind - 1]);
		}
	}
	if (optind == argc) {
		fputs("utf8guardctl scan: give at least one DIR\n"
		      "Run 'utf8guardctl scan --help' for usage.\n", stderr);
		return EXIT_ERROR;
	}
	utf8guard_format_policy(scan.classes, scan.words, sizeof(scan.words));
	if (!policy_given) {
		read_global(&scan);
		read_mounts(&scan);
	}
	for (i = optind; i < argc; i++) {
		err = tree_walk(argv[i], &options);
		if (err) {
			fflush(stdout);
			fputs("utf8guardctl scan: cannot scan ", stderr);
			escape_write_string(stderr, argv[i]);
			fprintf(stderr, ": %s\n", strerror(-err));
			root_errors = true;
		}
	}
	if (scan.json) {
		printf("{\"summary\":{\"entries\":%" PRIu64 ",\"findings\":%" PRIu64
		       ",\"warnings\":%" PRIu64 ",\"mounts_skipped\":%" PRIu64
		       ",\"entries_off\":%" PRIu64 ",\"mounts_off\":[",
		       scan.entries, scan.findings, scan.warnings,
		       scan.mounts_skipped, scan.entries_off);
		for (k = 0, i = 0; k < scan.mounts.count; k++) {
			if (!(scan.off_seen & 1U << k))
				continue;
			if (i++)
				fputc(',', stdout);
			json_write_string(stdout, scan.mounts.entry[k].path);
		}
		printf("],\"entries_unwatched\":%" PRIu64 ",\"policy\":",
		       scan.entries_unwatched);
		json_write_string(stdout, scan.words);
		fputs("}}\n", stdout);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "utf8guardctl scan: writing output: %s\n",
			strerror(errno));
		return EXIT_ERROR;
	}
	fprintf(stderr,
		"utf8guardctl scan: %" PRIu64 " entries, %" PRIu64 " refused, %" PRIu64
		" warnings, %" PRIu64 " mount points not crossed\n",
		scan.entries, scan.findings, scan.warnings, scan.mounts_skipped);
	if (scan.entries_off) {
		fprintf(stderr, "utf8guardctl scan: %" PRIu64
			" entries not judged: their filesystem's fs/mounts entry is off:",
			scan.entries_off);
		for (k = 0; k < scan.mounts.count; k++) {
			if (!(scan.off_seen & 1U << k))
				continue;
			fputc(' ', stderr);
			escape_write_string(stderr, scan.mounts.entry[k].path);
		}
		fputc('\n', stderr);
	}
	if (scan.entries_unwatched)
		fprintf(stderr, "utf8guardctl scan: %" PRIu64
			" entries not judged: their filesystem type is not in fs/fstypes:%s\n",
			scan.entries_unwatched, scan.unwatched);
	if (scan.findings)
		status = EXIT_FINDING;
	else if (scan.warnings || root_errors)
		status = EXIT_ERROR;
	return status;
}
