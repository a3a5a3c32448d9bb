# SPDX-License-Identifier: GPL-2.0
# Tiny assertion library for the shell test suites (host and VM).
# Source it, call the expect_* helpers, end with `finish_tests`.
# Every helper counts one test; the last line is "N passed, N failed".

TESTS_PASSED=0
TESTS_FAILED=0

pass() {
	TESTS_PASSED=$((TESTS_PASSED + 1))
	echo "ok - $1"
}

fail() {
	TESTS_FAILED=$((TESTS_FAILED + 1))
	echo "not ok - $1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
}

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected: $2" "actual:   $3"
	fi
}

# expect_status NAME EXPECTED_STATUS COMMAND... (output discarded)
expect_status() {
	local name=$1 want=$2 got
	shift 2
	"$@" >/dev/null 2>&1
	got=$?
	expect_eq "$name (exit status)" "$want" "$got"
}

# expect_failure NAME COMMAND... (any non-zero exit status; output discarded)
expect_failure() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		fail "$name" "expected a non-zero exit status: $*"
	else
		pass "$name"
	fi
}

# expect_match NAME REGEX TEXT
# (grep reads all of TEXT: with -q it could stop at the first match, and
# the rest of printf's writes would die of SIGPIPE, which a caller's
# `set -o pipefail` turns into a failed match.)
expect_match() {
	if printf '%s' "$3" | grep -E -- "$2" >/dev/null; then
		pass "$1"
	else
		fail "$1" "no match for: $2" "in: $3"
	fi
}

# expect_no_match NAME REGEX TEXT
expect_no_match() {
	if printf '%s' "$3" | grep -E -- "$2" >/dev/null; then
		fail "$1" "unexpected match for: $2" "in: $3"
	else
		pass "$1"
	fi
}

finish_tests() {
	echo "$TESTS_PASSED passed, $TESTS_FAILED failed"
	[ "$TESTS_FAILED" -eq 0 ]
}
