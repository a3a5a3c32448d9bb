#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-modules.sh - build utf8guard.ko and the test modules for one kernel.
#
# Copies the module sources into OUT_DIR (so that builds for different
# kernels never share object files) and runs
#	make -C KERNEL_TREE M=OUT_DIR W=1 UTF8GUARD_TESTS=m
# A compiler warning fails the build.  With --sparse, also runs sparse
# (C=2) on utf8guard.ko's sources and fails on any sparse report.
# Usage: build-modules.sh [--sparse] KERNEL_TREE OUT_DIR
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sparse=
if [ "${1:-}" = --sparse ]; then
	sparse=1
	shift
fi
tree=${1:?usage: build-modules.sh [--sparse] KERNEL_TREE OUT_DIR}
out=${2:?usage: build-modules.sh [--sparse] KERNEL_TREE OUT_DIR}

rm -rf "$out"
mkdir -p "$out"
(cd "$top" && find Kbuild kernel tests/consumer tests/fs/kmod tests/kunit tests/unicode \
	\( -name '*.[ch]' -o -name Kbuild -o -name .kunitconfig \) -print0 |
	cpio --quiet -0 -pdm "$out")

log=$out/build.log
if ! make -C "$tree" M="$out" W=1 UTF8GUARD_TESTS=m modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-modules: build failed against $tree" >&2
	exit 1
fi
if grep -E 'warning:|error:' "$log" >&2; then
	echo "build-modules: compiler warnings against $tree (W=1)" >&2
	exit 1
fi
if [ -n "$sparse" ]; then
	slog=$out/sparse.log
	make -C "$tree" M="$out" C=2 CHECK=sparse modules >"$slog" 2>&1 || {
		cat "$slog" >&2
		exit 1
	}
	# Only our own files: sparse also reports on some kernel headers.
	if grep -E "^$out/(kernel|tests)/.*: (warning|error):" "$slog" >&2; then
		echo "build-modules: sparse reports against $tree" >&2
		exit 1
	fi
fi
echo "build-modules: built $(cd "$out" && find . -name '*.ko' | sort | tr '\n' ' ')against $tree" >&2
