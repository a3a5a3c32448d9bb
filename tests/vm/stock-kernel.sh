#!/usr/bin/env bash
# stock-kernel.sh - locate a Debian kernel image and its headers tree.
#
# Without --kernel: Debian's stock kernel, the one the linux-image-amd64
# metapackage depends on (NOT uname -r: the host may run another kernel);
# `make demo` and the benchmarks use it.  With --kernel NAME: the row NAME
# of the kernel matrix, tests/vm/kernels.conf (what `make check` tests).
# Modules are built with `make -C "$(stock-kernel.sh --build)" M=<dir>`
# and booted on `stock-kernel.sh --image` under qemu.
# Usage: stock-kernel.sh [--kernel NAME] [--version | --image | --build]
#        stock-kernel.sh --list     the matrix's kernel names, one a line
#   no option: prints version=..., image=..., build=... (one per line)
set -euo pipefail

conf=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kernels.conf

# The rows of kernels.conf: "name release image headers".
matrix_rows() {
	local name release image headers
	while read -r name _ release image headers _; do
		[[ -z "$name" || "$name" == '#'* ]] && continue
		echo "$name $release $image $headers"
	done <"$conf"
}

name=
if [[ "${1:-}" == --list ]]; then
	matrix_rows | cut -d' ' -f1
	exit 0
fi
if [[ "${1:-}" == --kernel ]]; then
	name=${2:?usage: $0 --kernel NAME [--version | --image | --build]}
	shift 2
fi

if [[ -n "$name" ]]; then
	row=$(matrix_rows | awk -v n="$name" '$1 == n') || true
	if [[ -z "$row" ]]; then
		echo "stock-kernel: no kernel '$name' in $conf (have: $(matrix_rows | cut -d' ' -f1 | tr '\n' ' '))" >&2
		exit 1
	fi
	read -r _ version image_pkg headers_pkg <<<"$row"
	for pkg in "$image_pkg" "$headers_pkg"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || {
			echo "stock-kernel: $pkg ($name) is not installed (run scripts/install-deps.sh)" >&2
			exit 1
		}
	done
else
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
fi
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
	echo "usage: $0 [--kernel NAME] [--version | --image | --build] | --list" >&2
	exit 2
	;;
esac
