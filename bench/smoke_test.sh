#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# smoke_test.sh - suite `bench` of make check: the hook benchmarks still
# run, not what they measure (benchmarks, not tests: make bench-fs and make
# bench-nf give the figures).  One short round of each under -icount:
# bench-fs (200 create+close+unlink) and bench-nf (1 s of datagrams, and
# once more with its benchmark build, --stop 3) exit 0, the guest's module
# checks pass (enforce refuses a bad name; drops a datagram with C0 AE; the
# benchmark build loads with its stop), and each prints its table in guest
# instructions; and bench-fs --breakdown --mechanisms --mounts 16 prints
# its layers, the probe hit per create, the hook prototypes' lines, each
# prototype refusing, and the lines with 1 and 16 fs/mounts entries.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../tests/lib/assert.sh
. "$top/tests/lib/assert.sh"

# smoke NAME PER TARGET WHAT GUEST_RE SUBJECT -- COMMAND...: COMMAND (a
# benchmark, --clock icount) exits 0, its guest printed GUEST_RE (WHAT),
# and its table has a round in instructions per PER and SUBJECT's
# overhead against TARGET per cent.
smoke() {
	local name=$1 per=$2 target=$3 what=$4 guest=$5 subject=$6 out
	shift 7
	out=$("$@" 2>&1)
	expect_eq "$name --clock icount: exit status" 0 "$?"
	printf '%s\n' "$out" | sed -n "/^$name: [0-9]/,\$p" | sed 's/^/# /'
	expect_match "$name: $what" "$guest" "$out"
	expect_match "$name: a round in guest instructions" \
		"^  1 +AB +[0-9]+ in/$per +[0-9]+ in/$per +[0-9.]+\$" "$out"
	expect_match "$name: the overhead and the target" \
		"overhead of $subject: [-+][0-9.]+ %.*target <= $target %: (met|NOT met)" \
		"$(tr '\n' ' ' <<<"$out")"
}

smoke bench-fs it 1 "the module refuses a bad name in the guest" \
	'guest: enforce refuses a bad name: .*Invalid or incomplete multibyte' \
	'utf8guard_fs.ko in enforce' -- \
	"$top/bench/fs-create-unlink.sh" --clock icount --rounds 1 --iterations 200
# The breakdown: a line per configuration, and the probe hit per create;
# and the hook mechanisms' prototypes, each refusing its test name.
out=$("$top/bench/fs-create-unlink.sh" --clock icount --rounds 1 --iterations 200 \
	--breakdown --mechanisms --mounts 16 2>&1)
expect_eq "bench-fs --breakdown --mechanisms --mounts 16: exit status" 0 "$?"
printf '%s\n' "$out" | sed -n '/^bench-fs: [0-9]/,$p' | sed 's/^/# /'
expect_match "bench-fs --breakdown: the hook mechanism alone" \
	'^  H  probes armed, handler returns at once +[0-9]+ +[-+][0-9]+ ' "$out"
expect_match "bench-fs --breakdown: the whole check" \
	'^  B  the whole check \(utf8guard_fs.ko\) +[0-9]+ +[-+][0-9]+ ' "$out"
expect_match "bench-fs --breakdown: one entry into security_inode_create a create" \
	'^    security_inode_create +1\.000$' "$out"
for m in kprobe kprobe-nopost ftrace direct; do
	expect_match "bench-fs --mechanisms: mech=$m refuses its test name" \
		"guest: mech=$m check=0 refuses the name FF 78, lets another through" "$out"
done
for m in kprobe ftrace direct; do
	expect_match "bench-fs --mechanisms: mech=$m check=1 refuses C0 AE" \
		"guest: mech=$m check=1 refuses the name C0 AE 2E, lets another through" "$out"
done
expect_match "bench-fs --mechanisms: the direct call's line" \
	'^  D  prototype: ftrace direct call +[0-9]+ +[-+][0-9]+ ' "$out"
expect_match "bench-fs --mounts: one entry, over B" \
	'^  E  B \+ 1 fs/mounts entry, its own +[0-9]+ +[-+][0-9]+ ' "$out"
expect_match "bench-fs --mounts: 16 entries, over E" \
	'^  M  B \+ 16 fs/mounts entries, its own last +[0-9]+ +[-+][0-9]+ ' "$out"
smoke bench-nf dg 5 "the module drops a bad datagram in the guest" \
	'guest: enforce drops a datagram with c0 ae' \
	'utf8guard_nf.ko in enforce' -- \
	"$top/bench/nf-udp.sh" --clock icount --rounds 1 --seconds 1
smoke bench-nf dg 5 "the benchmark build stops its check before the verdict" \
	'guest: B is utf8guard_nf_bench.ko stop=3: the check stops early' \
	'the check stopped before the verdict \(utf8guard_nf_bench\.ko stop=3\)' -- \
	"$top/bench/nf-udp.sh" --clock icount --rounds 1 --seconds 1 --stop 3
finish_tests
