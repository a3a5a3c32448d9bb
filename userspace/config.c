// SPDX-License-Identifier: GPL-2.0
/* Parsing and validating the config file of `utf8guardctl apply`. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "config.h"
#include "escape.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Trim blanks on both sides, in place. */
static char *trim(char *s)
{
	size_t len;

	while (is_blank(*s))
		s++;
	len = strlen(s);
	while (len && is_blank(s[len - 1]))
		s[--len] = '\0';
	return s;
}

static __printf(3, 4) void
line_error(const char *name, unsigned int line, const char *format, ...)
{
	va_list args;

	escape_write_string(stderr, name);
	fprintf(stderr, ":%u: ", line);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
}

/* Key or value text for a message: escaped, at most 64 bytes. */
static void quoted(char *out, size_t size, const char *text)
{
	size_t at = 0;

	for (; *text && at + 5 < size && at < 64; text++) {
		unsigned char c = (unsigned char)*text;

		if (c >= 0x20 && c < 0x7F && c != '\\')
			out[at++] = (char)c;
		else
			at += snprintf(out + at, size - at, "\\x%02x", c);
	}
	if (*text && at + 4 < size)
		at += snprintf(out + at, size - at, "...");
	out[at] = '\0';
}

/* Parse one line; returns true if it is fine (entry added, or nothing). */
static bool parse_line(char *text, size_t len, const char *name,
		       unsigned int line, struct config *config)
{
	char error[SETTING_ERROR_MAX], shown[128];
	const struct setting *setting;
	char *equals, *key, *value;
	unsigned int i;

	if (strlen(text) != len) {
		line_error(name, line, "contains a NUL byte");
		return false;
	}
	if (len && text[len - 1] == '\r') {
		line_error(name, line,
			   "ends in a carriage return (a DOS line ending): save the file with Unix line endings");
		return false;
	}
	text = trim(text);
	if (!*text || *text == '#')
		return true;
	equals = strchr(text, '=');
	if (!equals) {
		quoted(shown, sizeof(shown), text);
		line_error(name, line, "missing '=' in '%s' (expected KEY = VALUE)",
			   shown);
		return false;
	}
	*equals = '\0';
	key = trim(text);
	value = trim(equals + 1);
	if (!*key) {
		line_error(name, line, "missing key before '='");
		return false;
	}
	setting = setting_find(key);
	if (!setting) {
		quoted(shown, sizeof(shown), key);
		line_error(name, line, "unknown key '%s' (keys: %s)", shown,
			   setting_keys());
		return false;
	}
	for (i = 0; i < config->seen_count; i++) {
		if (config->seen[i] == setting) {
			line_error(name, line,
				   "duplicate key '%s' (already set on line %u)",
				   key, config->seen_line[i]);
			return false;
		}
	}
	if (config->seen_count < CONFIG_ENTRIES_MAX) {
		config->seen[config->seen_count] = setting;
		config->seen_line[config->seen_count++] = line;
	}
	if (!setting_validate(setting, value, error, sizeof(error))) {
		line_error(name, line, "bad value for %s: %s", key, error);
		return false;
	}
	if (setting->kind == SETTING_POLICY &&
	    (value[0] == '+' || value[0] == '-')) {
		line_error(name, line,
			   "policy edits ('%c...') depend on the policy in force; a config file takes a full class list, e.g. 'strict path-tricks' or 'none'",
			   value[0]);
		return false;
	}
	if (config->count == CONFIG_ENTRIES_MAX)
		return false;	/* cannot happen: each key once */
	config->entries[config->count].setting = setting;
	config->entries[config->count].line = line;
	config->entries[config->count].value = strdup(value);
	if (!config->entries[config->count].value) {
		line_error(name, line, "out of memory");
		return false;
	}
	config->count++;
	return true;
}

int config_parse(FILE *in, const char *name, struct config *config)
{
	char *text = NULL;
	size_t capacity = 0;
	ssize_t len;
	unsigned int line = 0;
	int errors = 0;

	memset(config, 0, sizeof(*config));
	while ((len = getline(&text, &capacity, in)) >= 0) {
		line++;
		if (len && text[len - 1] == '\n')
			text[--len] = '\0';
		if (len > CONFIG_LINE_MAX) {
			line_error(name, line, "line longer than %d bytes",
				   CONFIG_LINE_MAX);
			errors++;
			continue;
		}
		if (!parse_line(text, (size_t)len, name, line, config))
			errors++;
	}
	free(text);
	if (ferror(in))
		return -1;
	return errors;
}

void config_free(struct config *config)
{
	unsigned int i;

	for (i = 0; i < config->count; i++)
		free(config->entries[i].value);
	config->count = 0;
}
