#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-net-tools.sh - build the network test tools the guests run, static
# (a busybox initramfs has no libc): net_op and tcp_fuzz, linked with the
# validator core, which judges what they receive (one decoder).  The one
# place they are built: vm-suite.sh, make demo, make bench-nf and
# make fuzz-net call it.
#
# Usage: build-net-tools.sh OUT_DIR
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:?usage: build-net-tools.sh OUT_DIR}
core=()
for f in $(make -s -C "$top" --no-print-directory core-sources); do
	core+=("$top/$f")
done
cc=(gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE
	-I "$top/userspace" -I "$top/core")
mkdir -p "$out"
"${cc[@]}" -o "$out/net_op" "$top/tests/net/net_op.c" \
	"$top/tests/net/tcp_inject.c" "$top/userspace/hex.c" "${core[@]}"
"${cc[@]}" -o "$out/tcp_fuzz" "$top/tests/net/tcp_fuzz.c" \
	"$top/tests/net/tcp_inject.c" "${core[@]}"
