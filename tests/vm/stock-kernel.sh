#!/usr/bin/env bash
# stock-kernel.sh - locate Debian's stock kernel image and its headers tree.
#
# The version comes from the dependency of the linux-image-amd64
# metapackage (NOT uname -r: the host may run another kernel), so modules
# can be built with `make -C "$(stock-kernel.sh --build)" M=<dir>` and booted
# on `stock-kernel.sh --image` under qemu.
# Usage: stock-kernel.sh [--version | --image | --build]
#   no option: prints version=..., image=..., build=... (one per line)
set -euo pipefail

depends=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) || {
	echo "stock-kernel: linux-image-amd64 is not installed (run scripts/install-deps.sh)" >&2
	exit 1
}
# e.g. "linux-image-6.1.0-56-amd64 (= 6.1.192-2)"; may carry "-unsigned"
if [[ ! "$depends" =~ linux-image-([0-9][^ ,|]*-amd64) ]]; then
	echo "stock-kernel: cannot parse linux-image-amd64 Depends: $depends" >&2
	exit 1
fi
version=${BASH_REMATCH[1]}
image=/boot/vmlinuz-$version
build=/lib/modules/$version/build

[[ -r "$image" ]] || { echo "stock-kernel: $image not readable" >&2; exit 1; }
[[ -f "$build/Makefile" ]] || {
	echo "stock-kernel: $build missing (linux-headers-$version installed?)" >&2
	exit 1
}
build=$(readlink -f "$build")

case "${1:-}" in
--version) echo "$version" ;;
--image) echo "$image" ;;
--build) echo "$build" ;;
"") printf 'version=%s\nimage=%s\nbuild=%s\n' "$version" "$image" "$build" ;;
*)
	echo "usage: $0 [--version | --image | --build]" >&2
	exit 2
	;;
esac
