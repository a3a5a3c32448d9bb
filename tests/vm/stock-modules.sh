#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# stock-modules.sh - a /lib/modules tree with some of the stock kernel's
# modules, for the initramfs, so that `modprobe ext4` works in the guest.
#
# Copies each MODULE and everything it depends on (modprobe --show-depends
# against the installed stock kernel) into ROOT/lib/modules/VERSION/ and
# runs depmod there.  Debian's stock kernel builds ext4, loop, 9p and
# virtio_pci as modules; the test kernel has them built in.
# --deps-of KO adds the stock modules KO depends on (its modinfo
# "depends", less our own utf8guard*): the one list of what
# utf8guard_nf.ko needs (nf_defrag_*, nf_reject_*) is the module's own.
# Usage: stock-modules.sh VERSION ROOT [--deps-of KO]... [MODULE]...
set -euo pipefail

usage="usage: $0 VERSION ROOT [--deps-of KO]... [MODULE]..."
if (($# < 3)); then
	echo "$usage" >&2
	exit 2
fi
version=$1
root=$2
shift 2
src=/lib/modules/$version
dest=$root/lib/modules/$version

modules=()
while (($#)); do
	case $1 in
	--deps-of)
		(($# >= 2)) || { echo "$usage" >&2; exit 2; }
		depends=$(modinfo -F depends "$2") || {
			echo "stock-modules: cannot read $2" >&2
			exit 1
		}
		for module in ${depends//,/ }; do
			[[ "$module" == utf8guard* ]] || modules+=("$module")
		done
		shift 2
		;;
	*)
		modules+=("$1")
		shift
		;;
	esac
done
((${#modules[@]})) || { echo "$usage" >&2; exit 2; }

rm -rf "$root"
mkdir -p "$dest"
for module in "${modules[@]}"; do
	deps=$(modprobe --show-depends -S "$version" "$module") || {
		echo "stock-modules: $module: not a module of $version" >&2
		exit 1
	}
	while read -r verb path _; do
		[[ "$verb" == insmod ]] || continue
		mkdir -p "$dest/$(dirname "${path#"$src"/}")"
		cp -p "$path" "$dest/${path#"$src"/}"
	done <<<"$deps"
done
cp -p "$src"/modules.builtin "$src"/modules.builtin.modinfo "$src"/modules.order "$dest/"
depmod -b "$root" "$version"
echo "stock-modules: $(find "$dest" -name '*.ko*' | wc -l) modules for ${modules[*]} in $root" >&2
