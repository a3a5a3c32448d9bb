#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fs_exempt_test.sh MODDIR TOOLDIR - fs/exempt, exemptions by cgroup v2
# (issue 29), in a VM.
#
# Mounts cgroup2 on /sys/fs/cgroup if it is not (a write before says why
# it is refused), makes cgroups /ex, /ex/child and /other, and checks: a
# task in /ex (a child process of the one moved there: inheritance) or in
# /ex/child creates, makes, links, renames and symlinks the names the
# policy refuses, each counted in fs/stats/<op>/exempted and logged
# "exempt ..." with the refusal's details; a task in / or /other is
# refused; a task that moves back to / is refused again; audit mode counts
# exempted, not audited; the file round-trips; every bad write fails with
# EINVAL, is logged and changes nothing; a removed cgroup's entry is no
# longer listed, the next write drops it, and a cgroup made again under
# that path is not exempt until written again; stress: creators in and
# out of /ex while the entries change every millisecond, the counters
# adding up; the module parameter exempt=.  Ends with both modules
# unloaded.
#
#	fs_exempt_test.sh --after-lock MODDIR TOOLDIR
#
# once /sys/kernel/utf8guard/locked is 1: fs/exempt writes fail with
# EPERM and change nothing.
#
# TOOLDIR holds fs_op, guest_write, exempt_stress and in_cgroupns.  EXEMPT_STRESS_ITER
# (default 1000): creates per creator.
set -u
after_lock=
if [ "${1:-}" = --after-lock ]; then
	after_lock=1
	shift
fi
mods=${1:?module dir}
tools=${2:?tool dir}
# shellcheck source=../lib/assert.sh
. /utf8guard/assert.sh
# shellcheck source=../vm/vm-lib.sh
. /utf8guard/vm-lib.sh
sys=/sys/kernel/utf8guard
fs=$sys/fs
fsop=$tools/fs_op
gw=$tools/guest_write
cg=/sys/fs/cgroup
LATIN1=636166e9		# "caf" and Latin-1 e9: strict
OVERLONG=c0ae2e		# an overlong "." then ".": path-tricks
GOOD=676f6f64		# "good"

# exempt_write TEXT: one write of TEXT to fs/exempt; prints ok or the errno.
exempt_write() { w $fs/exempt "$(hex "$1")"; }
# run_in CGROUP CMD...: CMD run in CGROUP (a path below $cg), the test's
# shell staying where it is.
run_in() {
	ri_cg=$1
	shift
	sh -c 'echo 0 >"$0/cgroup.procs" && exec "$@"' "$cg$ri_cg" "$@"
}
# try CGROUP OP HEX...: fs_op OP /mnt/exempt HEX... in CGROUP.
try() {
	tc=$1
	to=$2
	shift 2
	run_in "$tc" "$fsop" "$to" /mnt/exempt "$@" 2>&1 | tail -n 1
}
# bad: a new name with Latin-1 e9 in it (the count in a file: bad runs
# in command substitutions).
echo 0 >/tmp/exempt-n
bad() {
	bn=$(($(cat /tmp/exempt-n) + 1))
	echo $bn >/tmp/exempt-n
	echo "${LATIN1}2d$(hex "$bn")"
}
counter() { cat $fs/stats/$1; }

if [ -n "$after_lock" ]; then
	expect_eq "locked" 1 "$(cat $sys/locked)"
	grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
	mkdir -p $cg/locked-ex
	before=$(cat $fs/exempt)
	expect_eq "locked: a new entry refused" EPERM \
		"$(exempt_write /locked-ex)"
	expect_eq "locked: a bad entry still EINVAL" EINVAL \
		"$(exempt_write /nonexistent)"
	expect_eq "locked: entries unchanged" "$before" "$(cat $fs/exempt)"
	rmdir $cg/locked-ex
	# fs_hook_test.sh --after-lock loaded the module with an entry; the
	# lock ends what it exempts: root could join the cgroup otherwise.
	expect_eq "locked: the entry given at load" /locked-exempt "$before"
	mkdir -p /mnt/exempt
	mount -t tmpfs tmpfs /mnt/exempt
	exempted0=$(counter exempted)
	mark
	expect_eq "locked: a task in the exempt cgroup refused" EILSEQ \
		"$(try /locked-exempt create "$(bad)")"
	expect_eq "locked: nothing exempted" "$exempted0" "$(counter exempted)"
	expect_match "locked: logged" \
		'fs/exempt: locked: /locked-exempt exempts no task any more' \
		"$(log_since)"
	umount /mnt/exempt
	finish_tests
	exit
