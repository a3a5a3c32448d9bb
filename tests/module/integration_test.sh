#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Integration tests of utf8guard.ko inside the VM (busybox sh, as root):
# load and unload, every sysfs file read and written, malformed writes,
# privilege checks, the exported helpers through utf8guard_consumer.ko,
# counters, log lines, the tracepoint, module parameters, and `locked`
# (last: it pins the module until reboot).
#
# usage: integration_test.sh MODULE_DIR TOOL_DIR
# MODULE_DIR holds utf8guard.ko and utf8guard_consumer.ko; TOOL_DIR holds
# guest_write; the harness puts tests/lib/assert.sh in /utf8guard/.
set -u
mods=${1:?module dir}
tools=${2:?tool dir}
# shellcheck source=../lib/assert.sh
. /utf8guard/assert.sh
sys=/sys/kernel/utf8guard
dbg=/sys/kernel/debug/utf8guard_consumer
gw="$tools/guest_write"

# w FILE HEX: one write() of the given bytes; prints ok or the errno name.
w() { "$gw" "$1" "$2" 2>&1; }
# hex TEXT: the hex of a text, for w.
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
state() { printf '%s|%s|%s|%s' "$(cat $sys/mode)" "$(cat $sys/policy)" "$(cat $sys/locked)" "$(cat $sys/validator)"; }
stat() { cat "$sys/stats/$1"; }

# --- load with defaults -------------------------------------------------
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
for f in mode policy locked validator version stats/checked stats/rejected stats/audited \
	stats/truncated stats/unexpected-continuation stats/invalid-byte \
	stats/overlong stats/surrogate stats/out-of-range stats/reset; do
	if [ -e "$sys/$f" ]; then pass "$sys/$f exists"; else fail "$sys/$f exists"; fi
done
expect_no_match "no stats/none counter" . "$(ls $sys/stats | grep -x none)"
# The files are exactly those Documentation/ABI documents.
abi=$tools/sysfs-kernel-utf8guard
documented=$(sed -n 's|^What:[[:space:]]*||p' "$abi" | sort | tr '\n' ' ')
present=$(find $sys -type f | sort | tr '\n' ' ')
expect_eq "sysfs files match Documentation/ABI" "$documented" "$present"
expect_eq "default mode" "off audit [enforce]" "$(cat $sys/mode)"
expect_eq "default policy" "strict path-tricks" "$(cat $sys/policy)"
expect_eq "default locked" "0" "$(cat $sys/locked)"
expect_match "version" '^[0-9]+\.[0-9]+\.[0-9]+' "$(cat $sys/version)"
for f in mode:-rw-r--r-- policy:-rw-r--r-- locked:-rw-r--r-- \
	validator:-rw-r--r-- version:-r--r--r-- \
	stats/reset:--w------- stats/checked:-r--r--r--; do
	expect_eq "file mode of ${f%%:*}" "${f#*:}" "$(ls -l "$sys/${f%%:*}" | cut -c1-10)"
done
# The validator path the kernel chose is the best this CPU offers (qemu
# -cpu max offers AVX2; TCG has no AVX-512).
if grep -qw avx512bw /proc/cpuinfo && grep -qw avx512f /proc/cpuinfo &&
	grep -qw avx512vbmi /proc/cpuinfo; then
	path=avx512
elif grep -qw avx2 /proc/cpuinfo; then
	path=avx2
elif grep -qw sse4_1 /proc/cpuinfo; then
	path=sse4.1
else
	path=scalar
fi
expect_match "load logged, validator $path" "utf8guard: .* loaded: mode off audit \\[enforce\\], policy strict path-tricks, validator $path from 256 bytes\$" "$(dmesg)"
# validator lists the paths this CPU runs, the chosen one in brackets.
# paths: what validator should read with $1 chosen.
paths() {
	p_out=
	for p_isa in scalar sse4.1 avx2 avx512; do
		case $p_isa in
		sse4.1) grep -qw sse4_1 /proc/cpuinfo || continue ;;
		avx2) grep -qw avx2 /proc/cpuinfo || continue ;;
		avx512) grep -qw avx512bw /proc/cpuinfo &&
			grep -qw avx512f /proc/cpuinfo &&
			grep -qw avx512vbmi /proc/cpuinfo || continue ;;
		esac
		if [ "$p_isa" = "$1" ]; then p_isa="[$p_isa]"; fi
		p_out="$p_out $p_isa"
	done
	echo "${p_out# }"
}
expect_eq "validator reads the paths, $path chosen" "$(paths $path)" "$(cat $sys/validator)"

