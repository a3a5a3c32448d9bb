#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-all.sh - `make check` (and `make check-long`): install what the tests
# need, run every suite, print one summary table with each suite's time,
# the total, and a final "N passed, N failed" line (suites).
#
# The suites run side by side: each row of SUITE_TABLE says how much of
# one host core the suite keeps busy, in percent (its load, measured
# alone: a VM under TCG is one host thread, busy or waiting on its
# guest's sleeps; the core suite and the test kernel's build use two
# cores), and a suite starts, in table order, as soon as its load fits
# in what is left of CHECK_LOAD (default 130 per core: the loads are
# averages, and a suite that waits leaves its share idle).  Measured in
# a fresh-machine make check (November 2026): vm-test-1 used 1205 s of
# CPU in 1999 s, vm-test-2 908 in 1362 (alone), a stock kernel's VMs
# 470-640 in 1100-1200.  The core suite's threads would keep two cores
# busy, but it declares 120, so that it starts beside the two debug VMs
# instead of waiting for them at the end.  The table is ordered longest
# first, so that the long VMs start at once and the short suites fill
# the gaps; a stock kernel's VMs also start beside the test kernel's
# build.  CHECK_JOBS=N sets the number of cores
# (default: nproc), CHECK_LOAD=P the percent of each one to fill.
#
# Each suite's full output is in build/logs/<suite>.log.  A suite passes
# only if its command exits 0; counts shown are those the suite printed.
# SUITES="core cli" limits the run to some suites (for development; CI
# runs them all).
#
# CHECK_LONG=1 (`make check-long`) runs every soak at full length on every
# kernel; without it, they run shortened (vm-suite.sh says how long,
# Documentation/testing.rst why that is enough).
#
# CHECK_DEADLINE=S (default 5330 for make check, 0 = none for check-long):
# S seconds after the start, the suites still running are stopped and fail
# ("stopped at the deadline"), those not started fail too, and the table
# is printed: CI stops the whole run at 5400 s and would print nothing.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 2
logs=$top/build/logs
mkdir -p "$logs"
run_start=$(date +%s)

"$top/scripts/install-deps.sh" || {
	echo "run-all: installing the test dependencies failed" >&2
	exit 2
}

# The VM suites of one run share what they build (modules, initramfs):
# vm-suite.sh rebuilds only what a run has not built yet.
CHECK_RUN_ID=${CHECK_RUN_ID:-$$-$run_start}
export CHECK_RUN_ID CHECK_LONG=${CHECK_LONG:-}

# The core's fuzz run: 30 s, or make fuzz's 600 s in check-long; its
# exhaustive pass over 4-byte strings: those that start with a lead byte
# (C0-FF, a quarter: 130 s of CPU), every one in check-long (520 s); each
# vector path's own pass: ten of the 21 3- and 4-byte leads, every kind
# (90 s of CPU a path for all 21).
fuzz_seconds=30
leads=C0-FF
path_leads="E0-E1 EC-F1 F3-F4"
[ -z "$CHECK_LONG" ] || { fuzz_seconds=600; leads=; path_leads=E0-F4; }

# name|load|command|what it covers; longest first (see above).
SUITE_TABLE=(
	"test-kernel|200|tests/vm/build-test-kernel.sh|the debug test kernel, built once and cached in /var/cache/utf8guard"
	"vm-test-1|70|tests/harness/vm-suite.sh test 1|test kernel: KUnit, fs hook with its stress on tmpfs and unload cycles, btrfs, ocfs2, bcachefs, integration"
	"vm-test-2|70|tests/harness/vm-suite.sh test 2|test kernel: nf hook, fs hook's stress on ext4"
)
# The kernel matrix (tests/vm/kernels.conf): one vm-stock-NAME suite per
# kernel, each building the modules W=1 and running the fs hook, nf hook
# and integration suites on it.  SUITES=vm-stock selects them all.
kernels=$("$top/tests/vm/stock-kernel.sh" --list) || {
	echo "run-all: cannot read the kernel matrix (tests/vm/kernels.conf)" >&2
	exit 2
}
for kernel in $kernels; do
	SUITE_TABLE+=("vm-stock-$kernel|60|tests/harness/vm-suite.sh stock $kernel|Debian $kernel kernel: build, fs hook, nf hook, utf8guardctl, integration")
