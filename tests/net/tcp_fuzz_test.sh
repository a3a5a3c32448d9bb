#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The model-based TCP fuzzer (tcp_fuzz) against utf8guard_nf.ko inside the
# VM (busybox sh, as root): random schedules of injected segments over
# random well-formed UTF-8, with hostile ones among them, on connections
# over loopback, IPv4 and IPv6, with utf8guard.ko in mode enforce and the
# port watched; then one round with the flow table kept nearly full
# (flows_max=16 and 15 connections holding a split character).  Each round must find no
# violation and no inconsistency (tests/net/tcp_fuzz.c says what those
# are); a failing round prints the sequences to replay with net_op
# tcp-inject.  Ends with both modules unloaded.
#
# usage: tcp_fuzz_test.sh [MODULE_DIR [TOOL_DIR]]
# (default /utf8guard/modules and /utf8guard/tools: make fuzz-net runs it
# as the VM's run.sh).  MODULE_DIR holds utf8guard.ko and utf8guard_nf.ko,
# TOOL_DIR tcp_fuzz.  The environment (or the kernel command line):
#   NF_FUZZ_SEED     the PRNG seed (default: 8 bytes of /dev/urandom),
#                    printed; the same for every round
#   NF_FUZZ_COUNT    sequences per family (default 300); the pressure
#                    round runs a third of it
#   NF_FUZZ_SECONDS  instead of a count: this long in all, two fifths per
#                    family, one fifth under pressure (make fuzz-net)
set -u
mods=${1:-/utf8guard/modules}
tools=${2:-/utf8guard/tools}
# shellcheck source=../lib/assert.sh
. /utf8guard/assert.sh
# shellcheck source=../vm/vm-lib.sh
. /utf8guard/vm-lib.sh
net=/sys/kernel/utf8guard/net
port=8080
seed=${NF_FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
count=${NF_FUZZ_COUNT:-300}
seconds=${NF_FUZZ_SECONDS:-}
if [ -n "$seconds" ]; then
	family_run="--seconds $((seconds * 2 / 5 > 0 ? seconds * 2 / 5 : 1))"
	pressure_run="--seconds $((seconds / 5 > 0 ? seconds / 5 : 1))"
else
	family_run="--count $count"
	pressure_run="--count $(((count + 2) / 3))"
fi
echo "tcp_fuzz_test: seed $seed (NF_FUZZ_SEED=$seed replays it)"

# The hook's counters that say what it refused, "name=value ...".
refusals() {
	for r_k in checked dropped reordered nostate unparsed fragmented full nomem; do
		printf '%s=%s ' "$r_k" "$(cat $net/stats/$r_k)"
	done
}

# fuzz NAME ARGS...: one tcp_fuzz run; passes when it exits 0 with its
# summary line, which must show that clean schedules delivered bytes.
fuzz() {
	f_name=$1
	shift
	echo 1 >$net/stats/reset
	# shellcheck disable=SC2086 # the run options are words
	f_out=$("$tools/tcp_fuzz" --seed "$seed" --port $port "$@" 2>&1)
	f_rc=$?
	printf '%s\n' "$f_out" | sed 's/^/# /'
	echo "# hook: $(refusals)"
	f_sum=$(printf '%s\n' "$f_out" | grep '^seed .* sequences ' | tail -n 1)
	expect_eq "$f_name: tcp_fuzz exit status" 0 "$f_rc"
	expect_match "$f_name: no violation, no inconsistency" \
		'^seed [0-9]+ sequences [1-9][0-9]* delivered [0-9]+ violations 0 inconsistent 0 clean-delivered [1-9]' \
		"$f_sum"
}

for m in nf_defrag_ipv4 nf_defrag_ipv6 \
	nf_reject_ipv4 nf_reject_ipv6; do
	modprobe "$m" 2>/dev/null || true
done
ip link set lo up
expect_status "insmod utf8guard.ko mode=enforce" 0 \
	insmod "$mods/utf8guard.ko" mode=enforce
expect_status "insmod utf8guard_nf.ko ports=tcp:$port" 0 \
	insmod "$mods/utf8guard_nf.ko" ports=tcp:$port
expect_eq "mode enforce" "off audit [enforce]" "$(cat /sys/kernel/utf8guard/mode)"

# shellcheck disable=SC2086
fuzz "fuzz IPv4" --family 4 $family_run
# shellcheck disable=SC2086
fuzz "fuzz IPv6" --family 6 $family_run

# A nearly full table: 15 connections hold a split character each in 16
# entries, so every connection of the fuzzer needs the last one, which the
# table reclaims from the closed one before it (every checked flow has an
# entry while its segment goes to TCP).  A full table stalls every new
# flow (full): the nf suite shows that.
expect_status "rmmod utf8guard_nf" 0 rmmod utf8guard_nf
expect_status "insmod utf8guard_nf.ko flows_max=16" 0 \
	insmod "$mods/utf8guard_nf.ko" ports=tcp:$port flows_max=16
# shellcheck disable=SC2086
fuzz "fuzz IPv4, nearly full table" --family 4 --pressure 15 $pressure_run
expect_status "rmmod utf8guard_nf" 0 rmmod utf8guard_nf
expect_status "rmmod utf8guard" 0 rmmod utf8guard
finish_tests
