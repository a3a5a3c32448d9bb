// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl - admin tool for the utf8guard kernel module.
 *
 * This file only dispatches to the subcommands (cmd_*.c).
 */
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "utf8guard_version.h"
#include "commands.h"
#include "escape.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "load", cmd_load, "load utf8guard (and its hooks) with libkmod" },
	{ "unload", cmd_unload, "unload the hooks, then utf8guard" },
	{ "status", cmd_status, "modules, mode, policy, hooks, health, counters" },
	{ "set", cmd_set, "change one setting (mode, policy, fs.*, net.*)" },
	{ "apply", cmd_apply, "apply a config file, all or nothing" },
	{ "stats", cmd_stats, "counters, as text, JSON or Prometheus" },
	{ "check", cmd_check, "validate bytes, arguments or files as strict UTF-8" },
	{ "scan", cmd_scan, "find the names a policy would refuse in a tree" },
};

int usage_error(const char *command, int opt, const char *arg)
{
	fprintf(stderr, "utf8guardctl %s: %s '", command,
		opt == ':' ? "missing argument for option" : "unknown option");
	escape_write_string(stderr, arg);
	fputs("'\n", stderr);
	fprintf(stderr, "Run 'utf8guardctl %s --help' for usage.\n", command);
	return EXIT_ERROR;
}

int extra_argument_error(const char *command, const char *arg)
{
	fprintf(stderr, "utf8guardctl %s: unexpected argument '", command);
	escape_write_string(stderr, arg);
	fputs("'\n", stderr);
	return EXIT_ERROR;
}

static void print_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: utf8guardctl [--version] [--help] COMMAND [ARGS]\n\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nRun 'utf8guardctl COMMAND --help' for a command's options.\n"
		"Exit status: 0 ok, 1 finding (e.g. invalid UTF-8), 2 usage or I/O error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("utf8guardctl %s\n", UTF8GUARD_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);

	fprintf(stderr, "utf8guardctl: unknown command '%s'\n", argv[1]);
	print_usage(stderr);
	return EXIT_ERROR;
}