fi

mkdir -p /mnt/exempt
mount -t tmpfs tmpfs /mnt/exempt
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
expect_status "insmod utf8guard_fs.ko" 0 insmod "$mods/utf8guard_fs.ko"
expect_eq "no entry after load" "" "$(cat $fs/exempt)"
expect_eq "exempted 0 after load" 0 "$(counter exempted)"

# --- cgroup v2 not mounted ---------------------------------------------------------
if ! grep -q ' cgroup2 ' /proc/mounts; then
	mark
	expect_eq "before cgroup2 is mounted: EINVAL" EINVAL \
		"$(exempt_write /ex)"
	expect_match "before cgroup2 is mounted: why" \
		'fs/exempt write refused: line 1: no such cgroup \(cgroup v2 has none below /: is cgroup2 mounted\?\)' \
		"$(log_since)"
fi
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
expect_eq "cgroup2 mounted on $cg" 1 "$(grep -c " $cg cgroup2 " /proc/mounts)"
mkdir -p $cg/ex/child $cg/other
# Opening cgroup.procs with O_CREAT (the shell's >) is a create checked
# on cgroup2 while its name is not cached yet: cache them now, so that
# the counts below count the test's names only.
for c in /ex /ex/child /other ""; do echo $$ >"$cg$c/cgroup.procs"; done

# --- one entry: who is exempt ------------------------------------------------------
mark
expect_eq "entry /ex" ok "$(exempt_write /ex)"
expect_eq "entry listed" /ex "$(cat $fs/exempt)"
expect_match "entry logged" 'fs/exempt: /ex added \(by ' "$(log_since)"
checked0=$(counter create/checked)
rejected0=$(counter create/rejected)
global_checked0=$(cat $sys/stats/checked)
global_rejected0=$(cat $sys/stats/rejected)
sleep 0.6
mark
name=$(bad)
expect_eq "in /ex: a Latin-1 name made" ok "$(try /ex create "$name")"
expect_eq "create/exempted 1" 1 "$(counter create/exempted)"
expect_eq "exempted 1" 1 "$(counter exempted)"
expect_eq "create/checked +1" $((checked0 + 1)) "$(counter create/checked)"
expect_eq "create/rejected unchanged" "$rejected0" "$(counter create/rejected)"
expect_eq "global checked +1" $((global_checked0 + 1)) \
	"$(cat $sys/stats/checked)"
expect_eq "global rejected unchanged" "$global_rejected0" \
	"$(cat $sys/stats/rejected)"
expect_match "exempt logged with the details" \
	'exempt create from "fs_op"\[[0-9]+\]: [a-z-]+ at offset 3: 63 61 66 \[e9\] 2d 31 \(fs/exempt /ex\)$' \
	"$(log_since)"
expect_eq "the name is there" ok "$("$fsop" stat /mnt/exempt "$name")"
expect_eq "in /: refused" EILSEQ "$(try / create "$(bad)")"
expect_eq "in /other: refused" EILSEQ "$(try /other create "$(bad)")"
expect_eq "refused ones counted rejected" $((rejected0 + 2)) \
	"$(counter create/rejected)"
expect_eq "in /ex/child (a descendant): made" ok \
	"$(try /ex/child create "$(bad)")"
expect_eq "in /ex: an overlong dot made" ok \
	"$(try /ex create "${OVERLONG}2d$(hex x1)")"
expect_eq "in /ex: a good name, not counted exempted" ok \
	"$(try /ex create "$GOOD")"
expect_eq "create/exempted 3" 3 "$(counter create/exempted)"
# A child of the task moved there, and the task moved back.
expect_eq "a child process of the moved one, then back in /" "ok EILSEQ" \
	"$(sh -c 'echo 0 >"$1/ex/cgroup.procs"
		a=$("$2" create /mnt/exempt "$3")
		echo 0 >"$1/cgroup.procs"
		b=$("$2" create /mnt/exempt "$4")
		echo "$a $b"' sh "$cg" "$fsop" "$(bad)" "$(bad)")"
# Every operation that makes a name.
: >/mnt/exempt/f
m0=$(counter mkdir/checked)
for op in mkdir mknod-fifo mknod-sock; do
	expect_eq "in /ex: $op" ok "$(try /ex $op "$(bad)")"
	expect_eq "in /: $op" EILSEQ "$(try / $op "$(bad)")"