# --- well-formed writes ---------------------------------------------------
expect_eq "mode audit" ok "$(w $sys/mode "$(hex 'audit
')")"
expect_eq "mode reads audit" "off [audit] enforce" "$(cat $sys/mode)"
expect_eq "mode off" ok "$(w $sys/mode "$(hex off)")"
expect_eq "mode reads off" "[off] audit enforce" "$(cat $sys/mode)"
expect_eq "mode enforce" ok "$(w $sys/mode "$(hex enforce)")"
expect_eq "policy -strict" ok "$(w $sys/policy "$(hex '-strict')")"
expect_eq "policy reads path-tricks" "path-tricks" "$(cat $sys/policy)"
expect_eq "policy none" ok "$(w $sys/policy "$(hex none)")"
expect_eq "policy reads none" "none" "$(cat $sys/policy)"
expect_eq "policy +strict +path-tricks" ok "$(w $sys/policy "$(hex '+strict +path-tricks')")"
expect_eq "policy full list" ok "$(w $sys/policy "$(hex 'strict,path-tricks')")"
expect_eq "policy reads both" "strict path-tricks" "$(cat $sys/policy)"
expect_match "mode change logged" 'mode audit -> off \(by guest_write\[[0-9]+\]\)' "$(dmesg)"
for v in scalar sse4.1 avx2 avx512; do
	case " $(paths none) " in *" $v "*) ;; *) continue ;; esac
	expect_eq "validator $v" ok "$(w $sys/validator "$(hex "$v
")")"
	expect_eq "validator reads $v" "$(paths $v)" "$(cat $sys/validator)"
done
expect_eq "validator scalar again" ok "$(w $sys/validator "$(hex scalar)")"
expect_eq "validator auto" ok "$(w $sys/validator "$(hex auto)")"
expect_eq "validator auto reads $path" "$(paths $path)" "$(cat $sys/validator)"
expect_match "validator change logged" "validator scalar -> $path \\(by guest_write\\[[0-9]+\\]\\)" "$(dmesg)"
# (Before the malformed writes below use up the refusals' rate limit.)
expect_eq "validator avx1024 refused" EINVAL "$(w $sys/validator "$(hex avx1024)")"
expect_match "validator refusal logged with the reason" 'validator write refused: unknown validator \(auto, scalar, sse4\.1, avx2, avx512\): "avx1024"' "$(dmesg)"
# A path the kernel knows but this CPU lacks: refused, the path unchanged.
if [ "$path" != avx512 ]; then
	expect_eq "validator avx512 refused on a CPU without it" EINVAL "$(w $sys/validator "$(hex avx512)")"
	expect_match "avx512 refusal logged" 'validator write refused: this CPU does not offer avx512$' "$(dmesg)"
	expect_eq "validator still reads $path" "$(paths $path)" "$(cat $sys/validator)"
fi

# --- malformed writes: each -EINVAL, state unchanged ----------------------
before=$(state)
n=0
malformed() {	# FILE HEX DESCRIPTION
	got=$(w "$sys/$1" "$2")
	n=$((n + 1))
	expect_eq "malformed $1: $3" EINVAL "$got"
}
for v in 0a 20 "20200a" 09 "$(hex enforc)" "$(hex ENFORCE)" "$(hex 'off audit')" \
	"$(hex '[enforce]')" "$(hex 1)" "$(hex on)" "$(hex 'enforce x')" 00 \
	"$(hex audit)00" "00$(hex audit)" "$(hex enforce)c0ae" "c0ae" \
	"$(hex 'enforce,audit')" "$(hex '+enforce')"; do
	malformed mode "$v" "'$v'"
