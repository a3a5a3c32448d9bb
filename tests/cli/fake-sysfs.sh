#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fake-sysfs.sh DIR [fs] [net] - a plain directory tree shaped like
# /sys/kernel/utf8guard, for running utf8guardctl against with
# UTF8GUARD_SYSFS=DIR: every file Documentation/ABI documents (the fs and
# net hooks' only when asked), with the kernel's default values and
# counters numbered 1, 2, 3... in file order.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
abi=$here/../../Documentation/ABI/testing
dir=${1:?usage: fake-sysfs.sh DIR [fs] [net]}
shift
docs=("$abi/sysfs-kernel-utf8guard")
for hook in "$@"; do
	docs+=("$abi/sysfs-kernel-utf8guard-$hook")
done
rm -rf "$dir"
mkdir -p "$dir"
n=0
sed -n 's|^What:[[:space:]]*/sys/kernel/utf8guard/||p' "${docs[@]}" |
	while read -r rel; do
		mkdir -p "$dir/$(dirname "$rel")"
		case $rel in
		mode) value='off audit [enforce]' ;;
		policy) value='strict path-tricks' ;;
		locked) value=0 ;;
		version) value=0.1.0 ;;
		unicode_version) value=15.0.0 ;;
		validator) value='scalar sse4.1 [avx2]' ;;
		*/enabled | */check_symlink_target) value=1 ;;
		*/forward) value=0 ;;
		*/action) value=drop ;;
		*/fstypes) value='*' ;;
		*/ports | */mounts | */exempt) value='' ;;
		*/flows_max) value=16384 ;;
		*/reset) value='' ;;
		*)
			n=$((n + 1))
			value=$n
			;;
		esac
		printf '%s\n' "$value" >"$dir/$rel"
		case $rel in
		*/reset) chmod 0200 "$dir/$rel" ;;
		version | unicode_version | */missed | */unhooked | */flows | */flows_max | */stats/*) chmod 0444 "$dir/$rel" ;;
		esac
	done
# Healthy hooks: nothing missed, every hook in effect, no flow.
for f in fs/missed fs/unhooked net/flows; do
	[ ! -e "$dir/$f" ] || { chmod 0644 "$dir/$f"; echo 0 >"$dir/$f"; chmod 0444 "$dir/$f"; }
done
