#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh - `make demo`: build the CLI and the modules for Debian's stock
# kernel, boot that kernel in qemu (TCG) with them, and show an admin
# session (scripts/demo-guest.sh) refusing 2F C0 AE 2E 2F and friends, in
# the validator, in mkdir through the filesystem hook, and in UDP and TCP
# payloads through the netfilter hook.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
vm=$top/tests/vm
out=$top/build/demo
mkdir -p "$out"

"$top/scripts/install-deps.sh"
echo "demo: building utf8guardctl and the modules..."
make -s -C "$top" BUILD="$out/cli" cli
# utf8guardctl is linked with libkmod (Debian has no static libkmod): its
# shared libraries and the dynamic loader go into the initramfs with it.
libs=$out/libs
rm -rf "$libs"
"$vm/copy-libs.sh" "$out/cli/utf8guardctl" "$libs"
tree=$("$vm/stock-kernel.sh" --build)
image=$("$vm/stock-kernel.sh" --image)
"$top/tests/harness/build-modules.sh" "$tree" "$out/modules"
"$top/tests/net/build-net-tools.sh" "$out"
"$vm/stock-modules.sh" "$("$vm/stock-kernel.sh" --version)" \
	"$out/stock-modules" --deps-of "$out/modules/utf8guard_nf.ko"

"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$top/scripts/demo-guest.sh" \
	--file "$out/cli/utf8guardctl:/utf8guard/tools/" --tree "$libs" \
	--file "$out/modules/utf8guard.ko:/utf8guard/modules/" \
	--file "$out/modules/utf8guard_fs.ko:/utf8guard/modules/" \
	--file "$out/modules/utf8guard_nf.ko:/utf8guard/modules/" \
	--file "$out/modules/tests/consumer/utf8guard_consumer.ko:/utf8guard/modules/" \
	--file "$out/net_op:/utf8guard/tools/" --tree "$out/stock-modules"

echo "demo: booting $(basename "$image") under qemu (TCG)..."
status=0
"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd.cpio.gz" \
	--log "$out/console.log" --append "quiet loglevel=4" --timeout 300 \
	>"$out/run-vm.log" 2>&1 || status=$?
# The session creates names that are not UTF-8 (busybox echoes them).  No
# decoding here: as utf8guardctl's escape_write() does, every byte outside
# printable ASCII (newlines aside) is shown as \xHH.
sed -n '/^=== utf8guard demo start/,/^=== utf8guard demo end/p' "$out/console.log" |
	tr -d '\r' |
	LC_ALL=C perl -pe 's/([^\x20-\x7e\n])/sprintf("\\x%02x", ord($1))/ge'
if [ $status -ne 0 ]; then
	tail -n 20 "$out/run-vm.log" >&2
	echo "demo: the VM run failed (console log: $out/console.log)" >&2
	exit 1
fi
echo
echo "demo: done (full console log: $out/console.log)"
