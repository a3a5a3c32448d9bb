#!/usr/bin/env bash
# kunit-parse.sh - check the KUnit results in a test VM's console log.
#
# The test script must call ktap_header N (vm-lib.sh) before insmod-ing N
# KUnit test modules: it writes a marker plus "KTAP version 1" / "1..N" to
# /dev/kmsg. (kunit.py cannot parse module output otherwise: the built-in
# executor's boot-time "KTAP version 1 / 1..0" comes first.) This script
# takes the kernel lines after the LAST marker, strips their printk
# timestamps (dropping the interleaved userspace lines), feeds them to
# tools/testing/kunit/kunit.py parse from the cached source tree, and fails
# if kunit.py reports a failure/error, any test case did not pass (a skip
# counts as a failure: a skipped test must never look like a pass),
# or fewer than N suites ran.
# Usage: kunit-parse.sh LOGFILE --suites N [--kunit-py PATH]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MARKER='utf8guard-vm: ktap start'

usage() {
	sed -n 's/^# Usage: /usage: /p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

(($# >= 1)) || usage
log=$1
shift
suites='' kunit_py=''
while (($#)); do
	(($# >= 2)) || usage
	case "$1" in
	--suites) suites=$2 ;;
	--kunit-py) kunit_py=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[[ "$suites" =~ ^[0-9]+$ ]] || usage
if [[ -z "$kunit_py" ]]; then
	kunit_py=$("$VM_DIR/test-kernel-path.sh" --source)/tools/testing/kunit/kunit.py
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tr -d '\r' <"$log" | awk -v m="$MARKER" '
	index($0, m) { n++; delete keep; k = 0; next }
	n { keep[++k] = $0 }
	END { for (i = 1; i <= k; i++) print keep[i]; exit(n ? 0 : 1) }' |
	sed -n -E 's/^\[ *[0-9]+\.[0-9]+\] //p' >"$work/ktap" || {
	echo "kunit-parse: FAIL: marker '$MARKER' not in $log (test script did not call ktap_header)" >&2
	exit 1
}

rc=0
python3 "$kunit_py" parse --json="$work/results.json" "$work/ktap" >&2 || rc=$?

python3 - "$work/results.json" "$suites" "$rc" <<'PY' >&2
import json, sys
path, expected, kunit_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
try:
    top = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"kunit-parse: FAIL: no JSON from kunit.py ({e})")
    sys.exit(1)
# Top-level entries are suites; a suite announced by the 1..N plan but never
# run shows up as an ERROR test case, so it does not count.
suites = top["sub_groups"] + [c for c in top["test_cases"] if c["status"] != "ERROR"]
bad = []
cases = []
def walk(group, prefix):
    for case in group["test_cases"]:
        cases.append(case)
        if case["status"] != "PASS":
            name = case["name"] or "<suite in the 1..N plan that never ran>"
            bad.append(f"{prefix}{name}: {case['status']}")
    for sub in group["sub_groups"]:
        walk(sub, f"{prefix}{sub['name']}.")
walk(top, "")
problems = []
if kunit_rc:
    problems.append(f"kunit.py parse exited with status {kunit_rc}")
if len(suites) < expected:
    problems.append(f"{len(suites)} suite(s) ran, expected {expected}")
if bad:
    problems.append("failed: " + ", ".join(bad))
if problems:
    for p in problems:
        print(f"kunit-parse: FAIL: {p}")
    sys.exit(1)
print(f"kunit-parse: PASS: {len(suites)} suites, {len(cases)} test cases passed")
PY
