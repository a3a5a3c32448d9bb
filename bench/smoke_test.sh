#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# smoke_test.sh - suite `bench` of make check: the hook benchmarks still
# run, not what they measure (benchmarks, not tests: make bench-fs and make
# bench-nf give the figures).  One short round of each under -icount:
# bench-fs (200 create+close+unlink) and bench-nf (1 s of datagrams) exit
# 0, the guest's module checks pass (enforce refuses a bad name; drops a
# datagram with C0 AE), and each prints its table in guest instructions.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../tests/lib/assert.sh
. "$top/tests/lib/assert.sh"

out=$("$top/bench/fs-create-unlink.sh" --clock icount --rounds 1 --iterations 200 2>&1)
expect_eq "bench-fs --clock icount: exit status" 0 "$?"
printf '%s\n' "$out" | sed -n '/^bench-fs: 200 x/,$p' | sed 's/^/# /'
expect_match "bench-fs: the module refuses a bad name in the guest" \
	'guest: enforce refuses a bad name: .*Invalid or incomplete multibyte' "$out"
expect_match "bench-fs: a round in guest instructions" \
	'^  1 +AB +[0-9]+ in/it +[0-9]+ in/it +[0-9.]+$' "$out"
expect_match "bench-fs: the overhead and the target" \
	'overhead of utf8guard_fs.ko in enforce: [-+][0-9.]+ %.*target <= 1 %: (met|NOT met)' \
	"$(tr '\n' ' ' <<<"$out")"

out=$("$top/bench/nf-udp.sh" --clock icount --rounds 1 --seconds 1 2>&1)
expect_eq "bench-nf --clock icount: exit status" 0 "$?"
printf '%s\n' "$out" | sed -n '/^bench-nf: 1400-byte/,$p' | sed 's/^/# /'
expect_match "bench-nf: the module drops a bad datagram in the guest" \
	'guest: enforce drops a datagram with c0 ae' "$out"
expect_match "bench-nf: a round in guest instructions" \
	'^  1 +AB +[0-9]+ in/dg +[0-9]+ in/dg +[0-9.]+$' "$out"
expect_match "bench-nf: the overhead and the target" \
	'overhead of utf8guard_nf.ko in enforce: [-+][0-9.]+ %.*target <= 5 %: (met|NOT met)' \
	"$(tr '\n' ' ' <<<"$out")"
finish_tests
