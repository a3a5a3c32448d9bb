/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guardctl subcommands.  Each returns the process exit status:
 * 0 ok, 1 finding (e.g. invalid input), 2 usage or I/O error.
 */
#ifndef UTF8GUARDCTL_COMMANDS_H
#define UTF8GUARDCTL_COMMANDS_H

enum exit_status {
	EXIT_OK = 0,
	EXIT_FINDING = 1,
	EXIT_ERROR = 2,
};

int cmd_apply(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_unload(int argc, char **argv);

/*
 * Report an unknown option (@opt '?') or a missing argument (@opt ':',
 * with an optstring starting with ':') of @command on stderr, and how to
 * get help.  @arg is the offending argument (argv[optind - 1]).  Returns
 * EXIT_ERROR.
 */
int usage_error(const char *command, int opt, const char *arg);
/*
 * Report an argument @command does not take (escaped) on stderr.
 * Returns EXIT_ERROR.
 */
int extra_argument_error(const char *command, const char *arg);

#endif /* UTF8GUARDCTL_COMMANDS_H */
