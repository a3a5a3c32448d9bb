#!/usr/bin/env bash
# check-kernel-config.sh - verify that a kernel .config honours a fragment.
#
# tinyconfig + olddefconfig silently drop symbols whose dependencies are
# missing; this fails loudly, listing every fragment line that did not make
# it into the final .config.
#   CONFIG_X=v            -> .config must contain exactly CONFIG_X=v
#                            (CONFIG_X="" may also be absent: symbol hidden)
#   # CONFIG_X is not set -> .config must not set CONFIG_X
# Usage: check-kernel-config.sh FRAGMENT DOTCONFIG
set -euo pipefail

if (($# != 2)); then
	echo "usage: $0 FRAGMENT DOTCONFIG" >&2
	exit 2
fi
fragment=$1
dotconfig=$2

bad=()
while IFS= read -r line; do
	if [[ "$line" =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		sym=${BASH_REMATCH[1]}
		want=${BASH_REMATCH[2]}
		got=$(grep -E "^${sym}=" "$dotconfig" | cut -d= -f2- || true)
		if [[ -z "$got" && "$want" == '""' ]]; then
			continue
		fi
		if [[ "$got" != "$want" ]]; then
			bad+=("$sym: wanted $want, got ${got:-<not set>}")
		fi
	elif [[ "$line" =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		sym=${BASH_REMATCH[1]}
		if grep -qE "^${sym}=" "$dotconfig"; then
			bad+=("$sym: wanted <not set>, got $(grep -E "^${sym}=" "$dotconfig")")
		fi
	fi
done <"$fragment"

if ((${#bad[@]})); then
	echo "check-kernel-config: ${#bad[@]} symbol(s) from $fragment not honoured in $dotconfig" \
		"(missing dependency? grep the Kconfig files):" >&2
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi
echo "check-kernel-config: all symbols of $(basename "$fragment") set as requested" >&2
