#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The `unicode` suite: the normalize-reject classes and their generated
# tables, in userspace, on the very files the module compiles.
#
#   generator       scripts/gen-unicode-tables.py --check: the committed
#                   core/utf8guard_unicode_tables.h is byte for byte what
#                   the generator makes of Debian's unicode-data
#   classes         boundary code points of every class, text cases
#   names           the filename component rules
#   normalization   NormalizationTest.txt, every line and column, and every
#                   code point it does not list
#   random-nfc      500,000 random strings against Python's unicodedata
#
# Prints each part's "N passed, N failed" and a last line for the suite;
# exits 1 if any part fails.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${UNICODE_TEST_BUILD:-$top/build/tests-unicode}
data=${UNICODE_DATA:-/usr/share/unicode}
mkdir -p "$build"

# The shared sources, as the Makefile lists them for the CLI.
read -ra sources <<<"$(make -s -C "$top" --no-print-directory core-sources)"
sources=("${sources[@]/#/$top/}")
cc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I"$top/core" \
	-I"$top/tests/unicode" -I"$top/tests/core" -o "$build/unicode_test" \
	"$top/tests/unicode/unicode_test.c" "${sources[@]}" || exit 2
bzcat "$data/NormalizationTest.txt.bz2" >"$build/NormalizationTest.txt" ||
	exit 2

passed=0
failed=0
part() {
	local name=$1 out counts
	shift
	out=$("$@" 2>&1)
	local rc=$?
	printf '%s\n' "$out" | sed "s/^/$name: /"
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "$name: FAILED (exit $rc)"
	fi
}

part generator python3 "$top/scripts/gen-unicode-tables.py" --check \
	--data "$data"
part classes "$build/unicode_test" classes
part names "$build/unicode_test" names
part normalization "$build/unicode_test" normalization \
	"$build/NormalizationTest.txt"
part random-nfc python3 "$top/tests/unicode/random_nfc.py" \
	"$build/unicode_test" --count 500000 --data "$data"
echo "$passed passed, $failed failed (unicode parts)"
[ $failed -eq 0 ]