done
# The Debian guest (tests/guest/): systemd, apt, DKMS and real servers on
# the stock 6.1 kernel (ksmbd on 6.12: 6.1's does not run); two vCPUs on
# multi-threaded TCG (200: two host threads while DKMS builds).
SUITE_TABLE+=(
	"guest-deploy|200|tests/guest/guest-suite.sh deploy|Debian guest: apt install (DKMS builds there), boot with the unit, upgrade, purge"
	"guest-servers|150|tests/guest/guest-suite.sh servers|Debian guest: knfsd (NFSv3, NFSv4.2) and smbd to the kernel's clients; tar, rsync, git; curl, logger; auditd, node_exporter"
	"guest-ksmbd|150|tests/guest/guest-suite.sh ksmbd|Debian guest, 6.12 kernel: ksmbd (ksmbd-tools from backports) to the kernel's cifs client and smbclient"
)
SUITE_TABLE+=(
	"core|120|make -s -f tests/core/Makefile.inc core-check CORE_FUZZ_SHORT=$fuzz_seconds CORE_EXHAUSTIVE_LEADS=$leads CORE_PATH_LEADS=${path_leads// /,}|core: tables, exhaustive (4-byte strings: leads ${leads:-all}; vector paths: $path_leads), block boundaries, oracle, Kuhn, fuzz ($fuzz_seconds s)"
	"style|100|tests/harness/style-check.sh|checkpatch, kernel-doc, sparse, ABI doc"
	"unicode|100|tests/unicode/run.sh|normalize-reject classes: generated tables, boundaries, NormalizationTest, Python"
	"sign|100|tests/harness/sign-test.sh|make install SIGN_KEY/SIGN_CERT: signed modules, modinfo, openssl"
	"build|100|make -s cli core-freestanding|CLI (-Wall -Wextra -Werror), core freestanding"
	"cli|100|tests/cli/check_test.sh build/utf8guardctl|utf8guardctl check"
	"cli-admin|100|tests/cli/admin_test.sh build/utf8guardctl|utf8guardctl set/status/stats/apply/scan on a fake sysfs and planted trees"
	"install|100|tests/install/install_test.sh|make install file by file, man page, bash completion, dkms, systemd unit"
	"deb|100|tests/install/deb_test.sh|make deb: utf8guard and utf8guard-dkms contents, conffiles, dependencies, versions, lintian"
	"bench|100|bench/smoke_test.sh|make bench-fs and bench-nf still run (one short round each under -icount)"
)
# What a suite needs done first (suite: suites).  The test kernel's build
# comes first so that no VM or style waits for it with a core held.
declare -A NEEDS=(
	[vm-test-1]=test-kernel [vm-test-2]=test-kernel [style]=test-kernel
	[cli]=build [cli-admin]=build
)

deadline=${CHECK_DEADLINE:-$([ -n "$CHECK_LONG" ] && echo 0 || echo 5330)}
[[ "$deadline" =~ ^[0-9]+$ ]] || {
	echo "run-all: CHECK_DEADLINE must be a number of seconds, not '$deadline'" >&2
	exit 2
}

cores=${CHECK_JOBS:-$(nproc)}
[[ "$cores" =~ ^[1-9][0-9]*$ ]] || {
	echo "run-all: CHECK_JOBS must be a positive number, not '$cores'" >&2
	exit 2
}
percent=${CHECK_LOAD:-130}
[[ "$percent" =~ ^[1-9][0-9]*$ ]] || {
	echo "run-all: CHECK_LOAD must be a positive percent, not '$percent'" >&2
	exit 2
}
capacity=$((cores * percent))

selected() {
	[ -z "${SUITES:-}" ] || [[ " $SUITES " == *" $1 "* ]] ||
		{ [[ "$1" == vm-stock-* ]] && [[ " $SUITES " == *" vm-stock "* ]]; } ||
		{ [[ "$1" == vm-test-* ]] && [[ " $SUITES " == *" vm-test "* ]]; }
}

