#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# copy-libs.sh - put a dynamically linked program's shared libraries and
# its dynamic loader into ROOT, at the paths ldd gives, for an initramfs
# (utf8guardctl is linked with libkmod, and Debian has no static libkmod).
# Usage: copy-libs.sh PROGRAM ROOT
set -euo pipefail

program=${1:?usage: copy-libs.sh PROGRAM ROOT}
root=${2:?usage: copy-libs.sh PROGRAM ROOT}
libs=$(ldd "$program" |
	awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]*ld-linux/ { print $1 }')
[ -n "$libs" ] || {
	echo "copy-libs: ldd finds no shared library of $program" >&2
	exit 1
}
for lib in $libs; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
