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
# With BREAKDOWN=1 (--breakdown), each round times, in an order that
# rotates from round to round, A, then utf8guard_fs_bench.ko
# (tests/fs/kmod/bench.h) in enforce with its check stopped
#   H  at the pre-handler's entry (the hook mechanism alone)
#   W  before the name is scanned (settings, overlay marks looked at)
#   S  before anything is counted (the name scanned)
#   F  nowhere (the whole check, as B)
# then B; and once, untimed, counts the entries into every function the
# modules probe during ITERATIONS iterations (the function tracer):
#   bench-hits: iterations=N function=F hits=H
# With MECHANISMS=1 (--mechanisms), the rounds also time
# utf8guard_hookproto.ko (bench/hookproto/; with utf8guard.ko, which it
# links with, and not utf8guard_fs.ko), its trivial hook on
# security_inode_create() through
#   K  a kprobe as utf8guard_fs.ko's (pre- and post_handler)
#   N  a kprobe without post_handler
#   O  an ftrace_ops of its own (SAVE_REGS | IPMODIFY)
#   D  an ftrace direct call
# each checked first: a name that starts with FF is refused, another not;
# then K, O and D again with the name checked by utf8guard.ko's
# utf8guard_check_name() (check=1):
#   X  kprobe   Y  ftrace_ops   Z  direct call
# each checked first: C0 AE refused in enforce, a well-formed name not.
# With MOUNTS=N (--mounts), the rounds also time B with fs/mounts entries
#   E  one, the tmpfs under test's
#   M  N: N-1 for tmpfs mounts of their own ("strict"), then the tmpfs
#      under test's, last (the lookup compares N)
# the tmpfs under test's with the global policy's classes; checked after
# the load: its entry listed last, 1 or N lines.
set -u
# shellcheck source=/dev/null
. /utf8guard/bench.conf		# ITERATIONS=, ROUNDS=, MODE=, BREAKDOWN=, MECHANISMS=, MOUNTS=
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

