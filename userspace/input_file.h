/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a file for validation without loading it whole: regular files
 * are mapped, everything else (pipes, devices, /proc) is streamed.
 */
#ifndef UTF8GUARDCTL_INPUT_FILE_H
#define UTF8GUARDCTL_INPUT_FILE_H

#include "report_format.h"

/*
 * Called once per error, with the bytes currently in memory.  Return true
 * to go on, false to stop reading.
 */
typedef bool (*file_error_fn)(const struct utf8guard_report *report,
			      const struct byte_window *window, void *arg);

/*
 * Validate the file at @path ("-" is standard input).  Returns 0 and sets
 * *@size, or -1 with errno set if it could not be opened or read.
 */
int input_file_validate(const char *path, file_error_fn fn, void *arg,
			u64 *size);

#endif /* UTF8GUARDCTL_INPUT_FILE_H */
