// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guardctl check - validate bytes as strict RFC 3629 UTF-8.
 *
 * Inputs, in command-line order: --hex HEX, --file PATH and raw-byte
 * arguments.  One result per input; JSON output is one object per line.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "utf8guard_policy.h"
#include "commands.h"
#include "escape.h"
#include "hex.h"
#include "input_file.h"
#include "report_format.h"

enum input_kind { INPUT_HEX, INPUT_FILE, INPUT_ARGUMENT };

/* What the input is judged as: bytes, a filename component, a path. */
enum check_rules { RULES_UTF8, RULES_NAME, RULES_PATH };

struct check_options {
	bool all;
	bool json;
	bool policy;		/* --policy, --name or --path given */
	u32 classes;		/* with @policy: the classes that refuse */
	enum check_rules rules;
};

/* State of one input's check, shared with the error callback. */
struct check_run {
	const struct check_options *options;
	enum input_kind kind;
	const char *label;
	unsigned int argument_number;
	const struct byte_window *window;	/* for in-memory inputs */
	u64 errors;
};

static void check_usage(FILE *out)
{
	fputs("usage: utf8guardctl check [--all] [--json] [--policy LIST] [--name | --path]\n"
	      "                         [--hex HEX] [--file PATH] [--] [BYTES...]\n"
	      "\n"
	      "Validate each input as strict UTF-8 (RFC 3629) and report the first\n"
	      "ill-formed sequence: its offset, maximal-subpart length, reason, and\n"
	      "what a lenient decoder would read there.\n"
	      "\n"
	      "inputs (any number, checked in the order given):\n"
	      "  --hex HEX     bytes as hex digits, e.g. 2fc0ae2e2f or '2f c0 ae'\n"
	      "  --file PATH   a file's contents ('-' for standard input); large files\n"
	      "                are mapped or streamed, never read whole into memory\n"
	      "  BYTES         an argument's own bytes (put '--' before one starting with '-')\n"
	      "\n"
	      "options:\n"
	      "  --all         report every ill-formed sequence, not only the first\n"
	      "  --json        one JSON object per input, e.g.\n"
	      "                {\"valid\":false,\"offset\":1,\"length\":1,\"reason\":\"overlong\",\n"
	      "                 \"codepoint\":46,\"shadow_length\":2,\"path_trick\":true}\n"
	      "  --policy LIST judge as the kernel does under this policy (e.g.\n"
	      "                \"path-tricks\", \"strict controls bidi\"; default with\n"
	      "                --name/--path: \"strict path-tricks\"); without --name,\n"
	      "                each input is judged as a path (--path)\n"
	      "  --name        each input is a filename component, as the filesystem\n"
	      "                hook judges a new name: not empty, not . or .., no '/',\n"
	      "                no NUL, at most 255 bytes, then the policy's classes\n"
	      "  --path        each input is a whole path (e.g. a symlink target): the\n"
	      "                policy's classes, the first thing refused\n"
	      "  -h, --help    show this help\n"
	      "\n"
	      "reasons: truncated, unexpected-continuation, invalid-byte, overlong,\n"
	      "         surrogate, out-of-range\n"
	      "exit status: 0 all valid, 1 some input invalid, 2 usage or I/O error\n",
	      out);
}

static void write_label(FILE *out, const struct check_run *run)
{
	switch (run->kind) {
	case INPUT_HEX:
		fputs("hex ", out);
		escape_write_string(out, run->label);
		break;
	case INPUT_FILE:
		fputs("file ", out);
		escape_write_string(out, run->label);
		break;
	case INPUT_ARGUMENT:
		fprintf(out, "argument %u", run->argument_number);
		break;
	}
}