done
for v in 0a 2020 "$(hex bogus)" "$(hex 'strict bogus')" "$(hex '+bogus')" \
	"$(hex '+strict -')" "$(hex '+')" "$(hex '-')" "$(hex '++strict')" \
	"$(hex 'strict +path-tricks')" "$(hex '+strict path-tricks')" \
	"$(hex 'none strict')" "$(hex 'strict none')" "$(hex '+none')" \
	"$(hex 'Strict')" "$(hex 'strict;path-tricks')" "$(hex strict)00" \
	"00" "$(hex 'path-tricks')c0af" "$(hex 'strict')e280ae" \
	"$(hex '-strict -bogus')"; do
	malformed policy "$v" "'$v'"
done
for v in 0a "$(hex 2)" "$(hex yes)" "$(hex 1junk)" "$(hex '1 1')" "$(hex 01)" 00 "3100"; do
	malformed locked "$v" "'$v'"
done
for v in 0a "$(hex bogus)" "$(hex AVX2)" "$(hex 'scalar avx2')" "$(hex avx1024)" \
	"$(hex '[scalar]')" "$(hex 'sse4')" "$(hex scalar)00" 00 "$(hex auto)c0ae" \
	"$(hex 'auto,scalar')"; do
	malformed validator "$v" "'$v'"
done
for v in 0a "$(hex 0)" "$(hex 2)" "$(hex yes)" "$(hex '1 1')" 00; do
	malformed stats/reset "$v" "'$v'"
done
big=$(head -c 4000 /dev/zero | tr '\0' 'x' | od -An -v -tx1 | tr -d ' \n')
malformed policy "$big" "4000 bytes of junk"
malformed mode "$big" "4000 bytes of junk"
malformed validator "$big" "4000 bytes of junk"
expect_match "at least 50 malformed writes" '^([5-9][0-9]|[1-9][0-9][0-9])$' "$n"
expect_eq "state unchanged by malformed writes" "$before" "$(state)"
expect_match "refusal logged with the reason" 'mode write refused: unknown mode \(off, audit, enforce\): "enforc"' "$(dmesg)"
# A zero-byte write() never reaches a sysfs store handler (kernfs returns
# 0 first), so it cannot be refused; it must change nothing either.
for f in mode policy locked validator stats/reset; do
	expect_eq "zero-byte write to $f is a no-op" ok "$(w $sys/$f "")"
done
expect_eq "state unchanged by zero-byte writes" "$before" "$(state)"
# Read-only files: even root (past the file mode) cannot write them.
for f in version stats/checked stats/rejected stats/overlong; do
	old=$(cat $sys/$f)
	got=$(w $sys/$f "$(hex 0)")
	expect_match "write to read-only $f refused" '^(EIO|EACCES|EPERM)$' "$got"
	expect_eq "read-only $f unchanged" "$old" "$(cat $sys/$f)"
done
expect_eq "read of write-only stats/reset refused" "" "$(cat $sys/stats/reset 2>/dev/null)"

# --- concurrent writers ---------------------------------------------------
# Three processes race +/- edits, full values and junk while this shell
# reads; every read must be a well-formed value.
"$gw" --repeat 400 $sys/policy "$(hex '+strict')" "$(hex '-strict')" >/tmp/w1 &
p1=$!
"$gw" --repeat 400 $sys/policy "$(hex '+path-tricks')" "$(hex bogus)" "$(hex '-path-tricks')" >/tmp/w2 &
p2=$!
"$gw" --repeat 400 $sys/mode "$(hex audit)" "$(hex junk)" "$(hex enforce)" >/tmp/w3 &
p3=$!
bad_reads=0
reads=0
while kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null || kill -0 $p3 2>/dev/null; do
	p=$(cat $sys/policy)
	m=$(cat $sys/mode)
	reads=$((reads + 1))
	case "$p" in
	"strict path-tricks" | strict | path-tricks | none) ;;
	*) bad_reads=$((bad_reads + 1)) ;;
	esac
	case "$m" in
	"off [audit] enforce" | "off audit [enforce]") ;;
	*) bad_reads=$((bad_reads + 1)) ;;
	esac
