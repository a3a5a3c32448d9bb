// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl set KEY VALUE - change one setting, read it back to confirm.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exempt.h"
#include "mounts.h"
#include "settings.h"
#include "sysfs.h"

static void set_usage(FILE *out)
{
	fprintf(out,
		"usage: utf8guardctl set KEY VALUE\n"
		"       utf8guardctl set fs.mount PATH POLICY|off|-\n"
		"       utf8guardctl set fs.exempt CGROUP [-] [CGROUP [-]]...\n"
		"\n"
		"Write one setting to %s, then read it back to confirm.\n"
		"\n"
		"keys and values:\n"
		"  mode                     off, audit or enforce\n"
		"  policy                   a class list (\"strict path-tricks\", \"path-tricks\",\n"
		"                           \"none\") or edits of the current one (\"-strict\")\n"
		"  fs.enabled               0 or 1 (utf8guard_fs loaded)\n"
		"  fs.fstypes               \"*\" or filesystem types, e.g. \"ext4 tmpfs\"\n"
		"  fs.check_symlink_target  0 or 1\n"
		"  fs.mount PATH            the policy of the filesystem mounted on PATH\n"
		"                           (its bind mounts too), off, or - to remove it\n"
		"  fs.exempt CGROUP...      cgroup v2 paths (\"/system.slice/restore.service\")\n"
		"                           whose tasks may create names the policy refuses;\n"
		"                           CGROUP - removes one\n"
		"  net.enabled              0 or 1 (utf8guard_nf loaded)\n"
		"  net.ports                e.g. \"tcp:80 udp:514 tcp:8000-8090\", or \"\"\n"
		"  net.forward              0 or 1\n"
		"  net.action               drop or reset: what a refused TCP segment does\n"
		"\n"
		"options:\n"
		"  -h, --help    show this help\n"
		"exit status: 0 set, 2 refused or error (the message says why)\n",
		sysfs_root());
}

/* set fs.mount PATH VALUE: @argv[0] is "fs.mount". */
static int set_mount(int argc, char **argv)
{
	char error[SETTING_ERROR_MAX], now[SYSFS_VALUE_MAX];

	if (argc != 3) {
		fprintf(stderr,
			"utf8guardctl set: expected fs.mount PATH POLICY (or off, or - to remove)\n"
			"Run 'utf8guardctl set --help' for usage.\n");
		return EXIT_ERROR;
	}
	if (!fs_mount_validate(argv[1], argv[2], error, sizeof(error))) {
		fprintf(stderr, "utf8guardctl set: invalid fs.mount: %s\n",
			error);
		return EXIT_ERROR;
	}
	if (fs_mount_set(argv[1], argv[2], now, sizeof(now), error,
			 sizeof(error))) {
		fprintf(stderr, "utf8guardctl set: %s\n", error);
		return EXIT_ERROR;
	}
	printf("fs.mount %s = %s\n", argv[1], now);
	return EXIT_OK;
}

/* set fs.exempt CGROUP [-]...: @argv[0] is "fs.exempt". */
static int set_exempt(int argc, char **argv)
{
	char error[SETTING_ERROR_MAX], now[SYSFS_VALUE_MAX];
	char text[FS_EXEMPT_MAX * (FS_EXEMPT_PATH_MAX * 4 + 4) + 1] = "";
	unsigned int lines = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr,
			"utf8guardctl set: expected fs.exempt CGROUP... (CGROUP - to remove one)\n"
			"Run 'utf8guardctl set --help' for usage.\n");
		return EXIT_ERROR;
	}
	for (i = 1; i < argc; i++) {
		bool remove = i + 1 < argc && !strcmp(argv[i + 1], "-");

		if (!fs_exempt_validate(argv[i], remove, error,
					sizeof(error))) {
			fprintf(stderr,
				"utf8guardctl set: invalid fs.exempt: %s\n",
				error);
			return EXIT_ERROR;
		}
		if (++lines > FS_EXEMPT_MAX ||
		    !fs_exempt_line(argv[i], remove, text, sizeof(text))) {
			fprintf(stderr,
				"utf8guardctl set: more than %d fs.exempt cgroups\n",
				FS_EXEMPT_MAX);
			return EXIT_ERROR;
		}
		i += remove;
	}
	if (fs_exempt_set(text, now, sizeof(now), error, sizeof(error))) {
		fprintf(stderr, "utf8guardctl set: %s\n", error);
		return EXIT_ERROR;
	}
	printf("fs.exempt = %s\n", now);
	return EXIT_OK;
}

int cmd_set(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char error[SETTING_ERROR_MAX], now[SYSFS_VALUE_MAX];
	const struct setting *setting;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			set_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("set", opt, argv[optind - 1]);
		}
	}
	if (argc - optind >= 1 && !strcmp(argv[optind], "fs.mount"))
		return set_mount(argc - optind, argv + optind);
	if (argc - optind >= 1 && !strcmp(argv[optind], "fs.exempt"))
		return set_exempt(argc - optind, argv + optind);
	if (argc - optind != 2) {
		fprintf(stderr,
			"utf8guardctl set: expected KEY VALUE, got %d argument%s\n"
			"Run 'utf8guardctl set --help' for usage.\n",
			argc - optind, argc - optind == 1 ? "" : "s");
		return EXIT_ERROR;
	}
	setting = setting_find(argv[optind]);
	if (!setting) {
		fprintf(stderr, "utf8guardctl set: unknown key '%s' (keys: %s)\n",
			argv[optind], setting_keys());
		return EXIT_ERROR;
	}
	if (!setting_validate(setting, argv[optind + 1], error, sizeof(error))) {
		fprintf(stderr, "utf8guardctl set: invalid value for %s: %s\n",
			setting->key, error);
		return EXIT_ERROR;
	}
	if (setting_write(setting, argv[optind + 1], now, sizeof(now), error,
			  sizeof(error))) {
		fprintf(stderr, "utf8guardctl set: %s\n", error);
		return EXIT_ERROR;
	}
	printf("%s = %s\n", setting->key, now);
	return EXIT_OK;
}
