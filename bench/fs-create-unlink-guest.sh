#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh of `make bench-fs` (bench/fs-create-unlink.sh), inside
# the VM on Debian's stock kernel: times the create/unlink loop
# (/utf8guard/tools/create_unlink) on a fresh tmpfs
#   A  without the modules loaded
#   B  with utf8guard.ko (mode MODE) + utf8guard_fs.ko (defaults)
# in ROUNDS rounds whose order alternates (A B, B A, A B, ...) so that a
# drift of the emulated machine's speed weighs on both alike.  Prints one
#   bench-result: round=R config=A|B iterations=N elapsed_ns=T
# line per measurement for the host to summarise.  Each measurement is
# preceded by an untimed warm-up run.  In B it also checks that the hook is
# in effect: every create of the loop is counted (in mode off: none, and
# the probes are disarmed before the timing starts), nothing is missed.
# Before the rounds, a bad name is refused in enforce.  Exits non-zero on
# any failure.
set -u
# shellcheck source=/dev/null
. /utf8guard/bench.conf		# ITERATIONS=, ROUNDS=, MODE=
# shellcheck source=../tests/vm/vm-lib.sh
. /utf8guard/vm-lib.sh		# wait_fs_probes
mods=/utf8guard/modules
loop=/utf8guard/tools/create_unlink
S=/sys/kernel/utf8guard
dir=/mnt/bench

die() {
	echo "bench-error: $*"
	dmesg | tail -n 20
	exit 1
}
expect() {	# WHAT WANT GOT
	[ "$2" = "$3" ] || die "$1: expected '$2', got '$3'"
}

# load [MODE]: the modules, in MODE (default $MODE); in mode off, waits
# until the probes are disarmed.
load() {
	l_mode=${1:-$MODE}
	insmod $mods/utf8guard.ko mode="$l_mode" || die "insmod utf8guard.ko"
	insmod $mods/utf8guard_fs.ko || die "insmod utf8guard_fs.ko"
	expect "mode" "$(echo "off audit enforce" | sed "s/$l_mode/[$l_mode]/")" "$(cat $S/mode)"
	expect "fs/enabled" 1 "$(cat $S/fs/enabled)"
	expect "fs/fstypes" "*" "$(cat $S/fs/fstypes)"
	expect "fs/unhooked" 0 "$(cat $S/fs/unhooked)"
	if [ "$l_mode" = off ]; then
		expect "mode off: probes disarmed" "6 disabled 6" \
			"$(wait_fs_probes '6 disabled 6')"
	fi
	echo 1 >$S/fs/stats/reset || die "fs/stats/reset"
}
unload() {
	rmmod utf8guard_fs || die "rmmod utf8guard_fs"
	rmmod utf8guard || die "rmmod utf8guard"
}
# run N: the loop, N iterations; sets ns to its elapsed_ns.
run() {
	out=$($loop $dir "$1" 2>&1) || die "create_unlink: $out"
	ns=${out#*elapsed_ns=}
	ns=${ns%% *}
}
# measure CONFIG ROUND: load (B), warm up (untimed: after an insmod or
# rmmod the emulated machine runs slower for a while), time, check, unload.
measure() {
	if [ "$1" = B ]; then load; fi
	run $((ITERATIONS / 5 + 1))
	if [ "$1" = B ]; then
		echo 1 >$S/fs/stats/reset || die "fs/stats/reset"
	fi
	run "$ITERATIONS"
	echo "bench-result: round=$2 config=$1 iterations=$ITERATIONS elapsed_ns=$ns"
	if [ "$1" = B ]; then
		checked=$ITERATIONS
		[ "$MODE" = off ] && checked=0
		expect "round $2: fs/stats/create/checked" "$checked" \
			"$(cat $S/fs/stats/create/checked)"
		expect "round $2: fs/stats/rejected" 0 "$(cat $S/fs/stats/rejected)"
		expect "round $2: fs/missed" 0 "$(cat $S/fs/missed)"
		expect "round $2: fs/unhooked" 0 "$(cat $S/fs/unhooked)"
		unload
	fi
}

echo "bench: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU," \
	"$ITERATIONS iterations x $ROUNDS rounds"
mkdir -p $dir || die "mkdir $dir"
mount -t tmpfs -o size=16m bench $dir || die "mount tmpfs on $dir"
[ -z "$(ls -A $dir)" ] || die "$dir not empty"

# The hook is really there: a bad name is refused in enforce, allowed
# without the modules.
load enforce
out=$($loop $dir 1 "$(printf '\300\256.')" 2>&1) && die "bad name created in enforce"
case $out in
*"Invalid or incomplete multibyte or wide character"*) ;;
*) die "bad name: unexpected error: $out" ;;
esac
expect "refusal counted" 1 "$(cat $S/fs/stats/create/rejected)"
echo "bench: enforce refuses a bad name: $out"
unload
$loop $dir 1 "$(printf '\300\256.')" >/dev/null 2>&1 || die "bad name refused without the modules"

r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		measure A $r
		measure B $r
	else
		measure B $r
		measure A $r
	fi
	r=$((r + 1))
done
[ -z "$(ls -A $dir)" ] || die "files left in $dir"
umount $dir
echo "bench: done"
