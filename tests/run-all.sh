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
	"cli|tests/cli/check_test.sh build/utf8guardctl|utf8guardctl check"
	"style|tests/harness/style-check.sh|checkpatch, kernel-doc, sparse, ABI doc"
	"vm-test|tests/harness/vm-suite.sh test|test kernel: KUnit, fs hook, nf hook, integration, debug checks"
	"vm-stock|tests/harness/vm-suite.sh stock|Debian stock kernel: fs hook, nf hook, integration"
)

passed=0
failed=0
summary=()
for row in "${SUITE_TABLE[@]}"; do
	IFS='|' read -r name command what <<<"$row"
	if [ -n "${SUITES:-}" ] && [[ " $SUITES " != *" $name "* ]]; then
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
	summary+=("$(printf '%-9s %-5s %5ss  %s' "$name" "$result" "$secs" "${counts:-}")")
done

echo
echo "suite     result  time  counts"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
