// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of `set` and `apply`.  Values of mode, policy, validator and the
 * flags are parsed with the very functions the kernel uses
 * (utf8guard_policy.c), so that a value refused here would be refused
 * there too (a validator this CPU lacks only by the kernel); fstypes and ports
 * are judged by the kernel alone (their parsers are not shared).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "utf8guard_policy.h"
#include "utf8guard_vector.h"
#include "escape.h"
#include "settings.h"
#include "sysfs.h"

static const struct setting settings[] = {
	{ "fs.enabled", "fs/enabled", "utf8guard_fs", SETTING_FLAG, 1 },
	{ "fs.fstypes", "fs/fstypes", "utf8guard_fs", SETTING_KERNEL, 1 },
	{ "fs.check_symlink_target", "fs/check_symlink_target",
	  "utf8guard_fs", SETTING_FLAG, 1 },
	{ "fs.mount", "fs/mounts", "utf8guard_fs", SETTING_MOUNTS, 1 },
	{ "fs.exempt", "fs/exempt", "utf8guard_fs", SETTING_EXEMPT, 1 },
	{ "net.enabled", "net/enabled", "utf8guard_nf", SETTING_FLAG, 1 },
	{ "net.ports", "net/ports", "utf8guard_nf", SETTING_KERNEL, 1 },
	{ "net.forward", "net/forward", "utf8guard_nf", SETTING_FLAG, 1 },
	{ "net.action", "net/action", "utf8guard_nf", SETTING_ACTION, 1 },
	{ "policy", "policy", "utf8guard", SETTING_POLICY, 2 },
	{ "mode", "mode", "utf8guard", SETTING_MODE, 3 },
	{ "validator", "validator", "utf8guard", SETTING_VALIDATOR, 1 },
};

const struct setting *setting_find(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (!strcmp(settings[i].key, key))
			return &settings[i];
	return NULL;
}

const char *setting_keys(void)
{
	return "mode, policy, validator, fs.enabled, fs.fstypes, fs.check_symlink_target, fs.mount, fs.exempt, net.enabled, net.ports, net.forward, net.action";
}

static bool parse_error(const char *value,
			const struct utf8guard_parse_error *parse,
			char *error, size_t size)
{
	if (parse->length)
		snprintf(error, size, "%s: '%.*s' at character %zu",
			 parse->message, (int)parse->length,
			 value + parse->offset, parse->offset + 1);
	else
		snprintf(error, size, "%s", parse->message);
	return false;
}

bool setting_validate(const struct setting *setting, const char *value,
		      char *error, size_t size)
{
	struct utf8guard_parse_error parse;
	size_t len = strlen(value), k;
	unsigned int isa;
	u32 number;
	bool flag;

	for (k = 0; k < len; k++) {
		unsigned char c = (unsigned char)value[k];

		if (c < 0x20 || c >= 0x7F) {
			snprintf(error, size,
				 "byte 0x%02x at character %zu: values are printable ASCII",
				 c, k + 1);
			return false;
		}
	}
	switch (setting->kind) {
	case SETTING_MODE:
		if (!utf8guard_parse_mode(value, len, &number, &parse))
			return parse_error(value, &parse, error, size);
		break;
	case SETTING_POLICY:
		if (!utf8guard_parse_policy(value, len, UTF8GUARD_CLASSES_DEFAULT,
					    &number, &parse))
			return parse_error(value, &parse, error, size);
		break;
	case SETTING_FLAG:
		if (!utf8guard_parse_flag(value, len, &flag, &parse))
			return parse_error(value, &parse, error, size);
		break;
	case SETTING_VALIDATOR:
		/* Whether this CPU runs it is the kernel's answer. */
		if (!utf8guard_parse_validator(value, len, &isa, &parse))
			return parse_error(value, &parse, error, size);
		break;
	case SETTING_ACTION:
		if (strcmp(value, "drop") && strcmp(value, "reset")) {
			snprintf(error, size, "must be drop or reset: '%s'",
				 value);
			return false;
		}
		break;
	case SETTING_KERNEL:
	case SETTING_MOUNTS:
	case SETTING_EXEMPT:
		break;
	}
	return true;
}

bool setting_available(const struct setting *setting)
{
	return sysfs_exists(setting->file);
}

int setting_read(const struct setting *setting, char *buf, size_t size)
{
	if (setting->kind == SETTING_MODE ||
	    setting->kind == SETTING_VALIDATOR)
		return sysfs_read_choice(setting->file, buf, size);
	return sysfs_read(setting->file, buf, size);
}

