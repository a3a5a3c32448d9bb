// SPDX-License-Identifier: GPL-2.0
/* Loading and unloading the utf8guard modules with libkmod. */
#include <errno.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "escape.h"
#include "modules.h"

struct kmod_ctx *modules_open(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	int err;

	if (!ctx) {
		fputs("utf8guardctl: cannot start libkmod (kmod_new failed)\n",
		      stderr);
		return NULL;
	}
	err = kmod_load_resources(ctx);
	if (err < 0)	/* no modules.dep yet: name lookups will say so */
		kmod_set_log_priority(ctx, 0);
	return ctx;
}

void modules_close(struct kmod_ctx *ctx)
{
	kmod_unref(ctx);
}

bool modules_loaded(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_module *mod;
	int state;

	if (kmod_module_new_from_name(ctx, name, &mod) < 0)
		return false;
	state = kmod_module_get_initstate(mod);
	kmod_module_unref(mod);
	return state == KMOD_MODULE_LIVE || state == KMOD_MODULE_COMING;
}

static void explain_load(const char *name, const char *where, int err)
{
	fprintf(stderr, "utf8guardctl load: cannot load %s (%s): ", name, where);
	switch (err) {
	case -EPERM:
		fputs("not permitted: run as root; with Secure Boot or lockdown the module must be signed with an enrolled key (make install SIGN_KEY=... SIGN_CERT=...)\n",
		      stderr);
		break;
	case -EKEYREJECTED:
	case -ENOKEY:
		fputs("its signature was rejected: sign it with a key the kernel trusts (make install SIGN_KEY=... SIGN_CERT=...)\n",
		      stderr);
		break;
	case -ENOEXEC:
		fputs("invalid module format: it was built for another kernel; rebuild it for this one (make module)\n",
		      stderr);
		break;
	case -EINVAL:
		fputs("the kernel refused it or its parameters (dmesg says why)\n",
		      stderr);
		break;
	case -ENOENT:
		fputs("no such module file\n", stderr);
		break;
	default:
		fprintf(stderr, "%s (dmesg may say more)\n", strerror(-err));
		break;
	}
}

static int load_from_dir(struct kmod_ctx *ctx, const char *name,
			 const char *options, const char *dir)
{
	char path[PATH_MAX];
	struct kmod_module *mod;
	int err;

	snprintf(path, sizeof(path), "%s/%s.ko", dir, name);
	err = kmod_module_new_from_path(ctx, path, &mod);
	if (err < 0) {
		explain_load(name, path, err);
		return err;
	}
	err = kmod_module_insert_module(mod, 0, options);
	kmod_module_unref(mod);
	if (err == -EEXIST)
		return 1;
	if (err < 0) {
		explain_load(name, path, err);
		return err;
	}
	return 0;
}

int modules_load(struct kmod_ctx *ctx, const char *name, const char *options,
		 const char *dir)
{
	struct kmod_module *mod;
	struct utsname uts;
	int err;

	if (modules_loaded(ctx, name))
		return 1;
	if (dir)
		return load_from_dir(ctx, name, options, dir);
	err = kmod_module_new_from_name(ctx, name, &mod);
	if (err < 0) {
		explain_load(name, "by name", err);
		return err;
	}
	if (!kmod_module_get_path(mod)) {
		uname(&uts);
		fprintf(stderr,
			"utf8guardctl load: %s is not installed for kernel %s (not in /lib/modules/%s/modules.dep): with utf8guard-dkms, install linux-headers-%s and run 'dkms autoinstall'; from source, 'make install'; or load it from a build tree with --module-dir DIR\n",
			name, uts.release, uts.release, uts.release);
		kmod_module_unref(mod);
		return -ENOENT;
	}
	err = kmod_module_probe_insert_module(mod, 0, options, NULL, NULL,
					      NULL);
	if (err < 0)
		explain_load(name, kmod_module_get_path(mod), err);
	else if (err > 0)	/* KMOD_PROBE_APPLY_BLACKLIST* not asked */
		err = -EINVAL;
	kmod_module_unref(mod);
	return err;
}

int modules_unload(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_module *mod;
	struct kmod_list *holders, *item;
	int err;

	if (!modules_loaded(ctx, name))
		return 1;
	err = kmod_module_new_from_name(ctx, name, &mod);
	if (err < 0)
		return err;
	err = kmod_module_remove_module(mod, 0);
	if (err < 0) {
		fprintf(stderr, "utf8guardctl unload: cannot unload %s: ", name);
		holders = err == -EAGAIN || err == -EBUSY ?
			  kmod_module_get_holders(mod) : NULL;
		if (holders) {
			fputs("it is in use by", stderr);
			kmod_list_foreach(item, holders) {
				struct kmod_module *holder =
					kmod_module_get_module(item);

				fprintf(stderr, " %s", kmod_module_get_name(holder));
				kmod_module_unref(holder);
			}
			fputs(": unload those first\n", stderr);
			kmod_module_unref_list(holders);
		} else if (err == -EAGAIN || err == -EBUSY) {
			fputs("it is in use (or locked until reboot)\n", stderr);
		} else if (err == -EPERM) {
			fputs("not permitted: run as root\n", stderr);
		} else {
			fprintf(stderr, "%s\n", strerror(-err));
		}
	}
	kmod_module_unref(mod);
	return err;
}