done
expect_eq "in /ex: symlink" ok "$(try /ex symlink "$(bad)" "$GOOD")"
expect_eq "in /: symlink" EILSEQ "$(try / symlink "$(bad)" "$GOOD")"
expect_eq "in /ex: symlink target" ok "$(try /ex symlink "$(hex t1)" "$LATIN1")"
expect_eq "in /: symlink target" EILSEQ "$(try / symlink "$(hex t2)" "$LATIN1")"
expect_eq "in /ex: link" ok "$(try /ex link "$(hex f)" "$(bad)")"
expect_eq "in /: link" EILSEQ "$(try / link "$(hex f)" "$(bad)")"
: >/mnt/exempt/r1
: >/mnt/exempt/r2
expect_eq "in /ex: rename" ok "$(try /ex rename "$(hex r1)" "$(bad)")"
expect_eq "in /: rename" EILSEQ "$(try / rename "$(hex r2)" "$(bad)")"
for op in mkdir symlink symlink-target link rename; do
	expect_eq "$op/exempted" 1 "$(counter $op/exempted)"
done
expect_eq "mknod/exempted (fifo and socket)" 2 "$(counter mknod/exempted)"
expect_eq "exempted: the sum (create 4)" 11 "$(counter exempted)"
# checked = clean + rejected + audited + exempted: the two mkdirs above
# counted once each, as exempted and as rejected.
expect_eq "mkdir: checked = the two bad ones" $((m0 + 2)) \
	"$(counter mkdir/checked)"
# The reasons count refusals and audits only.
reasons=0
for r in truncated unexpected-continuation invalid-byte overlong surrogate \
	out-of-range control bidi ignorable noncharacter bom confusable-path \
	not-nfc empty-name dot-name slash nul name-too-long; do
	reasons=$((reasons + $(counter $r)))
done
expect_eq "reasons = rejected + audited" \
	$(($(counter rejected) + $(counter audited))) "$reasons"
# Mode audit: exempt is exempt, the others audited.
set_file $sys/mode audit
a0=$(counter create/audited)
e0=$(counter create/exempted)
expect_eq "audit, in /ex: made" ok "$(try /ex create "$(bad)")"
expect_eq "audit, in /: made" ok "$(try / create "$(bad)")"
expect_eq "audit: /ex counted exempted" $((e0 + 1)) "$(counter create/exempted)"
expect_eq "audit: / counted audited" $((a0 + 1)) "$(counter create/audited)"
set_file $sys/mode enforce
# Mode off counts nothing.
set_file $sys/mode off
expect_eq "off, in /ex: made" ok "$(try /ex create "$(bad)")"
expect_eq "off: nothing counted" $((e0 + 1)) "$(counter create/exempted)"
set_file $sys/mode enforce

# --- round trip, edits ---------------------------------------------------------------
mkdir -p "$cg/sp ace"
expect_eq "two more entries" ok "$(exempt_write '/other
/sp\040ace')"
expect_eq "three listed" '/ex
/other
/sp\040ace' "$(cat $fs/exempt)"
expect_eq "in /other now: made" ok "$(try /other create "$(bad)")"
expect_eq "in /sp ace: made" ok "$(try "/sp ace" create "$(bad)")"
saved=$(cat $fs/exempt)
expect_eq "the listing written back" ok "$(exempt_write "$saved")"
expect_eq "the listing unchanged" "$saved" "$(cat $fs/exempt)"
expect_eq "the same cgroup with a slash more: no new entry" ok \
	"$(exempt_write /ex/)"
expect_eq "listed as written last" '/ex/
/other
/sp\040ace' "$(cat $fs/exempt)"
mark
expect_eq "remove two" ok "$(exempt_write '/other -
/sp\040ace -')"
expect_match "removal logged" 'fs/exempt: /other removed \(by ' "$(log_since)"
expect_eq "one left" /ex/ "$(cat $fs/exempt)"
expect_eq "in /other again: refused" EILSEQ "$(try /other create "$(bad)")"
rmdir "$cg/sp ace"