done
wait
expect_eq "concurrent writers: every read well-formed ($reads reads)" 0 "$bad_reads"
expect_eq "concurrent writers: edits all accepted" "ok=800 failed=0" "$(cat /tmp/w1)"
expect_eq "concurrent writers: junk refused, edits accepted" "ok=800 failed=400" "$(cat /tmp/w2)"
expect_eq "concurrent mode writers: junk refused" "ok=800 failed=400" "$(cat /tmp/w3)"
# Two processes toggle two different classes and re-read after every
# write: a lost read-modify-write shows as the other class's edit undone.
"$gw" --toggle 1500 $sys/policy strict >/tmp/t1 &
p1=$!
"$gw" --toggle 1500 $sys/policy path-tricks >/tmp/t2
wait $p1
expect_eq "concurrent edits of strict: none lost" "ok=3000 lost=0 failed=0" "$(cat /tmp/t1)"
expect_eq "concurrent edits of path-tricks: none lost" "ok=3000 lost=0 failed=0" "$(cat /tmp/t2)"
expect_eq "concurrent writers: last mode wins" "off audit [enforce]" "$(cat $sys/mode)"
w $sys/mode "$(hex enforce)" >/dev/null
w $sys/policy "$(hex 'strict path-tricks')" >/dev/null

# --- privilege: only CAP_SYS_ADMIN in the initial user namespace ----------
before=$(state)
for f in mode policy locked validator stats/reset; do
	case $f in mode) v=$(hex off) ;; policy) v=$(hex none) ;; validator) v=$(hex scalar) ;; *) v=$(hex 1) ;; esac
	expect_eq "uid 65534 cannot write $f" EACCES "$("$gw" --as-uid 65534 $sys/$f "$v" 2>&1)"
	expect_eq "root without CAP_SYS_ADMIN cannot write $f" EPERM "$("$gw" --no-cap-sys-admin $sys/$f "$v" 2>&1)"
	expect_eq "user-namespace root cannot write $f" EPERM "$("$gw" --in-userns $sys/$f "$v" 2>&1)"
done
expect_eq "state unchanged by unprivileged writes" "$before" "$(state)"

# --- the exported helpers, through the consumer module -------------------
expect_status "insmod utf8guard_consumer.ko" 0 insmod "$mods/utf8guard_consumer.ko"
expect_match "consumer self-check passed" 'utf8guard_consumer: exports self-check passed' "$(dmesg)"
expect_failure "utf8guard.ko pinned while the consumer uses it" rmmod utf8guard
expect_eq "stats reset" ok "$(w $sys/stats/reset "$(hex 1)")"
expect_eq "rejected reset to 0" 0 "$(stat rejected)"
expect_eq "checked reset to 0" 0 "$(stat checked)"

expect_eq "valid name accepted" ok "$(w $dbg/check_name "$(hex 'café')")"
expect_eq "2f c0 ae 2e 2f refused by check_path" EILSEQ "$(w $dbg/check_path 2fc0ae2e2f)"
expect_eq "surrogate refused by check_path" EILSEQ "$(w $dbg/check_path eda080)"
# A name is one component: the '/' is refused before the overlong.
expect_eq "2f c0 ae 2e 2f refused by check_name" EILSEQ "$(w $dbg/check_name 2fc0ae2e2f)"
expect_eq "a path is fine for check_path" ok "$(w $dbg/check_path "$(hex a/../b)")"
expect_eq "checked counts 5" 5 "$(stat checked)"
expect_eq "rejected counts 3" 3 "$(stat rejected)"
expect_eq "overlong counts 1" 1 "$(stat overlong)"
expect_eq "surrogate counts 1" 1 "$(stat surrogate)"
expect_eq "slash counts 1" 1 "$(stat slash)"
expect_eq "audited still 0" 0 "$(stat audited)"
log=$(dmesg | grep 'refused consumer-path')
expect_match "log line: comm, pid, reason, offset, hex span" \
	'refused consumer-path from "guest_write"\[[0-9]+\]: overlong at offset 1: 2f \[c0\] ae 2e 2f \(path trick\)' "$log"
expect_match "log line: a name with a slash" \
	'refused consumer-name from "guest_write"\[[0-9]+\]: slash at offset 0: \[2f\] c0 ae 2e 2f' \
	"$(dmesg | grep 'refused consumer-name')"
expect_no_match "log line has no raw invalid bytes" "$(printf '[\200-\377]')" "$(dmesg)"

