#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install the Debian packages `make check` and `make demo`
# need (and with --bench, those `make bench` needs); the one list of them.
# Idempotent: asks dpkg what is missing and only then runs apt-get update +
# install.  Needs root when something is missing (Debian 12).
# Usage: install-deps.sh [--bench]
set -euo pipefail

PACKAGES=(
	# the CLI and the userspace suites (static libc for VM tools)
	build-essential python3 git perl
	# libFuzzer with ASan/UBSan
	clang libclang-rt-14-dev
	# building the test kernel and out-of-tree modules; static checks
	bc flex bison libelf-dev libssl-dev kmod cpio xz-utils sparse
	# kernel sources (test kernel, kunit.py, checkpatch.pl), stock kernel
	linux-source-6.1 linux-image-amd64 linux-headers-amd64
	# running the VMs
	qemu-system-x86 busybox-static e2fsprogs util-linux
)

# `make bench`: the baselines (GLib, ICU, Node's simdutf) and callgrind.
BENCH_PACKAGES=(libglib2.0-dev libicu-dev pkg-config valgrind)
case "${1:-}" in
--bench)
	PACKAGES=("${BENCH_PACKAGES[@]}")
	# Any Node >= 18.14 has buffer.isUtf8; Debian's nodejs if there is none.
	command -v node >/dev/null || PACKAGES+=(nodejs)
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

if ((${#missing[@]} == 0)); then
	echo "install-deps: all ${#PACKAGES[@]} packages already installed" >&2
	exit 0
fi
if ((EUID != 0)); then
	echo "install-deps: missing packages (${missing[*]}); run as root or install them: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
