#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-all.sh - `make check`: install what the tests need, run every suite,
# print one summary table and a final "N passed, N failed" line (suites).
#
# Each suite's full output is in build/logs/<suite>.log.  A suite passes
# only if its command exits 0; counts shown are those the suite printed.
# SUITES="core cli" limits the run to some suites (for development; CI
# runs them all).
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 2
logs=$top/build/logs
mkdir -p "$logs"

"$top/scripts/install-deps.sh" || {
	echo "run-all: installing the test dependencies failed" >&2
	exit 2
}

# name|command|what it covers
SUITE_TABLE=(
	"build|make -s cli core-freestanding|CLI (-Wall -Wextra -Werror), core freestanding"
	"core|make -s -f tests/core/Makefile.inc core-check|core: tables, exhaustive, block boundaries, oracle, Kuhn, fuzz"
	"unicode|tests/unicode/run.sh|normalize-reject classes: generated tables, boundaries, NormalizationTest, Python"
	"cli|tests/cli/check_test.sh build/utf8guardctl|utf8guardctl check"
	"cli-admin|tests/cli/admin_test.sh build/utf8guardctl|utf8guardctl set/status/stats/apply/scan on a fake sysfs and planted trees"
	"install|tests/install/install_test.sh|make install file by file, man page, bash completion, dkms, systemd unit"
	"style|tests/harness/style-check.sh|checkpatch, kernel-doc, sparse, ABI doc"
	"sign|tests/harness/sign-test.sh|make install SIGN_KEY/SIGN_CERT: signed modules, modinfo, openssl"
	"vm-test|tests/harness/vm-suite.sh test|test kernel: KUnit, fs hook, nf hook, integration, debug checks"
)
# The kernel matrix (tests/vm/kernels.conf): one vm-stock-NAME suite per
# kernel, each building the modules W=1 and running the fs hook, nf hook
# and integration suites on it.  SUITES=vm-stock selects them all.
kernels=$("$top/tests/vm/stock-kernel.sh" --list) || {
	echo "run-all: cannot read the kernel matrix (tests/vm/kernels.conf)" >&2
	exit 2
}
for kernel in $kernels; do
	SUITE_TABLE+=("vm-stock-$kernel|tests/harness/vm-suite.sh stock $kernel|Debian $kernel kernel: build, fs hook, nf hook, utf8guardctl, integration")
done

passed=0
failed=0
summary=()
matrix=()
for row in "${SUITE_TABLE[@]}"; do
	IFS='|' read -r name command what <<<"$row"
	if [ -n "${SUITES:-}" ] && [[ " $SUITES " != *" $name "* ]] &&
		! { [[ "$name" == vm-stock-* ]] && [[ " $SUITES " == *" vm-stock "* ]]; }; then
		continue
	fi
	echo "=== $name: $what"
	start=$(date +%s)
	# shellcheck disable=SC2086
	$command >"$logs/$name.log" 2>&1
	status=$?
	secs=$(($(date +%s) - start))
	counts=$(grep -aEo '[0-9]+ passed, [0-9]+ failed.*' "$logs/$name.log" | tail -n 1)
	if [ $status -eq 0 ]; then
		result=PASS
		passed=$((passed + 1))
	else
		result=FAIL
		failed=$((failed + 1))
		echo "--- $name failed (exit $status); last lines of $logs/$name.log:"
		tail -n 30 "$logs/$name.log"
	fi
	echo "=== $name: $result in ${secs}s ${counts:+($counts)}"
	summary+=("$(printf '%-16s %-5s %5ss  %s' "$name" "$result" "$secs" "${counts:-}")")
	# The VM suites' "matrix:" line: one row of the kernel matrix table.
	row=$(grep -a '^matrix: ' "$logs/$name.log" | tail -n 1)
	[ -z "$row" ] || matrix+=("$row time=${secs}s result=$result")
done

echo
echo "suite            result  time  counts"
printf '%s\n' "${summary[@]}"
if ((${#matrix[@]})); then
	# kernel x guest suite: passed/failed tests, FAIL if the suite failed
	echo
	printf '%-8s %-6s %-11s %-11s %-11s %-11s %-11s %-5s %6s  %s\n' kernel build \
		fs nf cli-admin integration fs-locked vm time result
	for row in "${matrix[@]}"; do
		declare -A cell=()
		for field in ${row#matrix: * }; do
			cell[${field%%=*}]=${field#*=}
		done
		kernel=$(cut -d' ' -f2 <<<"$row")
		line=$(printf '%-8s %-6s' "$kernel" "${cell[build]}")
		for s in fs nf cli-admin integration fs-locked; do
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
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
