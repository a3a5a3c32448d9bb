// SPDX-License-Identifier: GPL-2.0
/*
 * A text setting of one entry per line (hook_kit.h, struct
 * utf8guard_kit_lines): what every such write goes through before and
 * after its lines are parsed (fs/mounts, fs/exempt).
 */
/* Its log lines are in the name of the module whose setting it parses. */
#undef pr_fmt
#define pr_fmt(fmt) fmt

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "hook_kit.h"

/*
 * Why a write is refused whole, before its lines are parsed, or NULL;
 * @buf: room for the reason, @size bytes.
 */
static const char *whole_refused(const struct utf8guard_kit_lines *lines,
				 const char *text, size_t len, char *buf,
				 size_t size)
{
	unsigned int count = 0;
	size_t pos, end;

	for (pos = 0; pos < len; pos = end + 1) {
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		count += end > pos;
	}
	/*
	 * sysfs hands a store one page at most: a write of a page may have
	 * been cut (review round 17: a cut last line was applied).
	 */
	if (len >= PAGE_SIZE)
		return "longer than 4095 bytes";
	if (memchr(text, '\0', len))
		return "a NUL byte in the write";
	if (count > lines->max_lines) {
		snprintf(buf, size, "more than %u lines", lines->max_lines);
		return buf;
	}
	return NULL;
}

/**
 * utf8guard_kit_parse_lines() - parse a write of one entry per line
 * @lines: the setting
 * @text: the written bytes, or at load the module parameter
 * @len: their number
 * @at_load: @text is the module parameter
 * @data: what @lines->line builds the write into, handed to each callback
 *
 * Refuses a write of a page or more, one with a NUL byte and one with
 * more than @lines->max_lines non-empty lines; else calls @lines->line on
 * each non-empty line in order, up to the first it refuses.  At load, a
 * line refused as not there yet is skipped with a warning instead.  A
 * write without a line, or whose entries would not fit in the page the
 * setting is read back from (@lines->fits), is refused.  A refusal is
 * logged: the module parameter's with pr_err(), a write's rate-limited,
 * with the number of the line refused if there is one.
 *
 * For a text setting's @parse (struct utf8guard_kit_file), under the
 * settings' lock.
 *
 * Context: process context; may sleep if the callbacks do.
 * Return: 0, or -EINVAL having logged why; @data is the caller's to
 * free either way.
 */
int utf8guard_kit_parse_lines(const struct utf8guard_kit_lines *lines,
			      const char *text, size_t len, bool at_load,
			      void *data)
{
	const char *why = lines->check ? lines->check() : NULL;
	unsigned int line = 0;
	char too_many[32];
	size_t pos, end;
	bool not_yet;

	if (!why)
		why = whole_refused(lines, text, len, too_many,
				    sizeof(too_many));
	for (pos = 0; pos < len && !why; pos = end + 1) {
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		if (end == pos)
			continue;
		line++;
		not_yet = false;
		why = lines->line(data, text + pos, end - pos, &not_yet);
		/*
		 * At load (modprobe at boot) what the line names may not be
		 * there yet: skip the line, loudly, rather than leave every
		 * filesystem unchecked by refusing the load.
		 */
		if (why && at_load && not_yet) {
			pr_warn("%s: module parameter %s=: line %u: %s: not applied; write it to %s once %s\n",
				lines->module, lines->param, line, why,
				lines->path, lines->not_yet);
			why = NULL;
		}
	}
	if (!why && !line)
		why = lines->no_entry;
	/* What the setting shows must fit in its page, to read back. */
	if (!why && !lines->fits(data))
		why = lines->full;
	if (!why)
		return 0;
	if (at_load)
		pr_err("%s: module parameter %s=\"%s\": %s\n", lines->module,
		       lines->param, text, why);
	else if (line)
		pr_info_ratelimited("%s: %s write refused: line %u: %s\n",
				    lines->module, lines->path, line, why);
	else
		pr_info_ratelimited("%s: %s write refused: %s\n",
				    lines->module, lines->path, why);
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(utf8guard_kit_parse_lines);
