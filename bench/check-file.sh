#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# check-file.sh - part of `make bench`: `utf8guardctl check --file` on a
# 1 GiB file in the page cache against Node's
# `isUtf8(fs.readFileSync(f))` (simdutf) on the same file, each a whole
# process from start to exit, in ROUNDS rounds of alternating order; prints
# the median wall time of each and their ratio (target: utf8guardctl within
# 1.25x of node).  The file is CJK text (the 64 KiB corpus of make bench,
# repeated), written, read once to be cached, and deleted at the end.
# Usage: check-file.sh CLI CORPUS_FILE WORK_DIR [ROUNDS (5)]
set -euo pipefail

cli=${1:?usage: check-file.sh CLI CORPUS_FILE WORK_DIR [ROUNDS]}
corpus=${2:?usage: check-file.sh CLI CORPUS_FILE WORK_DIR [ROUNDS]}
work=${3:?usage: check-file.sh CLI CORPUS_FILE WORK_DIR [ROUNDS]}
rounds=${4:-5}
size=$((1 << 30))
file=$work/check-file-1g.txt
trap 'rm -f "$file"' EXIT

copies=$((size / $(stat -c %s "$corpus")))
for ((i = 0; i < copies; i++)); do cat "$corpus"; done >"$file"
[ "$(stat -c %s "$file")" -eq "$size" ] || {
	echo "check-file.sh: $corpus does not divide 1 GiB" >&2
	exit 1
}
cat "$file" >/dev/null		# into the page cache
# shellcheck disable=SC2016
node_check='process.exit(require("buffer").isUtf8(require("fs").readFileSync(process.argv[1])) ? 0 : 1)'

# microseconds CMD...: wall time of one run, which must succeed.
microseconds() {
	local start end
	start=$(date +%s%N)
	"$@" >/dev/null
	end=$(date +%s%N)
	echo "$(((end - start) / 1000))"
}
ours=() theirs=()
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then
		ours+=("$(microseconds "$cli" check --file "$file")")
		theirs+=("$(microseconds node -e "$node_check" "$file")")
	else
		theirs+=("$(microseconds node -e "$node_check" "$file")")
		ours+=("$(microseconds "$cli" check --file "$file")")
	fi
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
a=$(median "${ours[@]}")
b=$(median "${theirs[@]}")
awk -v a="$a" -v b="$b" -v rounds="$rounds" 'BEGIN {
	printf "\ncheck --file on 1 GiB of CJK text in the page cache (whole processes, median of %d alternating runs)\n", rounds
	printf "  utf8guardctl check --file   %8.3f s\n", a / 1e6
	printf "  node isUtf8(readFileSync)   %8.3f s\n", b / 1e6
	printf "  ratio utf8guardctl / node   %8.3f   (target <= 1.25: %s)\n", a / b, a / b <= 1.25 ? "met" : "NOT met"
}'
