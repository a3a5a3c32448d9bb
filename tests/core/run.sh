#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Run the userspace suites of the validator core, already built in the
# build directory (see Makefile.inc), print each suite's counts and time,
# and a last line "N passed, N failed".  Exit status 1 if any suite fails.
#
# Usage: run.sh --build DIR [--kuhn-file PATH] [--python PATH]
#               [--fuzz-seconds N] [--exhaustive-args ARGS]
#               [--exhaustive-leads LO-HI] [--path-leads "LO-HI..."]
#               [--oracle-args ARGS] [--fuzz-args ARGS] [SUITE...]
# --exhaustive-leads limits the threaded full pass's 4-byte strings to
# those whose first byte is in LO..HI (make check: C0-FF, the lead bytes;
# a string that starts with any other byte is that byte, refused or
# passed alone, then a 3-byte string, all of which the pass checks);
# default: all 2^32.  --path-leads gives the lead ranges of each vector
# path's own pass, apart by commas or spaces (default E0-F4; make check:
# E0-E1,EC-F1,F3-F4, every kind of 3- and 4-byte lead: E0, ED, F0 and F4
# with their narrowed second bytes, and two of each plain kind).
# Suites: table exhaustive block oracle kuhn fuzz (default: all, in that
# order).

set -u

here=$(cd "$(dirname "$0")" && pwd)
build=
kuhn_file=$here/data/UTF-8-test.txt
python=/usr/bin/python3
fuzz_seconds=30
exhaustive_args=
exhaustive_leads=
path_leads=E0-F4
oracle_args=
fuzz_args=
suites=()

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--kuhn-file) kuhn_file=$2; shift 2 ;;
	--python) python=$2; shift 2 ;;
	--fuzz-seconds) fuzz_seconds=$2; shift 2 ;;
	--exhaustive-args) exhaustive_args=$2; shift 2 ;;
	--exhaustive-leads) exhaustive_leads=$2; shift 2 ;;
	--path-leads) path_leads=${2:-E0-F4}; shift 2 ;;
	--oracle-args) oracle_args=$2; shift 2 ;;
	--fuzz-args) fuzz_args=$2; shift 2 ;;
	table|exhaustive|block|oracle|kuhn|vector|fuzz) suites+=("$1"); shift ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$build" ]; then
	echo "usage: run.sh --build DIR [options] [SUITE...]" >&2
	exit 2