# load [MODE [FS_MODULE]]: the modules, in MODE (default $MODE), with
# FS_MODULE (default utf8guard_fs); in mode off, waits until the probes
# are disarmed.
load() {
	l_mode=${1:-$MODE}
	fs_module=${2:-utf8guard_fs}
	insmod $mods/utf8guard.ko mode="$l_mode" || die "insmod utf8guard.ko"
	insmod "$mods/$fs_module.ko" || die "insmod $fs_module.ko"
	expect "mode" "$(echo "off audit enforce" | sed "s/$l_mode/[$l_mode]/")" "$(cat $S/mode)"
	expect "fs/enabled" 1 "$(cat $S/fs/enabled)"
	expect "fs/fstypes" "*" "$(cat $S/fs/fstypes)"
	expect "fs/unhooked" 0 "$(cat $S/fs/unhooked)"
	if [ -n "${l_entries:-}" ]; then
		printf '%s' "$l_entries" >$S/fs/mounts || die "fs/mounts: $l_entries"
		l_count=$(printf '%s' "$l_entries" | grep -c .)
		expect "fs/mounts: the bench tmpfs last, $l_count entries" \
			"$dir $(cat $S/policy) $l_count" \
			"$(tail -n 1 $S/fs/mounts) $(grep -c . $S/fs/mounts)"
	fi
	if [ "$l_mode" = off ]; then
		expect "mode off: probes disarmed" "6 disabled 6" \
			"$(wait_fs_probes '6 disabled 6')"
	fi
	echo 1 >$S/fs/stats/reset || die "fs/stats/reset"
}
unload() {
	rmmod "$fs_module" || die "rmmod $fs_module"
	rmmod utf8guard || die "rmmod utf8guard"
}
# run N: the loop, N iterations; sets ns to its elapsed_ns.
run() {
	out=$($loop $dir "$1" 2>&1) || die "create_unlink: $out"
	ns=${out#*elapsed_ns=}
	ns=${ns%% *}
}
# stop_of CONFIG: where utf8guard_fs_bench.ko's check stops in CONFIG
# (bench.h), or nothing for A and B.
stop_of() {
	case $1 in
	H) echo 1 ;;
	W) echo 2 ;;
	S) echo 3 ;;
	F) echo 0 ;;
	esac
}
# mech_of CONFIG: utf8guard_hookproto.ko's mech= in CONFIG, or nothing.
mech_of() {
	case $1 in
	K | X) echo kprobe ;;
	N) echo kprobe-nopost ;;
	O | Y) echo ftrace ;;
	D | Z) echo direct ;;
	esac
}
# proto_load MECH [CHECK]: utf8guard.ko in mode MODE (which the
# prototype links with), then utf8guard_hookproto.ko with mech=MECH and
# check=CHECK (default 0).
proto_load() {
	insmod $mods/utf8guard.ko mode="$MODE" || die "insmod utf8guard.ko"
	insmod $mods/utf8guard_hookproto.ko mech="$1" check="${2:-0}" ||
		die "insmod utf8guard_hookproto.ko mech=$1 check=${2:-0}"
}
proto_unload() {
	rmmod utf8guard_hookproto || die "rmmod utf8guard_hookproto"
	rmmod utf8guard || die "rmmod utf8guard"
}
# proto_check MECH [CHECK]: under utf8guard_hookproto.ko mech=MECH, a name
# that starts with FF (with CHECK 1: C0 AE) is refused with EILSEQ, and a
# well-formed one is not.
proto_check() {
	bad=$(printf '\377x') shown='FF 78'
	if [ "${2:-0}" = 1 ]; then
		bad=$(printf '\300\256.') shown='C0 AE 2E'
	fi
	proto_load "$1" "${2:-0}"
	out=$($loop $dir 1 "$bad" 2>&1) &&
		die "mech=$1 check=${2:-0}: the name $shown was created"
	case $out in
	*"Invalid or incomplete multibyte or wide character"*) ;;
	*) die "mech=$1 check=${2:-0}: unexpected error: $out" ;;
	esac
	$loop $dir 1 >/dev/null 2>&1 ||
		die "mech=$1 check=${2:-0}: a good name was refused"
	proto_unload
	echo "bench: mech=$1 check=${2:-0} refuses the name $shown, lets another through"
}

# measure CONFIG ROUND: load (all but A), warm up (untimed: after an insmod
# or rmmod the emulated machine runs slower for a while), time, check,
# unload.  Every check but H's, W's and S's counts each create.
measure() {
	stop=$(stop_of "$1")
	param=/sys/module/utf8guard_fs_bench/parameters/stop
	mech=$(mech_of "$1")
	l_entries=
	case $1 in
	A) ;;
	B) load ;;
	E)
		l_entries=$own
		load
		;;
	M)
		l_entries=$entries$own
		load
		;;
	K | N | O | D) proto_load "$mech" ;;
	X | Y | Z) proto_load "$mech" 1 ;;
	*)
		load "$MODE" utf8guard_fs_bench
		echo "$stop" >$param || die "$param"
		;;
	esac
	run $((ITERATIONS / 5 + 1))
	if [ "$1" != A ] && [ -z "$mech" ]; then
		echo 1 >$S/fs/stats/reset || die "fs/stats/reset"
	fi
	run "$ITERATIONS"
	echo "bench-result: round=$2 config=$1 iterations=$ITERATIONS elapsed_ns=$ns"
	if [ -n "$mech" ]; then
		proto_unload
	elif [ "$1" != A ]; then
		checked=$ITERATIONS
		[ "$MODE" = off ] && checked=0
		case $1 in H | W | S) checked=0 ;; esac
		# The whole check again: the self-test behind fs/unhooked.
		[ -n "$stop" ] && { echo 0 >$param || die "$param"; }
		expect "round $2 $1: fs/stats/create/checked" "$checked" \
			"$(cat $S/fs/stats/create/checked)"
		expect "round $2 $1: fs/stats/rejected" 0 "$(cat $S/fs/stats/rejected)"
		expect "round $2 $1: fs/missed" 0 "$(cat $S/fs/missed)"
		expect "round $2 $1: fs/unhooked" 0 "$(cat $S/fs/unhooked)"
		unload
	fi
}

