// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl load - load utf8guard.ko, and the hooks asked for, with
 * libkmod: by name as installed (modules.dep), or from a build tree.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "modules.h"
#include "settings.h"
#include "sysfs.h"

static void load_usage(FILE *out)
{
	fputs("usage: utf8guardctl load [--fs] [--net] [--mode M] [--policy P] [--module-dir DIR]\n"
	      "\n"
	      "Load utf8guard (policy, sysfs, helpers), then the hooks asked for:\n"
	      "utf8guard_fs (new file names) and utf8guard_nf (UDP/TCP payloads).\n"
	      "The modules are found as installed (make install: modules.dep), or in\n"
	      "DIR with --module-dir.  A module already loaded is left as it is;\n"
	      "--mode and --policy are then written to its sysfs files instead.\n"
	      "\n"
	      "options:\n"
	      "  --fs              also load the filesystem hook\n"
	      "  --net             also load the network hook (then: set net.ports ...)\n"
	      "  --mode M          off, audit or enforce (default: enforce)\n"
	      "  --policy P        check classes, e.g. \"strict path-tricks\" (default)\n"
	      "  --module-dir DIR  load DIR/utf8guard.ko, DIR/utf8guard_fs.ko, ...\n"
	      "  -h, --help        show this help\n"
	      "exit status: 0 loaded, 2 error (the message says why)\n", out);
}

/* Apply --mode/--policy to an utf8guard that was loaded already. */
static int set_loaded(const char *key, const char *value)
{
	char now[SYSFS_VALUE_MAX], error[SETTING_ERROR_MAX];

	if (!value)
		return 0;
	if (setting_write(setting_find(key), value, now, sizeof(now), error,
			  sizeof(error))) {
		fprintf(stderr, "utf8guardctl load: %s\n", error);
		return -1;
	}
	printf("%s = %s\n", key, now);
	return 0;
}

int cmd_load(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "fs", no_argument, NULL, 'f' },
		{ "net", no_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'p' },
		{ "module-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mode = NULL, *policy = NULL, *dir = NULL;
	char options[512] = "", error[SETTING_ERROR_MAX];
	const char *modules[3] = { MODULE_CORE };
	struct kmod_ctx *ctx;
	int count = 1, opt, i, err, status = EXIT_OK;
	bool fs = false, net = false;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			fs = true;
			break;
		case 'n':
			net = true;
			break;
		case 'm':
			mode = optarg;
			break;
		case 'p':
			policy = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'h':
			load_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("load", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return extra_argument_error("load", argv[optind]);
	if (mode && !setting_validate(setting_find("mode"), mode, error,
				      sizeof(error))) {
		fprintf(stderr, "utf8guardctl load: invalid --mode: %s\n", error);
		return EXIT_ERROR;
	}
	if (policy && !setting_validate(setting_find("policy"), policy, error,
					sizeof(error))) {
		fprintf(stderr, "utf8guardctl load: invalid --policy: %s\n",
			error);
		return EXIT_ERROR;
	}
	/* Quoted: a policy has blanks; the parsers refuse '"' inside. */
	snprintf(options, sizeof(options), "%s%s%s%s%s%s",
		 mode ? "mode=" : "", mode ? mode : "", mode && policy ? " " : "",
		 policy ? "policy=\"" : "", policy ? policy : "",
		 policy ? "\"" : "");
	if (fs)
		modules[count++] = MODULE_FS;
	if (net)
		modules[count++] = MODULE_NET;

	ctx = modules_open();
	if (!ctx)
		return EXIT_ERROR;
	for (i = 0; i < count; i++) {
		err = modules_load(ctx, modules[i], i ? "" : options, dir);
		if (err < 0) {
			status = EXIT_ERROR;
			break;
		}
		if (err == 1) {
			printf("%s: already loaded\n", modules[i]);
			if (i == 0 && (set_loaded("policy", policy) ||
				       set_loaded("mode", mode))) {
				status = EXIT_ERROR;
				break;
			}
		} else {
			printf("%s: loaded\n", modules[i]);
		}
	}
	modules_close(ctx);
	if (status == EXIT_OK && !sysfs_exists(NULL)) {
		fprintf(stderr, "utf8guardctl load: utf8guard is loaded but %s is missing\n",
			sysfs_root());
		status = EXIT_ERROR;
	}
	return status;
}