static bool on_error(const struct utf8guard_report *report,
		     const struct byte_window *window, void *arg)
{
	struct check_run *run = arg;
	FILE *out = stdout;

	if (run->errors++ == 0) {
		if (run->options->json) {
			fputs("{\"valid\":false,", out);
			report_write_json_members(out, report);
			if (run->options->all)
				fputs(",\"errors\":[", out);
		} else {
			write_label(out, run);
			fputs(": invalid UTF-8\n", out);
		}
	}
	if (run->options->json) {
		if (run->options->all) {
			fputs(run->errors > 1 ? ",{" : "{", out);
			report_write_json_members(out, report);
			fputc('}', out);
		}
	} else {
		report_write_human(out, report, window);
	}
	return run->options->all;
}

static bool on_buffer_error(const struct utf8guard_report *report, void *arg)
{
	struct check_run *run = arg;

	return on_error(report, run->window, run);
}

static void finish(struct check_run *run, u64 size)
{
	FILE *out = stdout;

	if (run->options->json) {
		if (run->errors == 0)
			fputs(run->options->all ? "{\"valid\":true,\"errors\":[]}" :
						  "{\"valid\":true}", out);
		else
			fputs(run->options->all ? "]}" : "}", out);
		fputc('\n', out);
		return;
	}
	if (run->errors == 0) {
		write_label(out, run);
		fprintf(out, ": %s (%" PRIu64 " byte%s)\n",
			run->options->policy ? "allowed by the policy" :
			"valid UTF-8", size, size == 1 ? "" : "s");
	} else if (run->options->all) {
		fprintf(out, "  %" PRIu64 " error%s in %" PRIu64 " bytes\n",
			run->errors, run->errors == 1 ? "" : "s", size);
	}
}

static void check_buffer(struct check_run *run, const unsigned char *bytes,
			 size_t len)
{
	struct byte_window window = { .bytes = bytes, .len = len, .base = 0 };
	const struct check_options *options = run->options;
	struct utf8guard_report report;
	bool refused;

	run->window = &window;
	if (options->rules == RULES_UTF8) {
		utf8guard_scan(bytes, len, on_buffer_error, run);
	} else {
		/* The kernel's judgement: the first thing refused, if any. */
		if (options->rules == RULES_NAME)
			refused = utf8guard_name_violation(options->classes,
							   bytes, len, &report);
		else
			refused = utf8guard_first_violation(options->classes,
							    bytes, len, &report);
		if (refused) {
			run->errors++;
			if (options->json) {
				fputs("{\"valid\":false,", stdout);
				report_write_json_members(stdout, &report);
			} else {
				write_label(stdout, run);
				fputs(options->rules == RULES_NAME ?
				      ": refused as a name\n" :
				      ": refused as a path\n", stdout);
				report_write_human(stdout, &report, &window);
			}
		}
	}
	finish(run, len);
}

/* Returns the exit status for this input. */
static int check_one(const struct check_options *options,
		     enum input_kind kind, const char *text,
		     unsigned int argument_number)
{
	struct check_run run = {
		.options = options,
		.kind = kind,
		.label = text,
		.argument_number = argument_number,
	};
	unsigned char *bytes;
	const char *error;
	size_t len, where;
	u64 size = 0;

	switch (kind) {
	case INPUT_HEX:
		bytes = hex_parse(text, &len, &error, &where);
		if (!bytes) {
			fputs("utf8guardctl check: --hex '", stderr);
			escape_write_string(stderr, text);
			fprintf(stderr, "': %s at character %zu\n", error,
				where + 1);
			return EXIT_ERROR;
		}
		check_buffer(&run, bytes, len);
		free(bytes);
		break;
	case INPUT_ARGUMENT:
		check_buffer(&run, (const unsigned char *)text, strlen(text));
		break;
	case INPUT_FILE:
		if (input_file_validate(text, on_error, &run, &size) < 0) {
			fflush(stdout);
			fputs("utf8guardctl check: cannot read '", stderr);
			escape_write_string(stderr, text);
			fprintf(stderr, "': %s\n", strerror(errno));
			return EXIT_ERROR;
		}
		finish(&run, size);
		break;
	}
	return run.errors ? EXIT_FINDING : EXIT_OK;
}

