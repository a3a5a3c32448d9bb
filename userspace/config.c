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

/*
 * "fs.mount = PATH POLICY", once per path: checked as `set` checks it,
 * its fs/mounts line appended to the one entry of all of them, written
 * in one go (the kernel applies it whole or not at all).
 */
static bool parse_mount(char *value, const char *name, unsigned int line,
			struct config *config, const struct setting *setting)
{
	char error[SETTING_ERROR_MAX], *policy = value, *text;
	struct config_entry *entry = NULL;
	unsigned int i;
	size_t size;

	while (*policy && !is_blank(*policy))
		policy++;
	if (*policy)
		*policy++ = '\0';
	policy = trim(policy);
	if (!fs_mount_validate(value, policy, error, sizeof(error))) {
		line_error(name, line, "bad value for fs.mount: %s", error);
		return false;
	}
	for (i = 0; i < config->mount_count; i++) {
		if (!strcmp(config->mount_path[i], value)) {
			line_error(name, line,
				   "duplicate fs.mount for '%s' (already on line %u)",
				   value, config->mount_line[i]);
			return false;
		}
	}
	if (config->mount_count == FS_MOUNTS_MAX) {
		line_error(name, line, "more than %d fs.mount lines",
			   FS_MOUNTS_MAX);
		return false;
	}
	for (i = 0; i < config->count; i++)
		if (config->entries[i].setting == setting)
			entry = &config->entries[i];
	if (!entry) {
		if (config->count == CONFIG_ENTRIES_MAX)
			return false;
		entry = &config->entries[config->count++];
		entry->setting = setting;
		entry->line = line;
		entry->value = calloc(1, 1);
	}
	size = (entry->value ? strlen(entry->value) : 0) + strlen(value) * 4 +
	       strlen(policy) + 8;
	text = entry->value ? realloc(entry->value, size) : NULL;
	config->mount_path[config->mount_count] = strdup(value);
	if (!text || !config->mount_path[config->mount_count]) {
		free(config->mount_path[config->mount_count]);
		if (text)
			entry->value = text;
		line_error(name, line, "out of memory");
		return false;
	}
	entry->value = text;
	fs_mount_line(value, policy, text, size);
	config->mount_line[config->mount_count++] = line;
	return true;
}

/* The entry of @setting in @config, made with an empty value if none. */
static struct config_entry *merged_entry(struct config *config,
					 const struct setting *setting,
					 unsigned int line)
{
	struct config_entry *entry = NULL;
	unsigned int i;

	for (i = 0; i < config->count; i++)
		if (config->entries[i].setting == setting)
			entry = &config->entries[i];
	if (entry || config->count == CONFIG_ENTRIES_MAX)
		return entry;
	entry = &config->entries[config->count++];
	entry->setting = setting;
	entry->line = line;
	entry->value = calloc(1, 1);
	return entry;
}

/*
 * "fs.exempt = CGROUP", once per cgroup: checked as `set` checks it, its
 * fs/exempt line appended to the one entry of all of them, written in one
 * go (the kernel applies it whole or not at all).
 */
static bool parse_exempt(char *value, const char *name, unsigned int line,
			 struct config *config, const struct setting *setting)
{
	char error[SETTING_ERROR_MAX], *text;
	struct config_entry *entry;
	unsigned int i;
	size_t size;

	if (!fs_exempt_validate(value, false, error, sizeof(error))) {
		line_error(name, line, "bad value for fs.exempt: %s", error);
		return false;
	}
	for (i = 0; i < config->exempt_count; i++) {
		if (!strcmp(config->exempt_path[i], value)) {
			line_error(name, line,
				   "duplicate fs.exempt for '%s' (already on line %u)",
				   value, config->exempt_line[i]);
			return false;
		}
	}
	if (config->exempt_count == FS_EXEMPT_MAX) {
		line_error(name, line, "more than %d fs.exempt lines",
			   FS_EXEMPT_MAX);
		return false;
	}
	entry = merged_entry(config, setting, line);
	if (!entry || !entry->value) {
		line_error(name, line, "out of memory");
		return false;
	}
	size = strlen(entry->value) + strlen(value) * 4 + 8;
	text = realloc(entry->value, size);
	config->exempt_path[config->exempt_count] = strdup(value);
	if (!text || !config->exempt_path[config->exempt_count]) {
		free(config->exempt_path[config->exempt_count]);
		if (text)
			entry->value = text;
		line_error(name, line, "out of memory");
		return false;
	}
	entry->value = text;
	fs_exempt_line(value, false, text, size);
	config->exempt_line[config->exempt_count++] = line;
	return true;
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
	if (setting->kind == SETTING_MOUNTS)
		return parse_mount(value, name, line, config, setting);
	if (setting->kind == SETTING_EXEMPT)
		return parse_exempt(value, name, line, config, setting);
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
	for (i = 0; i < config->mount_count; i++)
		free(config->mount_path[i]);
	config->mount_count = 0;
	for (i = 0; i < config->exempt_count; i++)
		free(config->exempt_path[i]);
	config->exempt_count = 0;
}