# path-tricks alone: legacy Latin-1 passes, tricks do not.
w $sys/policy "$(hex path-tricks)" >/dev/null
expect_eq "path-tricks: caf\\xe9 accepted" ok "$(w $dbg/check_name 636166e9)"
expect_eq "path-tricks: overlong '/' refused" EILSEQ "$(w $dbg/check_name 61c0af62)"
expect_eq "path-tricks: 5-byte overlong NUL refused" EILSEQ "$(w $dbg/check_name f88080808061)"
w $sys/policy "$(hex 'strict path-tricks')" >/dev/null
expect_eq "strict: caf\\xe9 refused" EILSEQ "$(w $dbg/check_name 636166e9)"

# audit: allowed, counted, logged; off: nothing measurable.
w $sys/mode "$(hex audit)" >/dev/null
expect_eq "audit: attack allowed" ok "$(w $dbg/check_name c0ae)"
expect_eq "audit: counted in audited" 1 "$(stat audited)"
expect_match "audit: logged" 'audit: would refuse consumer-name' "$(dmesg)"
w $sys/mode "$(hex off)" >/dev/null
c=$(stat checked)
expect_eq "off: attack allowed" ok "$(w $dbg/check_name c0ae)"
expect_eq "off: nothing counted" "$c" "$(stat checked)"
w $sys/mode "$(hex enforce)" >/dev/null

# validate and the streaming validator, through the exports.
w $dbg/validate f4908080 >/dev/null
expect_eq "validate report" "offset=0 length=1 reason=out-of-range codepoint=1114112 shadow_length=4 path_trick=0" "$(cat $dbg/validate)"
w $dbg/stream e2 >/dev/null
w $dbg/stream 82 >/dev/null
w $dbg/stream ac41 >/dev/null
expect_eq "stream: euro split in three chunks is valid" "errors=0 consumed=4" "$(cat $dbg/stream)"
w $dbg/stream 41c0 >/dev/null
w $dbg/stream ae >/dev/null
expect_eq "stream: c0 | ae across chunks is an overlong '.'" \
	"errors=2 consumed=3
offset=1 length=1 reason=overlong codepoint=46 shadow_length=2 path_trick=1" "$(cat $dbg/stream)"
w $dbg/stream 41e282 >/dev/null
expect_eq "stream: truncated at the end" \
	"errors=1 consumed=3
offset=1 length=2 reason=truncated codepoint=0 shadow_length=0 path_trick=0" "$(cat $dbg/stream)"
expect_eq "judge: a consumer-scanned violation is refused" EILSEQ "$(w $dbg/judge 41e08080)"

# The tracepoint.
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null
if [ -d $tr/events/utf8guard/utf8guard_violation ]; then
	echo 1 > $tr/events/utf8guard/utf8guard_violation/enable
	echo > $tr/trace
	w $dbg/check_path 2fe080af >/dev/null
	echo 0 > $tr/events/utf8guard/utf8guard_violation/enable
	expect_match "tracepoint fired with the report" \
		'utf8guard_violation: op=consumer-path comm=guest_write pid=[0-9]+ mode=enforce reason=overlong offset=1 length=1 codepoint=0x2f shadow_length=3 path_trick=1' \
		"$(cat $tr/trace)"
else
	fail "tracepoint utf8guard:utf8guard_violation exists in $tr/events"
fi

# --- unload and reload with module parameters ----------------------------
expect_status "rmmod consumer" 0 rmmod utf8guard_consumer
expect_status "rmmod utf8guard" 0 rmmod utf8guard
expect_eq "sysfs gone after unload" "" "$(ls -d $sys 2>/dev/null)"
expect_status "insmod with mode=audit policy=path-tricks" 0 insmod "$mods/utf8guard.ko" mode=audit policy=path-tricks
expect_eq "mode from parameter" "off [audit] enforce" "$(cat $sys/mode)"
expect_eq "policy from parameter" "path-tricks" "$(cat $sys/policy)"
rmmod utf8guard
expect_status "insmod with policy=strict,path-tricks" 0 insmod "$mods/utf8guard.ko" policy=strict,path-tricks
expect_eq "comma-separated parameter" "strict path-tricks" "$(cat $sys/policy)"
rmmod utf8guard
expect_failure "insmod with mode=bogus fails" insmod "$mods/utf8guard.ko" mode=bogus
expect_match "bad parameter explained" 'module parameter mode="bogus": unknown mode' "$(dmesg)"
expect_failure "insmod with validator=avx1024 fails" insmod "$mods/utf8guard.ko" validator=avx1024
expect_match "bad validator parameter explained" 'module parameter validator="avx1024": unknown validator' "$(dmesg)"
if [ "$path" != avx512 ]; then
	expect_failure "insmod with validator=avx512 fails on a CPU without it" insmod "$mods/utf8guard.ko" validator=avx512
	expect_match "missing validator parameter explained" 'module parameter validator="avx512": this CPU does not offer avx512$' "$(dmesg)"