names=()
declare -A LOAD=() COMMAND=() WHAT=() STATE=() SECS=() COUNTS=() RESULT=()
for row in "${SUITE_TABLE[@]}"; do
	IFS='|' read -r name load command what <<<"$row"
	selected "$name" || continue
	names+=("$name")
	((load > capacity)) && load=$capacity
	LOAD[$name]=$load COMMAND[$name]=$command WHAT[$name]=$what
	STATE[$name]=pending
done

# ready NAME: every suite NAME needs has passed, or was not selected.
# blocked NAME: one of them failed (then NAME does not run).
ready() {
	local dep
	for dep in ${NEEDS[$1]:-}; do
		[ -z "${STATE[$dep]:-}" ] || [ "${STATE[$dep]}" = ended ] || return 1
	done
}
blocked() {
	local dep
	for dep in ${NEEDS[$1]:-}; do
		[ "${RESULT[$dep]:-}" != FAIL ] || return 0
	done
	return 1
}

declare -A PID=() START=()
free=$capacity
start_suite() {
	local name=$1
	echo "=== $name: started (load ${LOAD[$name]} of $free left of $capacity): ${WHAT[$name]}"
	START[$name]=$(date +%s)
	# In a process group of its own, which the deadline can stop whole.
	# shellcheck disable=SC2086
	setsid ${COMMAND[$name]} >"$logs/$name.log" 2>&1 &
	PID[$name]=$!
	STATE[$name]=running
	free=$((free - LOAD[$name]))
}
end_suite() {
	local name=$1 status=$2
	SECS[$name]=$(($(date +%s) - START[$name]))
	COUNTS[$name]=$(grep -aEo '[0-9]+ passed, [0-9]+ failed.*' "$logs/$name.log" | tail -n 1)
	if [ "$status" -eq 0 ]; then
		RESULT[$name]=PASS
	else
		RESULT[$name]=FAIL
		echo "--- $name failed (exit $status); last lines of $logs/$name.log:"
		tail -n 30 "$logs/$name.log"
	fi
	echo "=== $name: ${RESULT[$name]} in ${SECS[$name]}s ${COUNTS[$name]:+(${COUNTS[$name]})}, at $(($(date +%s) - run_start))s"
	# A VM suite's sections and their guest seconds (vm-suite.sh).
	grep -a '^vm-suite: sections' "$logs/$name.log" | sed 's/^/    /'
	STATE[$name]=ended
	free=$((free + LOAD[$name]))
}

# stop_at_deadline: stop every running suite, fail those not run.
stop_at_deadline() {
	local name
	echo "=== deadline: $deadline s after the start; stopping: ${!PID[*]}"
	for name in "${!PID[@]}"; do
		kill -TERM -- "-${PID[$name]}" 2>/dev/null
	done
	sleep 5
	for name in "${!PID[@]}"; do
		kill -KILL -- "-${PID[$name]}" 2>/dev/null
		wait "${PID[$name]}" 2>/dev/null
		unset "PID[$name]"
		end_suite "$name" 124
		COUNTS[$name]="stopped at the deadline${COUNTS[$name]:+; ${COUNTS[$name]}}"
	done
	for name in "${names[@]}"; do
		[ "${STATE[$name]}" = pending ] || continue
		STATE[$name]=ended RESULT[$name]=FAIL SECS[$name]=0
		COUNTS[$name]="not run: the deadline came first"
	done
}
timer=
if ((deadline > 0)); then
	left_s=$((deadline - ($(date +%s) - run_start)))
	sleep $((left_s > 0 ? left_s : 1)) &
	timer=$!
fi