# count_hits: ITERATIONS iterations with the modules loaded, untimed,
# under the function tracer filtered on every function they hook (their
# kprobes in debugfs kprobes/list, their ftrace_ops's functions in
# tracefs enabled_functions, before the tracer is on); one bench-hits
# line per function.
count_hits() {
	T=/sys/kernel/tracing
	[ -w $T/set_ftrace_filter ] || die "no function tracer in $T"
	load
	funcs=$({ sed -n 's/^[0-9a-f]*  *[kr]  *\([^+ ]*\)+.*/\1/p' \
		/sys/kernel/debug/kprobes/list
		sed -n 's/^\([A-Za-z0-9_.]*\) .*/\1/p' $T/enabled_functions; } |
		sort -u)
	[ -n "$funcs" ] || die "no hooked function in kprobes/list or enabled_functions"
	for f in $funcs; do
		echo "$f" >>$T/set_ftrace_filter || die "set_ftrace_filter $f"
	done
	echo >$T/trace
	echo function >$T/current_tracer || die "current_tracer function"
	run "$ITERATIONS"
	# Read before the tracer goes: a change of tracer empties the buffer.
	echo 0 >$T/tracing_on
	for f in $funcs; do
		echo "bench-hits: iterations=$ITERATIONS function=$f hits=$(grep -c ": $f <-" $T/trace)"
	done
	echo nop >$T/current_tracer
	echo 1 >$T/tracing_on
	echo >$T/set_ftrace_filter
	echo >$T/trace
	unload
}

echo "bench: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU," \
	"$ITERATIONS iterations x $ROUNDS rounds"
mkdir -p $dir || die "mkdir $dir"
mount -t tmpfs -o size=16m bench $dir || die "mount tmpfs on $dir"
[ -z "$(ls -A $dir)" ] || die "$dir not empty"
# MOUNTS-1 other tmpfs mounts, each with an entry, then $dir's.
entries=
k=1
while [ $k -lt "${MOUNTS:-0}" ]; do
	mkdir -p /mnt/bench-e$k || die "mkdir /mnt/bench-e$k"
	mount -t tmpfs -o size=1m e$k /mnt/bench-e$k || die "mount /mnt/bench-e$k"
	entries="$entries/mnt/bench-e$k strict
"
	k=$((k + 1))
done
own="$dir strict path-tricks
"

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

configs="A B"
[ "${BREAKDOWN:-0}" = 1 ] && configs="A H W S F B"
[ "${MOUNTS:-0}" -gt 0 ] && configs="$configs E M"
if [ "${MECHANISMS:-0}" = 1 ]; then
	configs="$configs K N O D X Y Z"
	for m in kprobe kprobe-nopost ftrace direct; do
		proto_check $m
	done
	for m in kprobe ftrace direct; do
		proto_check $m 1
	done
fi
r=1
while [ $r -le "$ROUNDS" ]; do
	# A B, B A, ...; with more configurations, each round one later.
	if [ "$configs" != "A B" ]; then
		order=$configs
		k=1
		while [ $k -lt $r ]; do
			order="${order#* } ${order%% *}"
			k=$((k + 1))
		done
	elif [ $((r % 2)) -eq 1 ]; then
		order="A B"
	else
		order="B A"
	fi
	for c in $order; do
		measure "$c" $r
	done
	r=$((r + 1))
done
if [ "${BREAKDOWN:-0}" = 1 ]; then
	l_entries=
	count_hits
	# What a call and a return cost depends on these.
	v=/sys/devices/system/cpu/vulnerabilities
	echo "bench: mitigations: spectre_v2: $(cat $v/spectre_v2 2>/dev/null);" \
		"retbleed: $(cat $v/retbleed 2>/dev/null);" \
		"spec_rstack_overflow: $(cat $v/spec_rstack_overflow 2>/dev/null)"
fi
[ -z "$(ls -A $dir)" ] || die "files left in $dir"
umount $dir
echo "bench: done"
