#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install the Debian packages `make check` and `make demo`
# need; the one list of them, plus the kernel matrix pinned in
# tests/vm/kernels.conf (image and headers of each kernel, exact versions;
# the 6.12 rows from bookworm-backports, whose apt source this adds when
# no source names that suite).  Idempotent: asks dpkg what is missing and
# only then runs apt-get update + install.  Needs root when something is
# missing (Debian 12).  Installing a kernel package here never changes the
# kernel that linux-image-amd64 depends on (checked).
# With --bench: only what `make bench` needs (no kernel).
# Usage: install-deps.sh [--bench]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KERNELS_CONF=$top/tests/vm/kernels.conf
BACKPORTS_SOURCE=/etc/apt/sources.list.d/utf8guard-bookworm-backports.sources

PACKAGES=(
	# the CLI and the userspace suites (static libc for VM tools)
	build-essential python3 git perl
	# utf8guardctl load/unload (libkmod), its tests (Prometheus text parser)
	libkmod-dev pkg-config python3-prometheus-client
	# the Unicode data the class tables are generated from and tested on
	unicode-data
	# libFuzzer with ASan/UBSan
	clang libclang-rt-14-dev
	# building the test kernel and out-of-tree modules; static checks
	bc flex bison libelf-dev libssl-dev kmod cpio xz-utils sparse
	# kernel sources (test kernel, kunit.py, checkpatch.pl), stock kernel
	linux-source-6.1 linux-image-amd64 linux-headers-amd64
	# running the VMs
	qemu-system-x86 busybox-static e2fsprogs btrfs-progs ocfs2-tools util-linux
	# the install suite: dkms add/build, man page lint (mandoc, and groff
	# through man-db), systemd-analyze verify
	dkms mandoc man-db groff-base systemd
	# the deb suite: make deb (dpkg-buildpackage, dh with dh_dkms), lintian
	dpkg-dev debhelper dh-dkms lintian
	# the Debian guest (tests/guest/): its root filesystem, its disk
	mmdebstrap qemu-utils
)

# `make bench`: the baselines (GLib, ICU, Node's simdutf), callgrind, and
# libkmod, which utf8guardctl (timed by check-file.sh) links with.
BENCH_PACKAGES=(libglib2.0-dev libicu-dev pkg-config valgrind libkmod-dev)
matrix=1
case "${1:-}" in
--bench)
	PACKAGES=("${BENCH_PACKAGES[@]}")
	# Any Node >= 18.14 has buffer.isUtf8; Debian's nodejs if there is none.
	command -v node >/dev/null || PACKAGES+=(nodejs)
	matrix=
	;;
"") ;;
*)
	echo "usage: install-deps.sh [--bench]" >&2
	exit 2
	;;
esac

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	if [[ "$status" != "install ok installed" ]]; then
		missing+=("$pkg")
	fi
done

# The kernel matrix: "package=version" for every image and headers package
# not installed at exactly that version.
kernels=()
backports=
while [[ -n "$matrix" ]] && read -r name suite _release image headers version extra; do
	[[ -z "$name" || "$name" == '#'* ]] && continue
	if [[ -z "$version" || -n "$extra" ]]; then
		echo "install-deps: $KERNELS_CONF: bad row for $name (want: name suite release image headers version)" >&2
		exit 1
	fi
	[[ "$suite" == bookworm-backports ]] && backports=1
	for pkg in "$image" "$headers"; do
		have=$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null || true)
		if [[ "$have" != "install ok installed $version" ]]; then
			kernels+=("$pkg=$version")
		fi
	done
done <"$KERNELS_CONF"

has_backports_source() {
	grep -qsE '^[[:space:]]*Suites:.*[[:space:]]bookworm-backports([[:space:]]|$)' \
		/etc/apt/sources.list.d/*.sources ||
		grep -qsE '^[[:space:]]*deb[[:space:]].*[[:space:]]bookworm-backports[[:space:]]' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list
}

if ((${#missing[@]} + ${#kernels[@]} == 0)); then
	echo "install-deps: all ${#PACKAGES[@]} packages and the kernel matrix already installed" >&2
	exit 0
fi
if ((EUID != 0)); then
	echo "install-deps: missing packages (${missing[*]} ${kernels[*]}); run as root or install them: apt-get install ${missing[*]} ${kernels[*]}" >&2
	exit 1
fi

# bookworm-backports, from the same mirror and with the same key as the
# source that holds bookworm (debian.sources on a stock installation).
if [[ -n "$backports" ]] && ! has_backports_source; then
	stanza=$(awk -v RS= '/(^|\n)Suites:.*[[:space:]]bookworm([[:space:]]|$)/ { print; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null)
	uris=$(sed -n 's/^URIs:[[:space:]]*//p' <<<"$stanza" | head -n 1)
	key=$(sed -n 's/^Signed-By:[[:space:]]*//p' <<<"$stanza" | head -n 1)
	if [[ -z "$uris" || -z "$key" ]]; then
		echo "install-deps: no deb822 source with 'Suites: bookworm' (URIs and Signed-By) under /etc/apt/sources.list.d/; add bookworm-backports yourself" >&2
		exit 1
	fi
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' \
		"$uris" "$key" >"$BACKPORTS_SOURCE"
	echo "install-deps: added $BACKPORTS_SOURCE ($uris)" >&2
fi

stock_before=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)
# linux-base's hook points /vmlinuz and /initrd.img (and .old) at the newest
# kernel installed; put them back afterwards, so that a boot loader that
# follows them keeps booting the kernel it booted before.
links=(/vmlinuz /vmlinuz.old /initrd.img /initrd.img.old)
declare -A link_before=()
for link in "${links[@]}"; do
	link_before[$link]=$(readlink "$link" 2>/dev/null || true)
done
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
if ((${#missing[@]})); then
	echo "install-deps: installing: ${missing[*]}" >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if ((${#kernels[@]})); then
	# Exact versions; --allow-downgrades takes a kernel package that was
	# upgraded within its ABI back to the pinned version.
	echo "install-deps: installing the kernel matrix: ${kernels[*]}" >&2
	apt-get install -y -q --no-install-recommends --allow-downgrades "${kernels[@]}" || {
		echo "install-deps: installing the pinned kernels failed; if the mirror no longer has these versions, update $KERNELS_CONF" >&2
		exit 1
	}
fi
for link in "${links[@]}"; do
	was=${link_before[$link]}
	if [[ "$(readlink "$link" 2>/dev/null || true)" != "$was" ]]; then
		if [[ -n "$was" ]]; then
			ln -sfn "$was" "$link"
		else
			rm -f "$link"
		fi
		echo "install-deps: kept $link as it was (${was:-absent})" >&2
	fi
done
# Only if it was installed before (--bench installs no kernel package).
stock_after=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)
if [[ -n "$stock_before" && "$stock_before" != "$stock_after" ]]; then
	echo "install-deps: linux-image-amd64 changed from '$stock_before' to '$stock_after'" >&2
	exit 1
fi
