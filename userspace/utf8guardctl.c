// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl - admin tool for the utf8guard kernel module.
 *
 * This file only dispatches to the subcommands (cmd_*.c).
 */
#include <stdio.h>
#include <string.h>

#include "../kernel/utf8guard_version.h"
#include "commands.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "check", cmd_check, "validate bytes, arguments or files as strict UTF-8" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: utf8guardctl [--version] [--help] COMMAND [ARGS]\n\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nRun 'utf8guardctl COMMAND --help' for a command's options.\n"
		"Exit status: 0 ok, 1 finding (e.g. invalid UTF-8), 2 usage or I/O error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("utf8guardctl %s\n", UTF8GUARD_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);

	fprintf(stderr, "utf8guardctl: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_ERROR;
}
