/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The one place the project's version is written; module and CLI read it. */
#ifndef UTF8GUARD_VERSION_H
#define UTF8GUARD_VERSION_H

#define UTF8GUARD_VERSION "0.1.0"

#endif /* UTF8GUARD_VERSION_H */
