#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# style-check.sh - the kernel's own checkers on the project's kernel code:
#   checkpatch.pl --no-tree -f  on every tracked core, kernel, KUnit and
#                               CLI C file
#   kernel-doc -none -Werror    on every file that defines exported symbols
#   sparse (C=2)                on the modules, against Debian's headers
#   get_abi.pl validate         on Documentation/ABI
# Uses the extracted linux-source tree of the test-kernel cache (extracting
# it if needed).  Fails on any report.  Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
# shellcheck source=../lib/assert.sh
. "$top/tests/lib/assert.sh"

# The cached test kernel's build extracts the source tree (a no-op once
# cached; the vm-test suite needs the kernel anyway).
"$top/tests/vm/build-test-kernel.sh" >/dev/null 2>"$top/build/style-kernel.err" || {
	fail "test kernel and source tree" "$(tail -n 20 "$top/build/style-kernel.err")"
	finish_tests
	exit 1
}
src=$("$top/tests/vm/test-kernel-path.sh" --source)
if [ ! -x "$src/scripts/checkpatch.pl" ]; then
	fail "kernel source tree with scripts/checkpatch.pl" "got: '$src'"
	finish_tests
	exit 1
fi

mapfile -t c_files < <(git ls-files 'core/*.[ch]' 'kernel/*.[ch]' \
	'tests/consumer/*.[ch]' 'tests/fs/kmod/*.[ch]' 'tests/net/kmod/*.[ch]' |
	grep -vx kernel/compat.h)
out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	-f "${c_files[@]}" 2>&1 | grep -E 'ERROR|WARNING|CHECK')
expect_eq "checkpatch on ${#c_files[@]} files" "" "$out"
# kernel/compat.h is where kernel versions are tested: checkpatch's
# objections to LINUX_VERSION_CODE are for in-tree code, not for it.
out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	--ignore LINUX_VERSION_CODE -f kernel/compat.h 2>&1 |
	grep -E 'ERROR|WARNING|CHECK')
expect_eq "checkpatch on kernel/compat.h" "" "$out"
# The CLI (userspace/) in the same style; compiler.h is where __printf()
# is defined for userspace, from the attribute checkpatch prefers it to.
mapfile -t cli_files < <(git ls-files 'userspace/*.[ch]' | grep -vx userspace/compiler.h)
out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	-f "${cli_files[@]}" 2>&1 | grep -E 'ERROR|WARNING|CHECK')
expect_eq "checkpatch on ${#cli_files[@]} CLI files" "" "$out"
out=$(perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	--ignore PREFER_DEFINED_ATTRIBUTE_MACRO -f userspace/compiler.h 2>&1 |
	grep -E 'ERROR|WARNING|CHECK')
expect_eq "checkpatch on userspace/compiler.h" "" "$out"
# ... and the only place: no version test anywhere else.
out=$(git grep -nE 'LINUX_VERSION_CODE|KERNEL_VERSION\(|RHEL_RELEASE' -- \
	'core/*.[ch]' 'kernel/*.[ch]' \
	'tests/consumer/*.[ch]' ':!kernel/compat.h')
expect_eq "kernel version tests only in kernel/compat.h" "" "$out"

mapfile -t export_files < <(grep -lE 'EXPORT_SYMBOL|UTF8GUARD_EXPORT\(' \
	$(git ls-files 'core/*.c' 'kernel/*.c'))
out=$(perl "$src/scripts/kernel-doc" -none -Werror "${export_files[@]}" 2>&1)
expect_eq "kernel-doc on ${#export_files[@]} files with exports" "" "$out"

# Every exported symbol has a kernel-doc comment.
missing=
for f in "${export_files[@]}"; do
	for sym in $(sed -nE 's/^(EXPORT_SYMBOL(_GPL)?|UTF8GUARD_EXPORT|EXPORT_SYMBOL_IF_KUNIT)\((\w+)\);/\3/p' "$f"); do
		grep -q "^ \* $sym() - " "$f" || missing="$missing $f:$sym"
	done
done
expect_eq "every exported symbol documented" "" "$missing"

# Each KUnit folder's .kunitconfig: the test kernel that runs the suites
# has every option it names.
tree=$("$top/tests/vm/test-kernel-path.sh")
mapfile -t kunitconfigs < <(git ls-files '*.kunitconfig')
expect_match "KUnit folders with a .kunitconfig" '^[1-9]' "${#kunitconfigs[@]}"
for k in "${kunitconfigs[@]}"; do
	expect_status "test kernel has $k's options" 0 \
		"$top/tests/vm/check-kernel-config.sh" "$k" "$tree/.config"
done

stock=$("$top/tests/vm/stock-kernel.sh" --build)
# In the modules' build that vm-stock boots (build-modules.sh builds once).
if mods=$("$here/build-modules.sh" --sparse "$stock" 2>"$top/build/sparse.err" | tail -n 1) &&
	[ -n "$mods" ]; then
	checked=$(grep -c ' CHECK ' "$mods/sparse.log")
	expect_match "sparse checked the sources" '^[1-9]' "$checked"
	pass "sparse (C=2) clean on $checked files"
else
	fail "sparse (C=2) clean" "$(tail -n 20 "$top/build/sparse.err")"
fi

# No include circle in core/ and kernel/ (issue 27).
expect_status "no include circle in core/ and kernel/" 0 \
	"$here/include-graph.py" "$top"
# Nor a call circle between files: each folder's "one direction"
# (Documentation/*-hook-design.rst, "Source layout").
expect_status "no call circle between the files of core/ and kernel/" 0 \
	"$here/call-graph.py" "$top"

out=$(perl "$src/scripts/get_abi.pl" --dir Documentation/ABI validate 2>&1)
expect_eq "get_abi.pl validate" "" "$out"

finish_tests
