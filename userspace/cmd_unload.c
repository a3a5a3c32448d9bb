// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl unload - unload the hooks, then utf8guard; refused while
 * utf8guard is locked (it is pinned until reboot).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "commands.h"
#include "modules.h"
#include "sysfs.h"

static void unload_usage(FILE *out)
{
	fputs("usage: utf8guardctl unload\n"
	      "\n"
	      "Unload utf8guard_nf and utf8guard_fs (if loaded), then utf8guard.\n"
	      "Refused while utf8guard is locked: it stays loaded until reboot.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help    show this help\n"
	      "exit status: 0 unloaded (or nothing was loaded), 2 error\n", out);
}

int cmd_unload(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const modules[] = {
		MODULE_NET, MODULE_FS, MODULE_CORE
	};
	struct kmod_ctx *ctx;
	char locked[16];
	int opt, err, unloaded = 0, status = EXIT_OK;
	size_t i;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			unload_usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("unload", opt, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return extra_argument_error("unload", argv[optind]);
	if (sysfs_read("locked", locked, sizeof(locked)) == 0 &&
	    !strcmp(locked, "1")) {
		fprintf(stderr,
			"utf8guardctl unload: utf8guard is locked (%s/locked is 1): it stays loaded until reboot; nothing unloaded\n",
			sysfs_root());
		return EXIT_ERROR;
	}
	ctx = modules_open();
	if (!ctx)
		return EXIT_ERROR;
	for (i = 0; i < ARRAY_SIZE(modules); i++) {
		err = modules_unload(ctx, modules[i]);
		if (err < 0) {
			status = EXIT_ERROR;
			break;
		}
		if (err == 0) {
			printf("%s: unloaded\n", modules[i]);
			unloaded++;
		}
	}
	modules_close(ctx);
	if (status == EXIT_OK && !unloaded)
		puts("utf8guard: not loaded, nothing to unload");
	return status;
}