# --- bad writes --------------------------------------------------------------------
long=/$(printf '%0300d' 0)
seventeen=
for k in $(seq 1 17); do seventeen="$seventeen/ex
"; done
before=$(cat $fs/exempt)
# The refusals' log lines are rate-limited (10 in 5 s): spaced out.
refused() {
	sleep 0.6
	mark
	expect_eq "bad write ($1): EINVAL" EINVAL "$(exempt_write "$2")"
	expect_eq "bad write ($1): unchanged" "$before" "$(cat $fs/exempt)"
	expect_match "bad write ($1): logged" "fs/exempt write refused: $3" \
		"$(log_since)"
}
refused "no such cgroup" /nonexistent "line 1: no such cgroup$"
refused "relative" ex "line 1: the path is not absolute"
refused "too long" "$long" "line 1: path longer than 255 bytes"
refused "17 lines" "$seventeen" "more than 16 lines"
refused "duplicate" "/other
/other/" "line 2: the same cgroup twice"
refused "added and removed" "/other
/other -" "line 2: the same cgroup twice"
refused "the root" / "line 1: the root cgroup"
refused "a policy word" "/other strict" "line 1: expected a cgroup path"
refused "remove without entry" "/other -" "line 1: no entry for this cgroup"
refused "a file" /ex/cgroup.procs "line 1: not a cgroup"
refused "all or nothing" "/other
/nonexistent" "line 2: no such cgroup"
refused "bad escape" '/ex\09' "line 1: bad escape"
refused "a write of 4096 bytes (sysfs may have cut it)" \
	"/other$(printf '%4090s' '')" "longer than 4095 bytes"
sleep 0.6
mark
expect_eq "bad write (a NUL in the path): EINVAL" EINVAL \
	"$(w $fs/exempt "$(hex /other)00$(hex /nonexistent)")"
expect_eq "bad write (a NUL in the path): unchanged" "$before" "$(cat $fs/exempt)"
expect_match "bad write (a NUL in the path): logged" \
	"fs/exempt write refused: a NUL byte" "$(log_since)"
# From a cgroup namespace of its own (a container's), "/child" would be
# resolved below the namespace's root but listed and removed as the
# host's "/child" (review round 18): refused.
sleep 0.6
mark
expect_eq "bad write (from a cgroup namespace of its own): EINVAL" EINVAL \
	"$(run_in /ex "$tools/in_cgroupns" "$gw" $fs/exempt "$(hex /child)")"
expect_eq "bad write (from a cgroup namespace of its own): unchanged" \
	"$before" "$(cat $fs/exempt)"
expect_match "bad write (from a cgroup namespace of its own): logged" \
	"fs/exempt write refused: written from a cgroup namespace of its own" \
	"$(log_since)"
mark
expect_eq "bad write (empty line): EINVAL" EINVAL "$(w $fs/exempt 0a)"
expect_eq "bad write (empty line): unchanged" "$before" "$(cat $fs/exempt)"
expect_eq "all or nothing: /other still refused" EILSEQ \
	"$(try /other create "$(bad)")"
# 16 entries, then a 17th.
sixteen=
for k in $(seq 1 15); do
	mkdir -p $cg/e$k
	sixteen="$sixteen/e$k
"
done
expect_eq "16 entries" ok "$(exempt_write "$sixteen")"
expect_eq "16 listed" 16 "$(grep -c . $fs/exempt)"
before=$(cat $fs/exempt)
refused "a 17th entry" /other "line 1: more than 16 entries"
expect_eq "15 removed" ok "$(exempt_write "$(printf '%s' "$sixteen" |
	sed 's/$/ -/')")"
for k in $(seq 1 15); do rmdir $cg/e$k; done
expect_eq "back to one" /ex/ "$(cat $fs/exempt)"

# --- a removed cgroup ---------------------------------------------------------------
mkdir -p $cg/gone
expect_eq "entry /gone" ok "$(exempt_write /gone)"
expect_eq "in /gone: made" ok "$(try /gone create "$(bad)")"
rmdir $cg/gone
expect_eq "removed cgroup: no longer listed" /ex/ "$(cat $fs/exempt)"
expect_eq "removed cgroup: /ex still exempt" ok "$(try /ex create "$(bad)")"
sleep 0.6
mark
expect_eq "removed cgroup: a write still works" ok "$(exempt_write /other)"
expect_match "removed cgroup: its entry dropped, logged" \
	'fs/exempt: /gone: the cgroup was removed: its entry is gone' \
	"$(log_since)"
expect_eq "removed cgroup: /ex and /other listed" "/ex/
/other" "$(cat $fs/exempt)"
expect_eq "removed cgroup: writing it again" EINVAL "$(exempt_write /gone)"
mkdir $cg/gone
expect_eq "made again: not exempt" EILSEQ "$(try /gone create "$(bad)")"
expect_eq "made again, written again" ok "$(exempt_write /gone)"
expect_eq "made again, written again: exempt" ok \
	"$(try /gone create "$(bad)")"
