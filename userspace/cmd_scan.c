// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl scan - the pre-flight before mode "enforce": every name in
 * the trees that the policy would refuse if it were created now (component
 * rules and classes: utf8guard_name_violation()), and every symlink whose
 * target it would refuse (path rules: utf8guard_first_violation(), as
 * fs/check_symlink_target does), judged by the kernel's own policy code.  Output is streamed, one line a
 * finding; memory grows with the depth of a tree, not its size.
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
#include "json.h"
#include "report_format.h"
#include "tree_walk.h"

struct scan {
	u32 classes;
	bool json;
	uint64_t entries, findings, warnings, mounts_skipped;
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
	      "                 (default \"strict path-tricks\")\n"
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
	fputc('\n', stdout);
}

static void on_entry(const struct walk_entry *entry, void *arg)
{
	static unsigned char target[PATH_MAX];
	struct utf8guard_report report;
	struct scan *scan = arg;
	ssize_t len;

	scan->entries++;
	if (utf8guard_name_violation(scan->classes, entry->name,
				     entry->name_len, &report))
		report_finding(scan, entry, "name", entry->name,
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
	if (utf8guard_first_violation(scan->classes, target, (size_t)len,
				      &report))
		report_finding(scan, entry, "symlink-target", target,
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
	bool root_errors = false;

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
	if (scan.json)
		printf("{\"summary\":{\"entries\":%" PRIu64 ",\"findings\":%" PRIu64
		       ",\"warnings\":%" PRIu64 ",\"mounts_skipped\":%" PRIu64 "}}\n",
		       scan.entries, scan.findings, scan.warnings,
		       scan.mounts_skipped);
	if (fflush(stdout)) {
		fprintf(stderr, "utf8guardctl scan: writing output: %s\n",
			strerror(errno));
		return EXIT_ERROR;
	}
	fprintf(stderr,
		"utf8guardctl scan: %" PRIu64 " entries, %" PRIu64 " refused, %" PRIu64
		" warnings, %" PRIu64 " mount points not crossed\n",
		scan.entries, scan.findings, scan.warnings, scan.mounts_skipped);
	if (scan.findings)
		status = EXIT_FINDING;
	else if (scan.warnings || root_errors)
		status = EXIT_ERROR;
	return status;
}
