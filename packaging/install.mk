# SPDX-License-Identifier: GPL-2.0
#
# packaging/install.mk - the install targets of the top-level Makefile,
# which includes this file: module-sign, module-install, cli-install,
# man-install, completion-install, config-install, systemd-install,
# userspace-install, install and dkms-install.  The Makefile's head says
# what each does for the admin; the details are here.

PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR ?= $(PREFIX)/share/doc/utf8guard
SYSCONFDIR ?= /etc
DKMS_SOURCE_TREE ?= /usr/src
DEPMOD ?= depmod

# The one version (core/utf8guard_version.h), for dkms-install.
VERSION := $(shell sed -n 's/^\#define UTF8GUARD_VERSION "\(.*\)"$$/\1/p' \
	core/utf8guard_version.h)

# Module signing, for Secure Boot or module.sig_enforce=1: with SIGN_KEY
# (private key, PEM) and SIGN_CERT (its X.509 certificate, PEM or DER),
# `make install` relinks the modules and signs each one with the kernel's
# scripts/sign-file before installing it.  The kernel must trust the
# certificate (enrolled as a MOK: Documentation/admin-guide.rst).
SIGN_KEY ?=
SIGN_CERT ?=
SIGN_FILE ?= $(KERNELDIR)/scripts/sign-file
SIGN_HASH ?= $(or $(shell sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$$/\1/p' \
	$(KERNELDIR)/include/config/auto.conf 2>/dev/null),sha256)

.PHONY: module-sign
module-sign:
	@if [ -z "$(SIGN_KEY)$(SIGN_CERT)" ]; then exit 0; fi; \
	if [ -z "$(SIGN_KEY)" ] || [ -z "$(SIGN_CERT)" ]; then \
		echo "error: module signing needs both SIGN_KEY=<private key> and SIGN_CERT=<certificate>" >&2; \
		exit 2; \
	fi; \
	for f in "$(SIGN_KEY)" "$(SIGN_CERT)"; do \
		if [ ! -f "$$f" ] || [ ! -r "$$f" ]; then \
			echo "error: cannot read $$f (SIGN_KEY/SIGN_CERT): no such file, not a file, or no permission" >&2; \
			exit 2; \
		fi; \
	done; \
	if [ ! -x "$(SIGN_FILE)" ]; then \
		echo "error: no $(SIGN_FILE): install the kernel's headers, or name the tool: SIGN_FILE=/path/to/sign-file" >&2; \
		exit 2; \
	fi
	rm -f $(CURDIR)/*.ko
	$(MAKE) --no-print-directory module
	@if [ -n "$(SIGN_KEY)" ]; then \
		for ko in $(CURDIR)/*.ko; do \
			"$(SIGN_FILE)" "$(SIGN_HASH)" "$(SIGN_KEY)" "$(SIGN_CERT)" "$$ko" || exit 1; \
			echo "signed $${ko##*/} ($(SIGN_HASH), $(SIGN_CERT))"; \
		done; \
	fi

# The modules are relinked (rm *.ko) before every install: signed exactly
# once with a key, not signed without one, whatever was installed before.
module-install: module-sign
	@if [ -z "$(KERNELRELEASE)" ]; then \
		echo "error: cannot tell the release of $(KERNELDIR) (no include/generated/utsrelease.h): set KERNELRELEASE=" >&2; \
		exit 2; \
	fi
	$(MAKE) -C $(KERNELDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) modules_install
	$(DEPMOD) -b "$(or $(DESTDIR),/)" -a $(KERNELRELEASE)

cli-install: cli
	install -D -m 0755 $(CLI) $(DESTDIR)$(SBINDIR)/utf8guardctl

man-install:
	install -D -m 0644 userspace/utf8guardctl.8 $(DESTDIR)$(MANDIR)/man8/utf8guardctl.8

completion-install:
	install -D -m 0644 userspace/utf8guardctl.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/utf8guardctl

# The configuration files are the admin's: installed only where there is
# none, never overwritten (a reinstall or upgrade keeps local edits).  The
# examples of this version always go to $(DOCDIR)/examples, to compare.
config-install:
	install -D -m 0644 packaging/utf8guard.conf $(DESTDIR)$(DOCDIR)/examples/utf8guard.conf
	install -D -m 0644 packaging/modprobe.d/utf8guard.conf \
		$(DESTDIR)$(DOCDIR)/examples/modprobe.d/utf8guard.conf
	@set -e; \
	for f in utf8guard.conf modprobe.d/utf8guard.conf; do \
		dest="$(DESTDIR)$(SYSCONFDIR)/$$f"; \
		if [ -e "$$dest" ] || [ -L "$$dest" ]; then \
			echo "kept $$dest (the example is in $(DOCDIR)/examples/$$f)"; \
		else \
			echo "install -D -m 0644 packaging/$$f $$dest"; \
			install -D -m 0644 "packaging/$$f" "$$dest"; \
		fi; \
	done

# The units name the installed program and configuration file:
# utf8guard.service (boot), utf8guard-textfile.service and .timer (the
# counters for prometheus-node-exporter).
SYSTEMD_UNITS = utf8guard.service utf8guard-textfile.service utf8guard-textfile.timer

systemd-install:
	@mkdir -p $(DESTDIR)$(SYSTEMDUNITDIR)
	@set -e; for u in $(SYSTEMD_UNITS); do \
		echo "install $(DESTDIR)$(SYSTEMDUNITDIR)/$$u"; \
		sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
			packaging/$$u >$(DESTDIR)$(SYSTEMDUNITDIR)/$$u.tmp; \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u.tmp; \
		mv -f $(DESTDIR)$(SYSTEMDUNITDIR)/$$u.tmp $(DESTDIR)$(SYSTEMDUNITDIR)/$$u; \
	done

userspace-install: cli-install man-install completion-install config-install systemd-install

# The modules first: a signing error stops before anything is installed.
install: module-install
	$(MAKE) --no-print-directory userspace-install

# DKMS: the sources of the modules (what ./Kbuild builds) and dkms.conf,
# with this version, in $(DKMS_SOURCE_TREE)/utf8guard-$(VERSION).  Then
# `dkms install utf8guard/$(VERSION)` builds and installs them, and DKMS
# rebuilds them for every new kernel.
DKMS_DEST = $(DESTDIR)$(DKMS_SOURCE_TREE)/utf8guard-$(VERSION)
DKMS_FILES = Makefile Kbuild packaging/install.mk $(sort $(wildcard core/*.[ch] kernel/*.[ch] \
	kernel/fs/*.[ch] kernel/net/*.[ch]))

dkms: dkms-install

dkms-install:
	@if [ -z "$(VERSION)" ]; then \
		echo "error: no UTF8GUARD_VERSION in core/utf8guard_version.h" >&2; exit 2; \
	fi
	rm -rf $(DKMS_DEST)
	@set -e; for f in $(DKMS_FILES); do \
		install -D -m 0644 "$$f" "$(DKMS_DEST)/$$f"; \
	done
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(VERSION)"/' dkms.conf >$(DKMS_DEST)/dkms.conf
	chmod 0644 $(DKMS_DEST)/dkms.conf
	@echo "installed $(DKMS_DEST); now: dkms install utf8guard/$(VERSION)"
