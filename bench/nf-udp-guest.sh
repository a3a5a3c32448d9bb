#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh of `make bench-nf` (bench/nf-udp.sh), inside the VM on
# Debian's stock kernel: measures UDP over loopback with net_op udp-bench
#   A  without the modules loaded
#   B  with utf8guard.ko (mode enforce) + utf8guard_nf.ko watching the port
#      (WATCHED=watched), or watching another UDP port only
#      (WATCHED=unwatched: what the module costs traffic it does not check),
#      or a TCP port only (WATCHED=none: no UDP port, the hook call alone);
#      with STOP=1..3 the benchmark build utf8guard_nf_bench.ko in its place,
#      its check of the watched datagrams stopped (tests/net/kmod/bench.h)
# in ROUNDS rounds whose order alternates (A B, B A, ...).  Prints one
#   bench-result: round=R config=A|B iterations=N elapsed_ns=T
# line per measurement (N datagrams received in T ns).  Each measurement is
# preceded by an untimed 1 s warm-up.  In B it also checks that the hook is
# in effect: a bad datagram is dropped, and every datagram received was
# checked.  Exits non-zero on any failure.
set -u
# shellcheck source=/dev/null
. /utf8guard/bench.conf		# SIZE=, SECONDS=, ROUNDS=, VALIDATOR=, WATCHED=
mods=/utf8guard/modules
op=/utf8guard/tools/net_op
S=/sys/kernel/utf8guard
PORT=5140
# The port utf8guard_nf watches in B.
case ${WATCHED:-watched} in
watched) WATCH=udp:$PORT ;;
unwatched) WATCH=udp:$((PORT + 1)) ;;
*) WATCH=tcp:$PORT ;;
esac

die() {
	echo "bench-error: $*"
	dmesg | tail -n 20
	exit 1
}
expect() {	# WHAT WANT GOT
	[ "$2" = "$3" ] || die "$1: expected '$2', got '$3'"
}
load() {
	insmod $mods/utf8guard.ko mode=enforce validator="$VALIDATOR" ||
		die "insmod utf8guard.ko validator=$VALIDATOR"
	if [ "${STOP:-0}" = 0 ]; then
		insmod $mods/utf8guard_nf.ko ports=$WATCH || die "insmod utf8guard_nf.ko"
	else
		insmod $mods/utf8guard_nf_bench.ko ports=$WATCH stop="$STOP" ||
			die "insmod utf8guard_nf_bench.ko stop=$STOP"
	fi
	expect "net/ports" "$WATCH" "$(cat $S/net/ports)"
}
unload() {
	if [ "${STOP:-0}" = 0 ]; then
		rmmod utf8guard_nf || die "rmmod utf8guard_nf"
	else
		rmmod utf8guard_nf_bench || die "rmmod utf8guard_nf_bench"
	fi
	rmmod utf8guard || die "rmmod utf8guard"
}
# run SECONDS: sets n and ns from net_op udp-bench.
run() {
	out=$($op udp-bench 127.0.0.1 $PORT "$SIZE" "$1" 2>&1) ||
		die "udp-bench: $out"
	set -- $out	# received N bytes B seconds S
	[ "$1" = received ] || die "udp-bench: $out"
	n=$2
	ns=$(echo "$6" | awk '{ printf "%.0f", $1 * 1e9 }')
	[ "$n" -gt 0 ] || die "udp-bench received nothing: $out"
}
measure() {
	if [ "$1" = B ]; then load; fi
	run 1
	if [ "$1" = B ]; then
		echo 1 >$S/net/stats/reset || die "net/stats/reset"
	fi
	run "$SECONDS"
	echo "bench-result: round=$2 config=$1 iterations=$n elapsed_ns=$ns"
	if [ "$1" = B ]; then
		checked=$(cat $S/net/stats/checked)
		if [ "${STOP:-0}" != 0 ]; then
			:	# stopped before the counters, or counted nothing
		elif [ "$WATCH" = "udp:$PORT" ]; then
			[ "$checked" -ge "$n" ] ||
				die "round $2: checked $checked < received $n"
		else
			expect "round $2: unwatched port: net/stats/checked" 0 "$checked"
		fi
		expect "round $2: net/stats/dropped" 0 "$(cat $S/net/stats/dropped)"
		unload
	fi
}

echo "bench: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU," \
	"$SIZE-byte datagrams, $SECONDS s x $ROUNDS rounds"
modprobe nf_defrag_ipv4 || die "modprobe nf_defrag_ipv4"
modprobe nf_defrag_ipv6 || die "modprobe nf_defrag_ipv6"
modprobe nf_reject_ipv4 || die "modprobe nf_reject_ipv4"
modprobe nf_reject_ipv6 || die "modprobe nf_reject_ipv6"
ip link set lo up

# The hook is really there: a bad datagram is dropped in B (on the UDP
# port it watches), arrives in A.
load
echo "bench: validator: $(cat $S/validator)"
if [ "${STOP:-0}" != 0 ]; then
	expect "stop" "$STOP" "$(cat /sys/module/utf8guard_nf_bench/parameters/stop)"
	echo "bench: B is utf8guard_nf_bench.ko stop=$STOP: the check stops early, nothing is refused"
elif [ "$WATCH" = "tcp:$PORT" ]; then
	expect "no UDP port watched: c0 ae arrives" ok "$($op udp 127.0.0.1 $PORT c0ae)"
	echo "bench: B watches $WATCH only: the UDP traffic pays the hook call alone"
else
	expect "enforce drops c0 ae" dropped "$($op udp 127.0.0.1 ${WATCH#udp:} c0ae)"
	expect "drop counted" 1 "$(cat $S/net/stats/dropped)"
	echo "bench: enforce drops a datagram with c0 ae on $WATCH"
	[ "$WATCH" = "udp:$PORT" ] ||
		echo "bench: B watches $WATCH, the benchmark's traffic goes to udp:$PORT (unwatched)"
fi
unload
expect "without the modules c0 ae arrives" ok "$($op udp 127.0.0.1 $PORT c0ae)"

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
echo "bench: done"
