#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fs-create-unlink.sh - `make bench-fs`: the overhead of utf8guard_fs.ko on
# a create/unlink loop.  A benchmark, not a test: it reports, it does not
# judge (exit status 0 whenever the measurement ran).
#
# Boots Debian's STOCK kernel under qemu (TCG) once, and inside it times
# ITERATIONS x (open(O_CREAT|O_EXCL) + close + unlink) of a well-formed name
# on tmpfs (bench/create_unlink.c), without the modules and with
# utf8guard.ko (mode MODE, default enforce) + utf8guard_fs.ko loaded, in ROUNDS rounds of
# alternating order, A B, B A, ... (bench/fs-create-unlink-guest.sh).  Prints
# the median time per iteration of each, their ratio, and the target
# (<= 3 %); and, as a cross-check, the median and spread of the per-round
# ratios.
# With --mode off, B is timed once the module has disarmed its probes
# (1 s after the load): what mode off costs, which should be nothing.
# With --breakdown, the same run also times utf8guard_fs_bench.ko
# (tests/fs/kmod/bench.h), whose check stops at the pre-handler's entry
# (the hook mechanism alone), before the name's scan, before the counters,
# or nowhere, and prints each configuration's median per iteration, its
# cost over the one before and over no modules; and how many times one
# iteration enters each function the modules probe.
# With --mechanisms (Debian's 6.1 kernel only), the rounds also time the
# benchmark prototype bench/hookproto/utf8guard_hookproto.ko: a trivial
# hook on security_inode_create() as a kprobe like utf8guard_fs.ko's, a
# kprobe without post_handler, an ftrace_ops of its own and an ftrace
# direct call; and the kprobe, the ftrace_ops and the direct call again,
# checking the name with utf8guard.ko's utf8guard_check_name().
# With --mounts N (1 to 16), the same run also times the modules with
# fs/mounts entries (issue 29's lookup): E, one entry, the tmpfs under
# test's; M, N entries, N-1 for tmpfs mounts of their own, then the tmpfs
# under test's in the last slot, so that the lookup compares all N; each
# with the global policy's classes, so that the check is otherwise B's
# (no entry: the lookup patched out).
# The CPU is emulated: only the ratio means anything.
# Usage: fs-create-unlink.sh [--iterations N (5000)] [--rounds R (21)]
#          [--smp N (1)] [--timeout SECS (900)] [--mode enforce|audit|off]
#          [--clock icount|wall|both (both)] [--breakdown] [--mechanisms]
#          [--mounts N]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=ab-vm-lib.sh
. "$top/bench/ab-vm-lib.sh"
vm=$top/tests/vm
out=$top/build/bench-fs
TARGET_PERCENT=1

usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}
iterations=5000 rounds=21 smp=1 timeout=900 clock=both mode=enforce
breakdown=0 mechanisms=0 mounts=0
while (($#)); do
	case $1 in
	--breakdown | --mechanisms)
		declare "${1#--}=1"
		shift
		continue
		;;
	esac
	(($# >= 2)) || usage
	case "$1" in
	--iterations) iterations=$2 ;;
	--rounds) rounds=$2 ;;
	--smp) smp=$2 ;;
	--clock) clock=$2 ;;
	--timeout) timeout=$2 ;;
	--mode) mode=$2 ;;
	--mounts) mounts=$2 ;;
	*) usage ;;
	esac
	shift 2
done
for v in "$iterations" "$rounds" "$smp" "$timeout"; do
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || usage
done
[[ "$clock" =~ ^(icount|wall|both)$ ]] || usage
[[ "$mounts" = 0 || "$mounts" =~ ^([1-9]|1[0-6])$ ]] || {
	echo "bench-fs: --mounts: '$mounts' is not 1 to 16" >&2
	exit 2
}
case $mode in
enforce | audit | off) ;;
*)
	echo "bench-fs: --mode: '$mode' is not enforce, audit or off" >&2
	exit 2
	;;
