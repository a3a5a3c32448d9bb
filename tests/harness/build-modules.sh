#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-modules.sh - build utf8guard.ko and the test modules for one kernel.
#
# Copies the module sources into OUT_DIR (so that builds for different
# kernels never share object files) and runs
#	make -C KERNEL_TREE M=OUT_DIR W=1 UTF8GUARD_TESTS=m
# A compiler warning fails the build.  With --sparse, also runs sparse
# (C=2) on utf8guard.ko's sources and fails on any sparse report.
# A build is done once: OUT_DIR keeps a stamp of the kernel tree and of
# the sources, and a second call with the same ones (the style suite's
# sparse run and vm-stock's build, say) only adds what it lacks.  Calls
# on one OUT_DIR take turns (flock).  Without OUT_DIR: build/modules/RELEASE
# (the kernel's release), the place every suite of a run shares.  The
# last stdout line is OUT_DIR.
# Usage: build-modules.sh [--sparse] KERNEL_TREE [OUT_DIR]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sparse=
if [ "${1:-}" = --sparse ]; then
	sparse=1
	shift
fi
tree=${1:?usage: build-modules.sh [--sparse] KERNEL_TREE [OUT_DIR]}
release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$tree/include/generated/utsrelease.h")
[ -n "$release" ] || { echo "build-modules: no UTS_RELEASE in $tree" >&2; exit 1; }
out=${2:-$top/build/modules/$release}

sources() {
	(cd "$top" && find Kbuild core kernel tests/consumer tests/fs/kmod tests/net/kmod tests/unicode \
		\( -name '*.[ch]' -o -name Kbuild -o -name .kunitconfig \) -print0)
}
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
stamp=$( (cd "$tree" && pwd -P; echo "$release"
	cd "$top" && sources | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum)
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "build-modules: $out is up to date" >&2
else
	rm -rf "$out"
	mkdir -p "$out"
	(cd "$top" && sources | cpio --quiet -0 -pdm "$out")
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
	echo "$stamp" >"$out/.stamp"
fi
if [ -n "$sparse" ]; then
	# With the build's own flags, so that nothing is compiled again.
	slog=$out/sparse.log
	make -C "$tree" M="$out" W=1 UTF8GUARD_TESTS=m C=2 CHECK=sparse modules >"$slog" 2>&1 || {
		cat "$slog" >&2
		exit 1
	}
	# Only our own files: sparse also reports on some kernel headers.
	if grep -E "^$out/(core|kernel|tests)/.*: (warning|error):" "$slog" >&2; then
		echo "build-modules: sparse reports against $tree" >&2
		exit 1
	fi
fi
echo "build-modules: built $(cd "$out" && find . -name '*.ko' | sort | tr '\n' ' ')against $tree" >&2
echo "$out"
