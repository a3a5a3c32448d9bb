# SPDX-License-Identifier: GPL-2.0
#
# packaging/deb.mk - `make deb`, included by the top-level Makefile: the
# Debian packages utf8guard and utf8guard-dkms (debian/), built with
# `dpkg-buildpackage -us -uc -b` from a copy of the tree in
# $(DEB_DIR)/utf8guard-VERSION, so that the tree stays clean and the
# packages land in $(DEB_DIR): utf8guard_VERSION_ARCH.deb,
# utf8guard-dkms_VERSION_all.deb, utf8guard-dbgsym_VERSION_ARCH.deb, the
# .buildinfo and the .changes.  The copy holds what git tracks plus new
# files that .gitignore does not exclude (the working tree as it is);
# outside a git checkout, everything but build/ and .git.
# DEB_BUILD_OPTIONS (nocheck, parallel=N...) reaches dpkg-buildpackage.

DEB_DIR ?= $(BUILD)/deb
DEB_SRC = $(DEB_DIR)/utf8guard-$(VERSION)

.PHONY: deb
deb:
	@if [ -z "$(VERSION)" ]; then \
		echo "error: no UTF8GUARD_VERSION in core/utf8guard_version.h" >&2; exit 2; \
	fi
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_SRC)
	@set -e; if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -co --exclude-standard -z | cpio --quiet -0 -pdm $(DEB_SRC); \
	else \
		tar -cf - --exclude=./build --exclude=./.git . | tar -C $(DEB_SRC) -xf -; \
	fi
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b
	@echo "packages in $(DEB_DIR):"; ls -1 $(DEB_DIR)/*.deb $(DEB_DIR)/*.changes