fi
[ ${#suites[@]} -gt 0 ] || suites=(table exhaustive block oracle kuhn vector fuzz)

logs=$build/logs
mkdir -p "$logs"
passed=0
failed=0
failed_names=

# The suites run side by side, as many at a time as there are cores
# (CORE_JOBS=N to set it): each is a job with its own log, and its NAME:
# lines and verdict are printed when it ends.  The full exhaustive pass
# uses every core itself, so it runs alone, first.
jobs_max=${CORE_JOBS:-$(nproc)}
declare -A job_name=() job_start=()

# report NAME STATUS SECONDS: print a finished job's NAME: lines and verdict.
report() {
	local name=$1 status=$2 seconds=$3 log=$logs/$1.log
	local prefix=${1%@*}
	echo "== $name"
	grep -a "^$prefix:" "$log" | sed 's/^/   /'
	if [ "$status" -eq 0 ]; then
		passed=$((passed + 1))
		printf '   PASS %s (%s s)\n' "$name" "$seconds"
	else
		failed=$((failed + 1))
		failed_names="$failed_names $name"
		printf '   FAIL %s (exit %d, %s s), log %s:\n' \
			"$name" "$status" "$seconds" "$log"
		grep -av "^$prefix:" "$log" | head -n 20 | sed 's/^/     /'
	fi
}

# reap: wait for one job to end and report it.
reap() {
	local ended='' status=0
	wait -n -p ended "${!job_name[@]}" || status=$?
	[ -n "$ended" ] || return 0
	report "${job_name[$ended]}" $status $(($(date +%s) - job_start[$ended]))
	unset "job_name[$ended]" "job_start[$ended]"
}

# run_suite NAME COMMAND...: start a job once a core is free.  NAME is the
# suite, or SUITE@PATH for a suite run with the core's path forced to PATH
# (the programs print "SUITE:").
run_suite() {
	local name=$1
	shift
	while ((${#job_name[@]} >= jobs_max)); do
		reap
	done
	"$@" >"$logs/$name.log" 2>&1 &
	job_name[$!]=$name
	job_start[$!]=$(date +%s)
}

# run_alone NAME COMMAND...: run a job that uses every core by itself.
run_alone() {
	while ((${#job_name[@]})); do
		reap
	done
	run_suite "$@"
	reap
}

suite_table() {
	"$build/table_test"
}

# exhaustive_path PATH: every string of 1 to 3 bytes and the 4-byte
# strings of the --path-leads ranges on PATH, one thread.
exhaustive_path() {
	local leads=${path_leads//[ ,]/,}

	# shellcheck disable=SC2086
	UTF8GUARD_CORE_PATH=$1 "$build/exhaustive_test" --threads 1 \
		--leads "${leads#,}" $exhaustive_args
}

suite_exhaustive() {
	# shellcheck disable=SC2086
	"$build/exhaustive_test" ${exhaustive_leads:+--leads "$exhaustive_leads"} \
		$exhaustive_args
}

suite_block() {
	"$build/block_test"
}

suite_oracle() {
	# shellcheck disable=SC2086
	"$python" "$here/oracle_test.py" --driver "$build/oracle_driver" \
		$oracle_args
}

suite_kuhn() {
	if [ ! -r "$kuhn_file" ]; then
		echo "kuhn: FAIL: test file $kuhn_file not found" \
		     "(pass --kuhn-file, or KUHN_TEST_FILE= to make)"
		return 1
	fi
	# The shared copy lost its malformed bytes to a lossy decoder (it
	# decodes as valid UTF-8): rebuild them, proven by a round trip.
	if "$python" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' \
		"$kuhn_file" 2>/dev/null; then
		echo "kuhn: NOTE: $kuhn_file holds no malformed byte (a lossy copy);"
		echo "kuhn: NOTE: testing the rebuild from tests/core/kuhn_reconstruct.py"
		# One rebuild per path: the paths' kuhn suites run side by side.
		local rebuilt=$build/UTF-8-test.rebuilt.${UTF8GUARD_CORE_PATH:-auto}.txt
		"$python" "$here/kuhn_reconstruct.py" "$kuhn_file" "$rebuilt" || return 1
		"$build/kuhn_test" "$rebuilt"
		return
	fi
	"$build/kuhn_test" "$kuhn_file"
}

# Short or long libFuzzer run; the corpus lives on in the build directory,
# seeded with the table rows, and a dictionary of the ABNF boundaries.
suite_vector() {
	"$build/vector_test"
}

suite_fuzz() {
	local corpus=$build/fuzz-corpus seeds=$build/fuzz-seeds
	local artifacts=$build/fuzz-artifacts/ status runs
	mkdir -p "$corpus" "$artifacts" || return 1
	"$build/table_test" --corpus "$seeds" || return 1
	# shellcheck disable=SC2086
	"$build/fuzz_core" -max_total_time="$fuzz_seconds" -max_len=1024 \
		-dict="$here/fuzz_core.dict" -use_value_profile=1 \
		-artifact_prefix="$artifacts" -print_final_stats=1 \
		$fuzz_args "$corpus" "$seeds" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		"$logs/fuzz.log" | tail -n 1)
	echo "fuzz: ${runs:-?} inputs run in $fuzz_seconds s," \
	     "corpus of $(find "$corpus" -type f | wc -l) inputs," \
	     "exit status $status"
	return $status
}

# The full exhaustive pass first (it is threaded), then every other suite
# and every path's suites side by side.
for suite in "${suites[@]}"; do
	[ "$suite" != exhaustive ] || run_alone exhaustive suite_exhaustive
done
for suite in "${suites[@]}"; do
	[ "$suite" = exhaustive ] || run_suite "$suite" "suite_$suite"
done

# The same suites again on each vector path this CPU has, forced to take
# every buffer however short (UTF8GUARD_CORE_PATH, core_path.c), and on
# the scalar path's plain build (scalar-plain) where the scalar path
# defaults to its BMI2 build; the 4-byte strings of the exhaustive suite
# only for the 3- and 4-byte leads, whose later bytes the vector paths
# judge together, on one thread each (the paths run side by side).
# vector and fuzz compare all paths in one run already.
if ! vector_paths=$("$build/vector_test" --list) || [ -z "$vector_paths" ]; then
	echo "== no vector path on this CPU: the core's vector suites did not run"
	failed=$((failed + 1))
	failed_names="$failed_names vector-paths"
	vector_paths=
fi
for path in $vector_paths; do
	for suite in "${suites[@]}"; do
		case $suite in
		exhaustive)
			run_suite "exhaustive@$path" exhaustive_path "$path" ;;
		table|block|oracle|kuhn)
			UTF8GUARD_CORE_PATH=$path run_suite "$suite@$path" "suite_$suite" ;;
		esac
	done
done
while ((${#job_name[@]})); do
	reap
done

echo "$passed passed, $failed failed${failed_names:+ (failed:$failed_names)}"
[ $failed -eq 0 ]