static const char *hook_option(const struct setting *setting)
{
	if (!strcmp(setting->module, "utf8guard_fs"))
		return " --fs";
	if (!strcmp(setting->module, "utf8guard_nf"))
		return " --net";
	return "";
}

void setting_explain_errno(const struct setting *setting, const char *value,
			   int err, char *error, size_t size)
{
	char locked[16] = "";

	switch (err) {
	case -EINVAL:
		snprintf(error, size,
			 "the kernel refused '%s' for %s (the kernel log, dmesg, says why)",
			 value, setting->key);
		break;
	case -EPERM:
		if (sysfs_read("locked", locked, sizeof(locked)) == 0 &&
		    !strcmp(locked, "1"))
			snprintf(error, size,
				 "cannot set %s: utf8guard is locked (%s/locked is 1) until reboot",
				 setting->key, sysfs_root());
		else
			snprintf(error, size,
				 "cannot set %s: not permitted (needs CAP_SYS_ADMIN in the initial user namespace)",
				 setting->key);
		break;
	case -EACCES:
		snprintf(error, size,
			 "cannot set %s: permission denied writing %s/%s (run as root)",
			 setting->key, sysfs_root(), setting->file);
		break;
	case -ENOENT:
		if (!sysfs_exists(NULL))
			snprintf(error, size,
				 "cannot set %s: utf8guard is not loaded (no %s); run 'utf8guardctl load'",
				 setting->key, sysfs_root());
		else
			snprintf(error, size,
				 "cannot set %s: %s is not loaded (no %s/%s); run 'utf8guardctl load%s'",
				 setting->key, setting->module, sysfs_root(),
				 setting->file, hook_option(setting));
		break;
	default:
		snprintf(error, size, "cannot set %s: writing %s/%s: %s",
			 setting->key, sysfs_root(), setting->file,
			 strerror(-err));
		break;
	}
}

/* What the file should read after writing @value, or "" if unknown. */
static void expected_value(const struct setting *setting, const char *value,
			   char *buf, size_t size)
{
	struct utf8guard_parse_error parse;
	char current[UTF8GUARD_POLICY_TEXT_MAX];
	u32 number, base = UTF8GUARD_CLASSES_DEFAULT;
	unsigned int isa;
	bool flag;

	buf[0] = '\0';
	switch (setting->kind) {
	case SETTING_MODE:
		if (utf8guard_parse_mode(value, strlen(value), &number, &parse))
			snprintf(buf, size, "%s", utf8guard_mode_name(number));
		break;
	case SETTING_POLICY:
		/* Edits apply to the current classes. */
		if (sysfs_read("policy", current, sizeof(current)) == 0)
			utf8guard_parse_policy(current, strlen(current), 0,
					       &base, &parse);
		if (utf8guard_parse_policy(value, strlen(value), base, &number,
					   &parse))
			utf8guard_format_policy(number, buf, size);
		break;
	case SETTING_FLAG:
		if (utf8guard_parse_flag(value, strlen(value), &flag, &parse))
			snprintf(buf, size, "%d", flag);
		break;
	case SETTING_VALIDATOR:
		/* "auto" is whatever the kernel finds best. */
		if (utf8guard_parse_validator(value, strlen(value), &isa,
					      &parse) &&
		    isa != UTF8GUARD_VECTOR_AUTO)
			snprintf(buf, size, "%s",
				 utf8guard_vector_isa_name(isa));
		break;
	case SETTING_ACTION:
		snprintf(buf, size, "%s", value);
		break;
	case SETTING_KERNEL:
	case SETTING_MOUNTS:
	case SETTING_EXEMPT:
		break;
	}
}

int setting_write(const struct setting *setting, const char *value,
		  char *now, size_t now_size, char *error, size_t size)
{
	char expected[UTF8GUARD_POLICY_TEXT_MAX];
	int err;

	expected_value(setting, value, expected, sizeof(expected));
	err = sysfs_write(setting->file, value);
	if (err) {
		setting_explain_errno(setting, value, err, error, size);
		return err;
	}
	err = setting_read(setting, now, now_size);
	if (err) {
		snprintf(error, size, "wrote %s but cannot read it back: %s",
			 setting->key, strerror(-err));
		return err;
	}
	if (expected[0] && strcmp(expected, now)) {
		snprintf(error, size,
			 "wrote '%s' to %s but it reads '%s' (another writer?)",
			 value, setting->key, now);
		return -EIO;
	}
	return 0;
}
