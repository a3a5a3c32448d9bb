#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# validate.sh - `make bench`: how fast the validator core is, side by side
# with simdutf (Node's buffer.isUtf8), GLib's g_utf8_validate_len, ICU's
# u_strFromUTF8 (preflight), CPython's strict decode and a plain
# byte-at-a-time table DFA (the core's own table, walked a byte and a test
# at a time: bench/validate/core_bytewise.c), in one run on this machine's
# real CPU (no VM).
# A benchmark, not a test: it reports, it does not judge (exit status 0
# whenever the measurement ran and every implementation agreed on which
# inputs are valid).
#
# Corpora (bench/validate/corpus.c, deterministic): ASCII, Latin, CJK,
# emoji/mixed text, and Latin with one overlong '.' 40 bytes from the end;
# each as 64 KiB of text and as 1024 names of 16, 20, 60 and 255 bytes.
# Each runner (C, node, Python) takes the median of SAMPLES samples of
# 20 ms or more; the runners take turns for ROUNDS rounds, and the table
# shows the median of the rounds, so that a change in the machine's load
# hits every implementation alike.  Then callgrind counts the instructions
# of our paths per byte (64 KiB) and per name: repeatable on a noisy
# machine.
# Last, bench/check-file.sh: `utf8guardctl check --file` on 1 GiB in the
# page cache against node isUtf8(fs.readFileSync()).
# Usage: validate.sh [--samples N (7)] [--rounds R (3)] [--no-callgrind]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=$top/bench/validate
out=$top/build/bench-validate
samples=7 rounds=3 callgrind=1

usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}
while (($#)); do
	case "$1" in
	--samples) (($# >= 2)) || usage; samples=$2; shift ;;
	--rounds) (($# >= 2)) || usage; rounds=$2; shift ;;
	--no-callgrind) callgrind=0 ;;
	*) usage ;;
	esac
	shift
done
[[ "$samples" =~ ^[1-9][0-9]?$ ]] || { echo "validate.sh: --samples takes 1..99" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]?$ ]] || { echo "validate.sh: --rounds takes 1..99" >&2; exit 2; }

"$top/scripts/install-deps.sh" --bench
command -v node >/dev/null || { echo "validate.sh: node not found after installing nodejs" >&2; exit 1; }
node -e 'process.exit(typeof require("buffer").isUtf8 === "function" ? 0 : 1)' || {
	echo "validate.sh: this node ($(node --version)) has no buffer.isUtf8 (Node >= 18.14 needed)" >&2
	exit 1
}

mkdir -p "$out/corpus"
flags=$(pkg-config --cflags --libs glib-2.0 icu-uc)
# The shared sources as the Makefile lists them.
shared=()
for f in $(make -s -C "$top" --no-print-directory core-sources); do
	shared+=("$top/$f")
done
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 -g -Wall -Wextra -Werror -I"$top/core" -I"$src" \
	-o "$out/validate_bench" "$src"/corpus.c "$src"/core_bytewise.c \
	"$src"/validate_bench.c "${shared[@]}" $flags
"$out/validate_bench" write "$out/corpus"

results=$out/results.txt
: >"$results"
for ((round = 1; round <= rounds; round++)); do
	echo "bench: round $round of $rounds (median of $samples samples each): C implementations..." >&2
	"$out/validate_bench" time "$out/corpus" "$samples" >>"$results"
	echo "bench: round $round of $rounds: simdutf (node $(node --version))..." >&2
	node "$src/isutf8.js" "$out/corpus" "$samples" >>"$results"
	echo "bench: round $round of $rounds: CPython $(python3 -c 'import platform; print(platform.python_version())')..." >&2
	python3 "$src/strict_decode.py" "$out/corpus" "$samples" >>"$results"
done

# Instructions per unit from callgrind: (Ir of COUNT passes - Ir of none)
# / (COUNT x units).
instructions=$out/instructions.txt
: >"$instructions"
ir() {	# ir IMPL FILE UNIT COUNT: total instructions of the program
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$out/validate_bench" repeat "$@" 2>&1 |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
steps() {	# steps IMPL FILE UNIT COUNT: instructions of COUNT passes
	"$out/validate_bench" steps "$@"
}
# count_all COUNTER PASSES OUTFILE IMPL...: for each implementation this
# CPU runs, the counts of 0 and PASSES passes over each corpus:
# "impl corpus unit count-of-0 count-of-PASSES units PASSES" lines.
count_all() {
	local counter=$1 passes=$2 file_out=$3 impl corpus unit file base full
	shift 3
	for impl; do
		"$out/validate_bench" repeat "$impl" "$out/corpus/ascii-name20.bin" 20 0 2>/dev/null ||
			continue	# a path this CPU lacks
		for corpus in ascii-text latin-text cjk-text emoji-text \
			ascii-name20 cjk-name60; do
			unit=65536
			[[ $corpus == *-name* ]] && unit=${corpus##*-name}
			file=$out/corpus/$corpus.bin
			base=$("$counter" "$impl" "$file" "$unit" 0)
			full=$("$counter" "$impl" "$file" "$unit" "$passes")
			echo "$impl $corpus $unit $base $full $(($(stat -c %s "$file") / unit)) $passes" >>"$file_out"
		done
	done
}
# Single-stepping (validate_bench steps) counts the paths as this CPU runs
# them, AVX-512 included; about 20 us a step here, so only the vector
# paths and the core as shipped, one pass.  valgrind runs no AVX-512 (and
# hides it from CPUID): callgrind counts the paths it can run, forced,
# as a cross-check.
steps=$out/steps.txt
: >"$steps"
if ((callgrind)); then
	echo "bench: callgrind..." >&2
	count_all ir 20 "$instructions" scalar scalar-plain avx2 table-dfa
	echo "bench: single-step instruction counts..." >&2
	count_all steps 1 "$steps" utf8guard avx2 avx512 utf8guard-policy
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
minlen=$(sed -n 's/^#define UTF8GUARD_VECTOR_MIN_LENGTH \([0-9]*\)$/\1/p' "$top/core/utf8guard_vector.h" | tail -n 1)
awk -v cpu="$cpu" -v samples="$samples" -v rounds="$rounds" -v minlen="$minlen" -f "$top/bench/stats.awk" -f "$top/bench/validate-table.awk" \
	"$results" "$instructions" "$steps"

# utf8guardctl check --file on 1 GiB in the page cache, against node.
echo "bench: utf8guardctl check --file on 1 GiB against node..." >&2
make -s -C "$top" --no-print-directory cli >&2
"$top/bench/check-file.sh" "$top/build/utf8guardctl" "$out/corpus/cjk-text.bin" "$out"
