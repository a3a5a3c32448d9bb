#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz-net.sh - `make fuzz-net`: a long run of the model-based TCP fuzzer
# (tests/net/tcp_fuzz.c) against utf8guard_nf.ko on a Debian stock kernel
# under qemu (TCG): tcp_fuzz_test.sh as the VM's script, for FUZZ_SECONDS
# (default 600) of sequences: two fifths IPv4, two fifths IPv6, one fifth
# with a full flow table.  Prints the seed first and the summary line of
# each round; a violation's replayable sequence is in the console log.
# Exit status 0 when every round found nothing.
#
# The pieces are vm-suite.sh's: stock-kernel.sh names the kernel,
# build-modules.sh builds the modules, stock-modules.sh copies the stock
# modules the hook needs, make-initramfs.sh and run-vm.sh boot it.
# Usage: fuzz-net.sh [--kernel NAME] [--seconds S | --count N] [--seed S]
#   --kernel NAME  a row of tests/vm/kernels.conf (default: the kernel
#                  linux-image-amd64 depends on)
#   --seconds S    default FUZZ_SECONDS, else 600
#   --count N      N sequences per family instead (make check's round)
#   --seed S       default FUZZ_SEED, else 8 random bytes
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vm=$top/tests/vm
usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}
stock_kernel=("$vm/stock-kernel.sh")
out=$top/build/fuzz-net
seconds=${FUZZ_SECONDS:-600}
count=
seed=${FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
while (($#)); do
	(($# >= 2)) || usage
	case "$1" in
	--kernel) stock_kernel+=(--kernel "$2"); out=$out-$2 ;;
	--seconds) seconds=$2 ;;
	--count) count=$2 ;;
	--seed) seed=$2 ;;
	*) usage ;;
	esac
	shift 2
done
for v in "$seconds" "${count:-1}" "$seed"; do
	[[ "$v" =~ ^[0-9]+$ ]] || usage
done
if [ -n "$count" ]; then
	env="NF_FUZZ_COUNT=$count"
	timeout=$((600 + count * 8))
else
	env="NF_FUZZ_SECONDS=$seconds"
	timeout=$((seconds + 600))
fi
mkdir -p "$out"
echo "fuzz-net: seed $seed (FUZZ_SEED=$seed replays it)"

tree=$("${stock_kernel[@]}" --build)
image=$("${stock_kernel[@]}" --image)
mods=$("$top/tests/harness/build-modules.sh" "$tree" | tail -n 1)
"$top/tests/net/build-net-tools.sh" "$out"
"$vm/stock-modules.sh" "$("${stock_kernel[@]}" --version)" "$out/stock-modules" \
	--deps-of "$mods/utf8guard_nf.ko"
"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$top/tests/net/tcp_fuzz_test.sh" \
	--file "$mods/utf8guard.ko:/utf8guard/modules/" \
	--file "$mods/utf8guard_nf.ko:/utf8guard/modules/" \
	--file "$out/tcp_fuzz:/utf8guard/tools/" --tree "$out/stock-modules"

echo "fuzz-net: booting $(basename "$image") under qemu (TCG), $env"
status=0
"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd.cpio.gz" \
	--log "$out/console.log" --append "NF_FUZZ_SEED=$seed $env" \
	--timeout "$timeout" --mem 1024 >"$out/run-vm.log" 2>&1 || status=1
tr -d '\r' <"$out/console.log" |
	grep -aE '^(# )?(tcp_fuzz: seed|seed [0-9]+ sequences|violation|inconsistent| *replay:|not ok|[0-9]+ passed)|utf8guard-time' || true
if [ $status -ne 0 ]; then
	tail -n 20 "$out/run-vm.log" >&2
	echo "fuzz-net: FAILED (console log: $out/console.log)" >&2
	exit 1
fi
echo "fuzz-net: seed $seed: no violation (console log: $out/console.log)"
