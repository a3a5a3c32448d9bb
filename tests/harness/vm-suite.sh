#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vm-suite.sh - run the module's suites in qemu on one kernel.
#
#   test   the project's debug test kernel (KUnit + KASAN, UBSAN, lockdep,
#          kmemleak, panic_on_warn): KUnit suites, then integration
#   stock  Debian's stock linux-image-amd64 with modules built against
#          linux-headers-amd64: integration
#
# Builds the modules for that kernel (warning-free, W=1), an initramfs with
# them and the guest tools, boots it (tests/vm/run-vm.sh judges: success
# only through the second serial port, no kernel splat), and for the test
# kernel parses the KUnit results with kunit.py.  The last stdout line is
# a summary: "<kind>: N passed, N failed[, kunit ...]".
# Usage: vm-suite.sh test|stock
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
vm=$top/tests/vm
kind=${1:?usage: vm-suite.sh test|stock}
out=$top/build/vm-$kind
mkdir -p "$out"

case $kind in
test)
	tree=$("$vm/build-test-kernel.sh" | tail -n 1)
	image=$tree/arch/x86/boot/bzImage
	guest=$here/guest-run-test-kernel.sh
	;;
stock)
	tree=$("$vm/stock-kernel.sh" --build)
	image=$("$vm/stock-kernel.sh" --image)
	guest=$here/guest-run-stock-kernel.sh
	;;
*)
	echo "usage: vm-suite.sh test|stock" >&2
	exit 2
	;;
esac

"$here/build-modules.sh" "$tree" "$out/modules"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/guest_write" \
	"$top/tests/module/guest_write.c"

files=()
while IFS= read -r ko; do
	files+=(--file "$ko:/utf8guard/modules/")
done < <(find "$out/modules" -name '*.ko' | sort)
files+=(--file "$out/guest_write:/utf8guard/tools/"
	--file "$top/tests/module/integration_test.sh:/utf8guard/tools/"
	--file "$top/Documentation/ABI/testing/sysfs-kernel-utf8guard:/utf8guard/tools/")
"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$guest" "${files[@]}"

status=0
"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd.cpio.gz" \
	--log "$out/console.log" --timeout 900 || status=1

counts=$(grep -aEo '^[0-9]+ passed, [0-9]+ failed' "$out/console.log" | tail -n 1)
counts=${counts:-no result line}
summary="$kind: $counts"
if [ "$kind" = test ]; then
	if kunit=$("$vm/kunit-parse.sh" "$out/console.log" --suites 3 2>&1 | tail -n 1); then
		summary="$summary, kunit: $kunit"
	else
		summary="$summary, kunit: FAILED ($kunit)"
		status=1
	fi
fi
echo "$summary"
exit $status