esac
if ((breakdown || mechanisms)) && [ "$mode" = off ]; then
	echo "bench-fs: --breakdown and --mechanisms measure a check: not with --mode off" >&2
	exit 2
fi

mkdir -p "$out"
"$top/scripts/install-deps.sh"
echo "bench-fs: building the loop (static) and the modules for the stock kernel..."
gcc -static -O2 -Wall -Wextra -Werror -o "$out/create_unlink" "$top/bench/create_unlink.c"
tree=$("$vm/stock-kernel.sh" --build)
image=$("$vm/stock-kernel.sh" --image)
"$top/tests/harness/build-modules.sh" "$tree" "$out/modules"
proto_file=()
if ((mechanisms)); then
	rm -rf "$out/hookproto"
	cp -r "$top/bench/hookproto" "$out/hookproto"
	make -C "$tree" M="$out/hookproto" W=1 UTF8GUARD_TOP="$top" \
		KBUILD_EXTRA_SYMBOLS="$out/modules/Module.symvers" modules \
		>"$out/hookproto/build.log" 2>&1 || {
		cat "$out/hookproto/build.log" >&2
		echo "bench-fs: bench/hookproto does not build against $tree (Debian's 6.1 only)" >&2
		exit 1
	}
	proto_file=(--file "$out/hookproto/utf8guard_hookproto.ko:/utf8guard/modules/")
fi
for ko in utf8guard.ko utf8guard_fs.ko tests/fs/kmod/utf8guard_fs_bench.ko; do
	[[ -f "$out/modules/$ko" ]] || {
		echo "bench-fs: $out/modules/$ko was not built (see $out/modules/build.log)" >&2
		exit 1
	}
done
printf 'ITERATIONS=%s\nROUNDS=%s\nMODE=%s\nBREAKDOWN=%s\nMECHANISMS=%s\nMOUNTS=%s\n' \
	"$iterations" "$rounds" "$mode" "$breakdown" "$mechanisms" "$mounts" \
	>"$out/bench.conf"

"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$top/bench/fs-create-unlink-guest.sh" \
	--file "$out/modules/utf8guard.ko:/utf8guard/modules/" \
	--file "$out/modules/utf8guard_fs.ko:/utf8guard/modules/" \
	--file "$out/modules/tests/fs/kmod/utf8guard_fs_bench.ko:/utf8guard/modules/" \
	"${proto_file[@]}" \
	--file "$out/create_unlink:/utf8guard/tools/" \
	--file "$out/bench.conf:/utf8guard/"

echo "bench-fs: booting $(basename "$image") under qemu (TCG, $smp CPU)," \
	"$rounds rounds of $iterations iterations with and without the modules..."
what="$iterations x (open(O_CREAT|O_EXCL) + close + unlink) of a well-formed name on tmpfs"
configs="A B"
((breakdown)) && configs="A H W S F B"
((mechanisms)) && configs="$configs K N O D X Y Z"
((mounts)) && configs="$configs E M"
if ((breakdown || mechanisms || mounts)); then
	AB_SUMMARY=fs-breakdown.awk \
		ab_measure bench-fs "$out" "$image" "$smp" "$timeout" "$clock" it \
		-v rounds="$rounds" -v target="$TARGET_PERCENT" -v what="$what" \
		-v mode="$mode" -v configs="$configs" -v mounts="$mounts"
else
	# Per round: guest time per iteration of A and B; then medians and
	# ratios.  Under -icount (shift=0) a guest nanosecond is one guest
	# instruction: the figures are instructions, the same run after run.
	ab_measure bench-fs "$out" "$image" "$smp" "$timeout" "$clock" it \
		-v rounds="$rounds" -v target="$TARGET_PERCENT" -v what="$what" \
		-v label_a="without modules" -v label_b="utf8guard_fs $mode" \
		-v subject="utf8guard_fs.ko in $mode"
fi
echo
echo "bench-fs: done (console logs: $out/console-*.log)"