while :; do
	# Start, in table order, every suite that is ready and fits.
	for name in "${names[@]}"; do
		[ "${STATE[$name]}" = pending ] || continue
		if blocked "$name"; then
			STATE[$name]=ended RESULT[$name]=FAIL SECS[$name]=0
			COUNTS[$name]="not run: ${NEEDS[$name]} failed"
			echo "=== $name: not run (${NEEDS[$name]} failed)"
			continue
		fi
		ready "$name" && ((LOAD[$name] <= free)) && start_suite "$name"
	done
	left=0
	for name in "${names[@]}"; do
		[ "${STATE[$name]}" != pending ] || left=1
	done
	if ((${#PID[@]} == 0)); then
		((left)) || break
		# Nothing runs and nothing could start: a dependency that is
		# not in the table (cannot happen with the table above).
		echo "run-all: no suite can start: ${names[*]}" >&2
		exit 2
	fi
	ended=
	rc=0
	wait -n -p ended "${PID[@]}" $timer || rc=$?
	[ -n "$ended" ] || break
	if [ "$ended" = "$timer" ]; then
		timer=
		stop_at_deadline
		break
	fi
	for name in "${!PID[@]}"; do
		if [ "${PID[$name]}" = "$ended" ]; then
			unset "PID[$name]"
			end_suite "$name" "$rc"
		fi
	done
done

[ -z "$timer" ] || kill "$timer" 2>/dev/null
passed=0
failed=0
for name in "${names[@]}"; do
	if [ "${RESULT[$name]}" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
total=$(($(date +%s) - run_start))

echo
echo "suite            result  time  counts"
for name in "${names[@]}"; do
	printf '%-16s %-5s %5ss  %s\n' "$name" "${RESULT[$name]}" "${SECS[$name]}" "${COUNTS[$name]:-}"
done
kind=check
[ -z "$CHECK_LONG" ] || kind=check-long
printf '%-16s %-5s %5ss  %s\n' total "" "$total" \
	"(wall, with the dependencies' install; $cores cores; $kind)"

# The VM suites' "matrix:" line: one row of the kernel matrix table.
matrix=()
for name in "${names[@]}"; do
	[[ "$name" == vm-stock-* ]] || continue
	row=$(grep -a '^matrix: ' "$logs/$name.log" | tail -n 1)
	[ -z "$row" ] || matrix+=("$row time=${SECS[$name]}s result=${RESULT[$name]}")
done
if ((${#matrix[@]})); then
	# kernel x guest suite: passed/failed tests, FAIL if the suite failed
	echo
	printf '%-8s %-6s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-11s %-5s %6s  %s\n' \
		kernel build fs fs-btrfs fs-overlay fs-ocfs2 fs-bcachefs fs-held fs-scope fs-exempt nf tcp-fuzz cli-admin \
		integration fs-locked race vm time result
	for row in "${matrix[@]}"; do
		declare -A cell=()
		for field in ${row#matrix: * }; do
			cell[${field%%=*}]=${field#*=}
		done
		kernel=$(cut -d' ' -f2 <<<"$row")
		line=$(printf '%-8s %-6s' "$kernel" "${cell[build]}")
		for s in fs fs-btrfs fs-overlay fs-ocfs2 fs-bcachefs fs-held fs-scope fs-exempt nf tcp-fuzz cli-admin integration fs-locked race; do
			v=${cell[$s]:-}
			if [ -z "$v" ]; then
				v=-
			elif [ "${v##*/}" != 0 ]; then
				v="FAIL ${v%/*}"
			else
				v=${v%/*}
			fi
			line+=$(printf ' %-11s' "$v")
		done
		line+=$(printf ' %-5s %6s  %s' "${cell[vm]}" "${cell[time]}" "${cell[result]}")
		echo "$line"
		unset cell
	done
	echo "(guest suites: tests passed/failed; FAIL: the suite exited non-zero)"
fi
if [ -z "$CHECK_LONG" ] && [ -z "${SUITES:-}" ] && ((total > 3600)); then
	echo "WARNING: make check took $((total / 60)) min $((total % 60)) s, over 60 minutes: CI stops at 90; make it faster before adding tests"
fi
# Last, what failed and its first failed checks: CI shows the end.
for name in "${names[@]}"; do
	[ "${RESULT[$name]}" = FAIL ] || continue
	echo "FAILED: $name (${COUNTS[$name]:-no counts}); log: build/logs/$name.log"
	grep -aE '^not ok|FAIL|vm-suite: ' "$logs/$name.log" 2>/dev/null |
		grep -av '^vm-suite: sections' | head -n 8 | cut -c1-200 | sed 's/^/    /'
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