struct pending_input {
	enum input_kind kind;
	const char *text;
};

int cmd_check(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "hex", required_argument, NULL, 'x' },
		{ "file", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' },
		{ "name", no_argument, NULL, 'N' },
		{ "path", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_options options = {
		.classes = UTF8GUARD_CLASSES_DEFAULT,
	};
	struct utf8guard_parse_error parse;
	bool explicit_rules = false;
	struct pending_input *inputs;
	unsigned int arguments = 0;
	int count = 0, status = EXIT_OK, result, opt, i;

	inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	if (!inputs) {
		fputs("utf8guardctl check: out of memory\n", stderr);
		return EXIT_ERROR;
	}
	/* A leading '-' keeps raw arguments in order among the options. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "-hx:f:", long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'a':
			options.all = true;
			break;
		case 'j':
			options.json = true;
			break;
		case 'x':
			inputs[count++] = (struct pending_input){ INPUT_HEX, optarg };
			break;
		case 'f':
			inputs[count++] = (struct pending_input){ INPUT_FILE, optarg };
			break;
		case 1:
			inputs[count++] = (struct pending_input){ INPUT_ARGUMENT, optarg };
			break;
		case 'p':
			if (!utf8guard_parse_policy(optarg, strlen(optarg),
						    UTF8GUARD_CLASSES_DEFAULT,
						    &options.classes, &parse)) {
				fputs("utf8guardctl check: invalid --policy '", stderr);
				escape_write_string(stderr, optarg);
				fprintf(stderr, "': %s\n", parse.message);
				free(inputs);
				return EXIT_ERROR;
			}
			options.policy = true;
			if (options.rules == RULES_UTF8)
				options.rules = RULES_PATH;
			break;
		case 'N':
		case 'P':
			if (explicit_rules &&
			    options.rules != (opt == 'N' ? RULES_NAME : RULES_PATH)) {
				fputs("utf8guardctl check: choose one of --name and --path\n",
				      stderr);
				free(inputs);
				return EXIT_ERROR;
			}
			options.rules = opt == 'N' ? RULES_NAME : RULES_PATH;
			options.policy = true;
			explicit_rules = true;
			break;
		case 'h':
			check_usage(stdout);
			free(inputs);
			return EXIT_OK;
		default:
			fputs("utf8guardctl check: ", stderr);
			if (optopt == 'x' || optopt == 'f' || optopt == 'p')
				fprintf(stderr, "option %s needs an argument\n",
					optopt == 'x' ? "--hex HEX" :
					optopt == 'f' ? "--file PATH" :
					"--policy LIST");
			else
				fprintf(stderr, "unknown option '%s'\n",
					argv[optind - 1]);
			fputs("Run 'utf8guardctl check --help' for usage.\n",
			      stderr);
			free(inputs);
			return EXIT_ERROR;
		}
	}
	for (i = optind; i < argc; i++)
		inputs[count++] = (struct pending_input){ INPUT_ARGUMENT, argv[i] };
	if (count == 0) {
		fputs("utf8guardctl check: nothing to check: give --hex HEX, --file PATH or BYTES\n"
		      "Run 'utf8guardctl check --help' for usage.\n", stderr);
		free(inputs);
		return EXIT_ERROR;
	}

	for (i = 0; i < count && options.rules != RULES_UTF8; i++) {
		if (inputs[i].kind == INPUT_FILE) {
			fputs("utf8guardctl check: --policy, --name and --path judge one name or path each: give --hex HEX or BYTES, not --file\n",
			      stderr);
			free(inputs);
			return EXIT_ERROR;
		}
	}
	for (i = 0; i < count; i++) {
		if (inputs[i].kind == INPUT_ARGUMENT)
			arguments++;
		result = check_one(&options, inputs[i].kind, inputs[i].text,
				   arguments);
		if (result > status)
			status = result;
	}
	free(inputs);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "utf8guardctl check: writing output: %s\n",
			strerror(errno));
		return EXIT_ERROR;
	}
	return status;
}