# Removed while a task of it... cannot be: rmdir needs it empty.  Removed
# with the module holding it, then unloaded: nothing leaks (kmemleak).
rmdir $cg/gone
expect_eq "remove /other" ok "$(exempt_write '/other -')"
# A unit's ExecStopPost= removal once its cgroup went: nothing to remove,
# and no error to fail the unit's stop (review round 18).  After the
# checks above: this write drops /gone's entry if its cgroup is offline.
mkdir -p $cg/stopped
expect_eq "entry /stopped" ok "$(exempt_write /stopped)"
rmdir $cg/stopped
expect_eq "its cgroup removed: PATH - still ok" ok "$(exempt_write '/stopped -')"
expect_eq "its entry gone" /ex/ "$(cat $fs/exempt)"

# --- stress ----------------------------------------------------------------------
iter=${EXEMPT_STRESS_ITER:-1000}
c0=$(counter create/checked)
r0=$(counter create/rejected)
e0=$(counter create/exempted)
a0=$(counter create/audited)
printk=$(cat /proc/sys/kernel/printk)
echo 5 >/proc/sys/kernel/printk
mkdir -p /mnt/exempt/s
out=$("$tools/exempt_stress" $fs/exempt $cg /mnt/exempt/s "$iter")
echo "$printk" >/proc/sys/kernel/printk
echo "# exempt_stress: $out"
set -- $out
in_made=$2 in_refused=$4 out_made=$6 out_refused=$8 mv_made=${10}
mv_refused=${12} good=${14} other=${16} edits=${18} failed=${20}
expect_eq "stress: no other outcome" 0 "$other"
expect_eq "stress: every edit taken" 0 "$failed"
expect_eq "stress: edits made" 1 $((edits > 100))
expect_eq "stress: outside never exempt" 0 "$out_made"
expect_eq "stress: inside both outcomes" 1 \
	$((in_made > 0 && in_refused > 0))
bad_total=$((in_made + in_refused + out_refused + mv_made + mv_refused))
expect_eq "stress: attempts" $((16 * iter)) $((bad_total + good))
expect_eq "stress: checked = attempts" $((c0 + 16 * iter)) \
	"$(counter create/checked)"
expect_eq "stress: exempted = made bad names" $((e0 + in_made + mv_made)) \
	"$(counter create/exempted)"
expect_eq "stress: rejected = refused" \
	$((r0 + in_refused + out_refused + mv_refused)) "$(counter create/rejected)"
expect_eq "stress: refused + exempted + allowed = attempts" $((16 * iter)) \
	$(($(counter create/rejected) - r0 + $(counter create/exempted) - e0 + good))
expect_eq "stress: none audited" "$a0" "$(counter create/audited)"
expect_eq "stress: made on disk" $((in_made + mv_made + good)) \
	"$(ls /mnt/exempt/s | grep -c .)"
rm -rf /mnt/exempt/s
expect_eq "stress: the entry list after" /ex/ "$(cat $fs/exempt)"

# --- unload with an entry, the module parameter -------------------------------------------
expect_eq "entry before unload" ok "$(exempt_write /ex)"
expect_status "rmmod utf8guard_fs with an entry" 0 rmmod utf8guard_fs
# A cgroup that does not exist yet (a unit not started, cgroup2 not
# mounted at modprobe): the line is left out, loudly, the module loads
# (review round 18); a path that cannot be a cgroup refuses the load.
expect_failure "exempt= with a relative path" \
	insmod "$mods/utf8guard_fs.ko" 'exempt=ex'
mark
expect_status "exempt= with no such cgroup: loads" 0 \
	insmod "$mods/utf8guard_fs.ko" 'exempt=/nonexistent'
expect_eq "exempt= no such cgroup: no entry" "" "$(cat $fs/exempt)"
expect_match "exempt= no such cgroup: logged" \
	'exempt=: line 1: no such cgroup: not applied' "$(log_since)"
expect_eq "exempt= no such cgroup: checked as before" EILSEQ \
	"$(try /ex create "$(bad)")"
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_status "insmod with exempt=" 0 \
	insmod "$mods/utf8guard_fs.ko" 'exempt=/ex/child'
expect_eq "exempt= listed" /ex/child "$(cat $fs/exempt)"
expect_eq "exempt=: /ex/child exempt" ok "$(try /ex/child create "$(bad)")"
expect_eq "exempt=: /ex not" EILSEQ "$(try /ex create "$(bad)")"
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_status "rmmod utf8guard" 0 rmmod utf8guard
umount /mnt/exempt
rmdir $cg/ex/child $cg/ex $cg/other
kmemleak_check
finish_tests