fi
expect_status "insmod with validator=scalar" 0 insmod "$mods/utf8guard.ko" validator=scalar
expect_eq "validator from parameter" "$(paths scalar)" "$(cat $sys/validator)"
expect_match "load line names the chosen validator" 'loaded: mode .*, validator scalar from 256 bytes$' "$(dmesg)"
rmmod utf8guard
expect_failure "insmod with policy=strict,bogus fails" insmod "$mods/utf8guard.ko" policy=strict,bogus
expect_eq "nothing left after failed loads" "" "$(ls -d $sys 2>/dev/null)"
i=0
while [ $i -lt 20 ]; do
	insmod "$mods/utf8guard.ko" && rmmod utf8guard || break
	i=$((i + 1))
done
expect_eq "20 load/unload cycles" 20 "$i"

# --- kmemleak (debug kernels only) -----------------------------------------
if [ -w /sys/kernel/debug/kmemleak ]; then
	. /utf8guard/vm-lib.sh
	kmemleak_check
fi

# --- locked: last, it pins the module until reboot ---------------------------
insmod "$mods/utf8guard.ko"
# A hook module whose removal has begun cannot be pinned: the lock is
# refused while its exit runs (utf8guard_slow_hook.ko sleeps 3 s there,
# still attached), and nothing is locked.
expect_status "insmod utf8guard_slow_hook.ko" 0 \
	insmod "$mods/utf8guard_slow_hook.ko" exit_delay_ms=3000
rmmod utf8guard_slow_hook &
going=$!
n=0
while ! dmesg | grep -q 'utf8guard_slow_hook: exit: detaching' &&
	[ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
expect_eq "lock while a hook module is being removed: EBUSY" EBUSY \
	"$(w $sys/locked "$(hex 1)")"
expect_eq "... nothing locked" 0 "$(cat $sys/locked)"
expect_match "... and the refusal logged" \
	'lock refused: utf8guard_slow_hook is being removed' "$(dmesg)"
wait $going
expect_eq "... and the module goes" "" \
	"$(grep '^utf8guard_slow_hook ' /proc/modules)"
expect_eq "lock" ok "$(w $sys/locked "$(hex 1)")"
expect_eq "locked reads 1" 1 "$(cat $sys/locked)"
before=$(state)
expect_eq "locked: mode write refused" EPERM "$(w $sys/mode "$(hex off)")"
expect_eq "locked: policy write refused" EPERM "$(w $sys/policy "$(hex none)")"
expect_eq "locked: unlock refused" EPERM "$(w $sys/locked "$(hex 0)")"
expect_eq "locked: malformed still EINVAL" EINVAL "$(w $sys/mode "$(hex bogus)")"
expect_eq "locked: lock again is fine" ok "$(w $sys/locked "$(hex 1)")"
expect_eq "locked: state unchanged" "$before" "$(state)"
expect_failure "locked: rmmod refused" rmmod utf8guard
expect_eq "locked: module still there" 1 "$(cat $sys/locked)"
expect_eq "locked: stats reset still allowed" ok "$(w $sys/stats/reset "$(hex 1)")"
# The validator path changes speed, never a verdict: not frozen.
expect_eq "locked: validator still settable" ok "$(w $sys/validator "$(hex scalar)")"
expect_eq "locked: validator reads scalar" "$(paths scalar)" "$(cat $sys/validator)"
expect_eq "locked: validator auto" ok "$(w $sys/validator "$(hex auto)")"
expect_match "lock logged" 'locked: mode and policy frozen and modules pinned until reboot' "$(dmesg)"

finish_tests
