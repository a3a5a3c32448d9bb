#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# test-kernel-path.sh - print the cached test-kernel tree (or source) path.
#
# Does not build anything; fails if build-test-kernel.sh has not produced
# the entry for the current fragment yet.
# Usage: test-kernel-path.sh            -> build tree (make -C <it> M=...,
#                                          <it>/arch/x86/boot/bzImage)
#        test-kernel-path.sh --source   -> pristine extracted source tree
#                                          (tools/testing/kunit/kunit.py,
#                                           scripts/checkpatch.pl)
set -euo pipefail
# shellcheck source=kernel-cache-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/kernel-cache-lib.sh"

case "${1:-}" in
--source) path=$(source_dir) ;;
"") path=$(test_kernel_dir) ;;
*)
	echo "usage: $0 [--source]" >&2
	exit 2
	;;
esac
if [[ ! -d "$path" ]]; then
	echo "test-kernel-path: $path does not exist; run tests/vm/build-test-kernel.sh" >&2
	exit 1
fi
echo "$path"
