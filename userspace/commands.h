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

int cmd_check(int argc, char **argv);

#endif /* UTF8GUARDCTL_COMMANDS_H */
