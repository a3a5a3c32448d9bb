/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading the utf8guard modules with libkmod, and saying in
 * a sentence why that failed.
 */
#ifndef UTF8GUARDCTL_MODULES_H
#define UTF8GUARDCTL_MODULES_H

#include <stdbool.h>

struct kmod_ctx;

/* The modules, in load order: utf8guard first, the hooks after it. */
#define MODULE_CORE "utf8guard"
#define MODULE_FS "utf8guard_fs"
#define MODULE_NET "utf8guard_nf"

/* A libkmod context for the running kernel, or NULL (message printed). */
struct kmod_ctx *modules_open(void);
void modules_close(struct kmod_ctx *ctx);

/* Whether @name is loaded (live or coming). */
bool modules_loaded(struct kmod_ctx *ctx, const char *name);

/*
 * Load @name with module parameters @options ("" for none): from @dir
 * (DIR/NAME.ko) when @dir is set, else by name through modules.dep (as
 * modprobe does, with its dependencies).  Returns 0, 1 if it was loaded
 * already (the options were not applied), or a negative errno with a
 * message printed.
 */
int modules_load(struct kmod_ctx *ctx, const char *name, const char *options,
		 const char *dir);

/*
 * Unload @name if loaded.  Returns 0, 1 if it was not loaded, or a
 * negative errno with a message printed.
 */
int modules_unload(struct kmod_ctx *ctx, const char *name);

#endif /* UTF8GUARDCTL_MODULES_H */
