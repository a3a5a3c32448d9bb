#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# nf-udp.sh - `make bench-nf`: the cost of utf8guard_nf.ko on UDP
# throughput.  A benchmark, not a test: it reports, it does not judge (exit
# status 0 whenever the measurement ran).
#
# Boots Debian's STOCK kernel under qemu (TCG) once, and inside it sends
# SIZE-byte well-formed UTF-8 datagrams over loopback to a receiver in the
# same process for SECONDS per measurement (net_op udp-bench), without the
# modules and with utf8guard.ko (mode enforce) + utf8guard_nf.ko watching
# the port, in ROUNDS rounds of alternating order, A B, B A, ...
# (bench/nf-udp-guest.sh).  Prints the median time per received datagram
# of each, their ratio, and the target (<= 5 %); and, as a cross-check,
# the median and spread of the per-round ratios.  --port unwatched: B
# watches another UDP port, so the figures are what the module costs
# traffic it does not check (target <= 1 %); --port none: B watches a TCP
# port only, so UDP traffic pays the hook call and no port lookup (the
# hook mechanism's share of the unwatched cost).  --stop N: B is the
# benchmark build utf8guard_nf_bench.ko (tests/net/kmod/bench.h), whose
# check of a watched datagram stops at its entry (1), before the payload
# (2) or before the verdict (3): the layers of the watched cost.
# The CPU is emulated: only the ratio means anything.  --clock: under
# -icount (the default runs both) guest time counts guest instructions.
# --validator PATH loads utf8guard.ko with validator=PATH (auto, scalar,
# sse4.1, avx2, avx512; default auto: AVX2 under -cpu max, which TCG emulates at a
# far higher cost than a real CPU's).
# Usage: nf-udp.sh [--size BYTES (1400)] [--seconds S (3)] [--rounds R (15)]
#          [--smp N (1)] [--timeout SECS (900)] [--validator PATH (auto)]
#          [--clock icount|wall|both (both)] [--port watched|unwatched|none]
#          [--stop 0|1|2|3 (0)]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=ab-vm-lib.sh
. "$top/bench/ab-vm-lib.sh"
vm=$top/tests/vm
out=$top/build/bench-nf
TARGET_PERCENT=5

usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}
size=1400 seconds=3 rounds=15 smp=1 timeout=900 clock=both port=watched validator=auto stop=0
while (($#)); do
	(($# >= 2)) || usage
	case "$1" in
	--size) size=$2 ;;
	--seconds) seconds=$2 ;;
	--rounds) rounds=$2 ;;
	--smp) smp=$2 ;;
	--clock) clock=$2 ;;
	--port) port=$2 ;;
	--stop) stop=$2 ;;
	--timeout) timeout=$2 ;;
	--validator) validator=$2 ;;
	*) usage ;;
	esac
	shift 2
done
for v in "$size" "$seconds" "$rounds" "$smp" "$timeout"; do
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || usage
done
((size <= 65000)) || usage
[[ "$validator" =~ ^(auto|scalar|sse4\.1|avx2|avx512)$ ]] || usage
[[ "$clock" =~ ^(icount|wall|both)$ ]] || usage
[[ "$port" =~ ^(watched|unwatched|none)$ ]] || usage
[[ "$stop" =~ ^[0-3]$ ]] || usage
[[ "$stop" = 0 || "$port" = watched ]] || usage
# The issue's targets: 5 % on a watched port, 1 % on one it does not watch.
label_b="enforce, $validator" subject="utf8guard_nf.ko in enforce"
if [ "$port" = unwatched ]; then
	TARGET_PERCENT=1
	label_b="loaded, unwatched" subject="utf8guard_nf.ko loaded, the port unwatched"
elif [ "$port" = none ]; then
	TARGET_PERCENT=1
	label_b="loaded, no UDP port" subject="utf8guard_nf.ko loaded, no UDP port watched"
fi
stops=("" "at its entry" "before the payload" "before the verdict")
if [ "$stop" != 0 ]; then
	label_b="stop $stop" subject="the check stopped ${stops[$stop]} (utf8guard_nf_bench.ko stop=$stop)"
fi

mkdir -p "$out"
"$top/scripts/install-deps.sh"
echo "bench-nf: building net_op (static) and the modules for the stock kernel..."
"$top/tests/net/build-net-tools.sh" "$out"
tree=$("$vm/stock-kernel.sh" --build)
image=$("$vm/stock-kernel.sh" --image)
"$top/tests/harness/build-modules.sh" "$tree" "$out/modules"
for ko in utf8guard.ko utf8guard_nf.ko tests/net/kmod/utf8guard_nf_bench.ko; do
	[[ -f "$out/modules/$ko" ]] || {
		echo "bench-nf: $out/modules/$ko was not built (see $out/modules/build.log)" >&2
		exit 1
	}
done
"$vm/stock-modules.sh" "$("$vm/stock-kernel.sh" --version)" \
	"$out/stock-modules" --deps-of "$out/modules/utf8guard_nf.ko"
printf 'SIZE=%s\nSECONDS=%s\nROUNDS=%s\nVALIDATOR=%s\nWATCHED=%s\nSTOP=%s\n' "$size" \
	"$seconds" "$rounds" "$validator" "$port" "$stop" >"$out/bench.conf"

"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$top/bench/nf-udp-guest.sh" \
	--file "$out/modules/utf8guard.ko:/utf8guard/modules/" \
	--file "$out/modules/utf8guard_nf.ko:/utf8guard/modules/" \
	--file "$out/modules/tests/net/kmod/utf8guard_nf_bench.ko:/utf8guard/modules/" \
	--file "$out/net_op:/utf8guard/tools/" \
	--file "$out/bench.conf:/utf8guard/" --tree "$out/stock-modules"

echo "bench-nf: booting $(basename "$image") under qemu (TCG, $smp CPU)," \
	"$rounds rounds of $seconds s with and without the modules..."
# Under -icount (shift=0) a guest nanosecond is one guest instruction:
# the figures are instructions per datagram, the same run after run.
ab_measure bench-nf "$out" "$image" "$smp" "$timeout" "$clock" dg \
	-v rounds="$rounds" -v target="$TARGET_PERCENT" \
	-v what="$size-byte UTF-8 datagrams over loopback, $seconds s per measurement" \
	-v label_a="without modules" -v label_b="$label_b" -v subject="$subject"
echo
echo "bench-nf: done (console logs: $out/console-*.log)"
