# SPDX-License-Identifier: GPL-2.0
#
# utf8guard - strict UTF-8 at the kernel boundary.
#
#   make              build the CLI and the module (for the running kernel,
#                     or KERNELDIR=/path/to/kernel/build)
#   make check        install what the tests need, then run every test suite
#                     (the stock kernels' soaks shortened: about an hour)
#   make check-long   the same with every soak at full length on every
#                     kernel: before resolving an issue that touches a hook
#   make style        checkpatch, kernel-doc, sparse, ABI documents
#   make demo         boot Debian's stock kernel in qemu and show the module
#   make fuzz         long libFuzzer run on the validator core
#   make fuzz-net     10-minute model-based TCP fuzz of the netfilter hook
#                     on Debian's stock kernel in qemu (FUZZ_SECONDS=...,
#                     FUZZ_SEED=... to replay)
#   make bench        validator speed vs simdutf, GLib, ICU, CPython
#   make install      install the modules (modules_install + depmod), the
#                     CLI, its man page and bash completion, the example
#                     configuration and the systemd unit; SIGN_KEY=...
#                     SIGN_CERT=... sign the modules first
#   make userspace-install   all of that but the modules (no kernel headers
#                     needed); or one part: cli-install, man-install,
#                     completion-install, config-install, systemd-install
#   make dkms-install copy the module source to /usr/src/utf8guard-VERSION
#                     (make dkms: the same)
#   make deb          the Debian packages utf8guard and utf8guard-dkms
#                     (debian/): dpkg-buildpackage -us -uc -b on a copy of
#                     the tree in build/deb/, where the .debs and .changes
#                     land; the tree stays clean (packaging/deb.mk)
#
# Install locations (all under DESTDIR): PREFIX (/usr/local), SBINDIR,
# MANDIR, BASHCOMPDIR, SYSTEMDUNITDIR, DOCDIR (packaging/install.mk);
# SYSCONFDIR (/etc) for the configuration, never overwritten;
# /lib/modules and /usr/src, which PREFIX does not move.
#
# The kernel module itself is described by ./Kbuild; this Makefile is only
# the user-facing front end.

# KERNELDIR alone names the kernel: its release is read from the tree
# (UTS_RELEASE: Debian's include/config/kernel.release lacks the ABI).
ifdef KERNELDIR
ifndef KERNELRELEASE
KERNELRELEASE := $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KERNELDIR)/include/generated/utsrelease.h 2>/dev/null)
endif
endif
KERNELRELEASE ?= $(shell uname -r)
KERNELDIR ?= /lib/modules/$(KERNELRELEASE)/build
BUILD ?= build

CC ?= cc
CFLAGS ?= -O2 -g
# CPPFLAGS and LDFLAGS (empty by default) as the environment gives them:
# a distribution's hardening flags (dpkg-buildflags) reach the CLI.
CPPFLAGS ?=
LDFLAGS ?=
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Icore $(CFLAGS)

# The shared code, compiled verbatim into the module too.
CORE_SOURCES := $(addprefix core/, utf8guard_scalar.c utf8guard_errors.c \
	utf8guard_stream.c utf8guard_decode.c utf8guard_vector.c \
	utf8guard_words.c utf8guard_policy.c utf8guard_chars.c utf8guard_nfc.c \
	utf8guard_unicode.c)
CLI_SOURCES := $(wildcard userspace/*.c)
CLI_OBJECTS := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SOURCES) $(CORE_SOURCES))
CLI_HEADERS := $(wildcard userspace/*.h core/*.h)
CLI := $(BUILD)/utf8guardctl

all: cli module

cli: $(CLI)

# utf8guardctl load/unload use libkmod (libkmod-dev).
PKG_CONFIG ?= pkg-config
KMOD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libkmod 2>/dev/null)
KMOD_LIBS := $(shell $(PKG_CONFIG) --libs libkmod 2>/dev/null || echo -lkmod)

$(CLI): $(CLI_OBJECTS)
	$(CC) $(USER_CFLAGS) $(LDFLAGS) -o $@ $^ $(KMOD_LIBS)

$(BUILD)/%.o: %.c $(CLI_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(USER_CFLAGS) $(KMOD_CFLAGS) -c -o $@ $<

# The shared sources, for scripts that compile them outside this Makefile
# (tests/unicode/run.sh, bench/validate.sh): one list.
.PHONY: core-sources
core-sources:
	@echo $(CORE_SOURCES)

# The core must stay freestanding: it is compiled into the kernel too.
core-freestanding: $(CORE_SOURCES)
	@mkdir -p $(BUILD)/freestanding
	@for f in $(CORE_SOURCES); do \
		$(CC) -std=gnu11 -Wall -Wextra -Werror -O2 -ffreestanding \
			-nostdlib -c -o $(BUILD)/freestanding/$$(basename $$f .c).o \
			$$f || exit 1; \
	done
	@echo "core: compiles with -ffreestanding -nostdlib"

module:
	@if [ ! -d "$(KERNELDIR)" ]; then \
		echo "error: no kernel build tree at $(KERNELDIR)" >&2; \
		echo "  install the headers of the kernel you run (apt install linux-headers-$(KERNELRELEASE))" >&2; \
		echo "  or name a tree: make module KERNELDIR=/usr/src/linux-headers-<version>" >&2; \
		exit 2; \
	fi
	$(MAKE) -C $(KERNELDIR) M=$(CURDIR) modules

# Installing: the modules (signed with SIGN_KEY/SIGN_CERT), the CLI and
# its files, and the DKMS source tree.
include packaging/install.mk

# The Debian packages, built from a copy of the tree (the DKMS source
# tree has no packaging/deb.mk, and needs none).
-include packaging/deb.mk

check:
	tests/run-all.sh

# checkpatch, kernel-doc, sparse and the ABI documents' check: the style
# suite of make check.
style:
	tests/harness/style-check.sh

check-long:
	CHECK_LONG=1 tests/run-all.sh

demo:
	scripts/demo.sh

bench:
	bench/validate.sh

bench-fs:
	bench/fs-create-unlink.sh
	bench/fs-create-unlink.sh --mode off
	bench/fs-create-unlink.sh --clock icount --breakdown

bench-nf:
	bench/nf-udp.sh
	bench/nf-udp.sh --clock icount --port unwatched
	bench/nf-udp.sh --clock icount --port none
	for stop in 1 2 3; do bench/nf-udp.sh --clock icount --stop $$stop || exit; done

fuzz:
	$(MAKE) -f tests/core/Makefile.inc core-fuzz

fuzz-net:
	tests/net/fuzz-net.sh

clean:
	rm -rf $(BUILD)
	-[ -d "$(KERNELDIR)" ] && $(MAKE) -C $(KERNELDIR) M=$(CURDIR) clean

.PHONY: all cli module module-install cli-install man-install \
	completion-install config-install systemd-install userspace-install \
	install dkms dkms-install deb check check-long style demo fuzz fuzz-net clean core-freestanding bench \
	bench-fs bench-nf
