/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * utf8guard policy: what a set of check classes refuses: ill-formed
 * sequences (strict, path-tricks), well-formed characters (the
 * normalize-reject classes, utf8guard_chars.c) and, for a filename
 * component, the component rules.  The mode, the classes and their words
 * are utf8guard_words.h's.
 *
 * Pure functions, compiled verbatim into the module and the CLI (like the
 * core), so that `utf8guardctl` parses and judges exactly as the kernel.
 */
#ifndef UTF8GUARD_POLICY_H
#define UTF8GUARD_POLICY_H

#include "utf8guard_core.h"
#include "utf8guard_words.h"

/* Longest filename component utf8guard_name_violation() accepts (NAME_MAX). */
#define UTF8GUARD_NAME_MAX		255
#define UTF8GUARD_CLASSES_DEFAULT \
	(UTF8GUARD_CLASS_STRICT | UTF8GUARD_CLASS_PATH_TRICKS)

/**
 * struct utf8guard_policy - what to check and what to do about it
 * @mode: an enum utf8guard_mode value
 * @classes: UTF8GUARD_CLASS_* bits
 */
struct utf8guard_policy {
	u32 mode;
	u32 classes;
};

bool utf8guard_classes_refuse(u32 classes,
			      const struct utf8guard_report *report);
bool utf8guard_first_violation(u32 classes, const u8 *buf, size_t len,
			       struct utf8guard_report *report);
bool utf8guard_name_violation(u32 classes, const u8 *name, size_t len,
			      struct utf8guard_report *report);

/**
 * struct utf8guard_violation_search - what utf8guard_stop_at_violation()
 *	looks for, and what it found
 * @classes: UTF8GUARD_CLASS_* bits to refuse
 * @report: gets the first refused error
 * @found: whether there was one
 */
struct utf8guard_violation_search {
	u32 classes;
	struct utf8guard_report *report;
	bool found;
};

bool utf8guard_stop_at_violation(const struct utf8guard_report *report,
				 void *arg);

#endif /* UTF8GUARD_POLICY_H */
