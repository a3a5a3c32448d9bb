#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fs_overlay_test.sh MODDIR TOOLDIR - utf8guard_fs.ko and overlayfs, the
# root filesystem of every container, in a VM of a Debian kernel.
#
# Lower layers hold legacy names the policy refuses (made before the hook
# loads, as an old image would).  With mode enforce, through the merged
# view, each existing file stays usable: read, append, truncate, chmod,
# rename to a good name, delete, hard link, a symlink with a legacy
# target, a file created inside a legacy-named directory, a directory
# renamed (redirect_dir=on), an empty one removed.  Overlayfs copies these
# up (or writes a whiteout) under the existing name, which utf8guard_fs.ko
# recognises
# (kernel/fs/overlay.c).  New bad names through the merged view are still
# refused, each counted once; new good names are counted once, not once
# per layer.  On tmpfs and on ext4 (upper and lower on the same fs).  An
# overlay mounted in a user namespace gets no such exemption.
set -u
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

setmode() { set_file $sys/mode "$1"; }
count() { cat "$fs/stats/$1/$2"; }
# counts OP...: "checked/rejected" of each OP, one line.
counts() {
	for c_op; do
		printf '%s=%s/%s ' "$c_op" "$(count "$c_op" checked)" \
			"$(count "$c_op" rejected)"
	done
}

# ovl_mount LABEL NAME [OPTIONS]: overlay $b/NAME-lower, -upper and -work
# (OPTIONS first, e.g. index=on) on $b/NAME-merged, as check
# "LABEL: mount overlay [(OPTIONS)]".
ovl_mount() {
	expect_status "$1: mount overlay${3:+ ($3)}" 0 mount -t overlay overlay \
		-o "${3:+$3,}lowerdir=$b/$2-lower,upperdir=$b/$2-upper,workdir=$b/$2-work" \
		"$b/$2-merged"
}

# Names (hex) in the lower layer.
LEGACY=6c6567616379e9	# "legacy" + E9 (Latin-1 é): appended to
TRUNC=7472e9		# truncated
CHMOD=6368e9		# chmod'ed
SUBBAD=78c0ae79		# sub/"x" C0 AE "y": renamed to a good name
DEL=64656ce9		# deleted
HL=686ce9		# hard-linked to a good name
LNK=6c6e6b		# "lnk", a symlink to C0 AE 2E: renamed
BADSYM=73ff		# a symlink named "s" FF: deleted
DIRBAD=64ff		# a directory "d" FF: a file made inside
RENDIR=72ff		# a directory "r" FF: renamed
EMPTY=65ff		# an empty directory "e" FF: removed
WO=776f			# "wo": deleted, then made again over its whiteout
WO2=776f32		# "wo2": the same, then a symlink of that name elsewhere
WO3=776f33		# "wo3": the same, then a file of that name elsewhere
LEGS="6c656731e9 6c656732e9"	# "leg1", "leg2" + E9: written, deleted
SAVE=7361e9		# "sa" E9: a new file renamed onto it (an editor's save)
WO4=776f34		# "wo4": deleted, then a symlink made over its whiteout
BIG=626967e9		# "big" E9: 96 MiB, copied up while kprobes go off

# make_lower DIR: the legacy tree, made while no hook is loaded.
make_lower() {
	ml=$1
	mkdir -p "$ml/sub"
	for ml_f in $LEGACY $TRUNC $CHMOD $DEL $HL $WO $WO2 $WO3 $LEGS $SAVE $WO4; do
		"$fsop" create "$ml" $ml_f >/dev/null
		"$fsop" write "$ml" $ml_f old >/dev/null
	done
	# The review's attacks run as uid 1000: the tree is its.
	chown -R 1000:1000 "$ml"
	chmod 1777 "$ml"
	"$fsop" create "$ml/sub" $SUBBAD >/dev/null
	"$fsop" symlink "$ml" $LNK c0ae2e >/dev/null
	"$fsop" symlink "$ml" $BADSYM 74 >/dev/null
	"$fsop" mkdir "$ml" $DIRBAD >/dev/null
	"$fsop" mkdir "$ml" $RENDIR >/dev/null
	"$fsop" create "$ml/$(printf 'r\377')" 66 >/dev/null
	"$fsop" mkdir "$ml" $EMPTY >/dev/null
}

mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -d $sys ] && { rmmod utf8guard_fs 2>/dev/null; rmmod utf8guard 2>/dev/null; }
for m in loop ext4 overlay; do
	modprobe $m 2>/dev/null
done
expect_eq "overlay available" 1 "$(grep -cw overlay /proc/filesystems)"
mkdir -p /mnt/ovl-tmpfs /mnt/ext4
mount -t tmpfs tmpfs /mnt/ovl-tmpfs
grep -q ' /mnt/ext4 ' /proc/mounts ||
	mount -t ext4 -o loop /utf8guard/ext4.img /mnt/ext4
expect_eq "ext4 mounted" 1 "$(grep -c ' /mnt/ext4 ext4 ' /proc/mounts)"
bases="/mnt/ovl-tmpfs /mnt/ext4/ovl"
for b in $bases; do
	rm -rf "$b"
	mkdir -p "$b/lower" "$b/upper" "$b/work" "$b/merged" "$b/plain" "$b/ns-upper" \
		"$b/ns-work" "$b/ns-merged"
	make_lower "$b/lower"
	chmod 1777 "$b/plain" "$b/upper"
	"$fsop" create "$b/plain" 737263 >/dev/null	# "src"
	chown 1000:1000 "$b/plain/src"
	for k in 0 1 2 3 4 5 6 7; do
		mkdir -p "$b/plain/n/d$k"
	done
	chmod -R 1777 "$b/plain/n"
done
expect_eq "legacy lower made" ok "$("$fsop" stat /mnt/ovl-tmpfs/lower $LEGACY)"

expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
expect_status "insmod utf8guard_fs.ko" 0 insmod "$mods/utf8guard_fs.ko"
expect_match "overlay.ko probed" 'probed overlay \(8 probes\)' "$(dmesg)"
setmode enforce

for b in $bases; do
	t=${b#/mnt/}
	m=$b/merged
	expect_status "$t: mount overlay" 0 mount -t overlay overlay \
		-o "lowerdir=$b/lower,upperdir=$b/upper,workdir=$b/work,redirect_dir=on" "$m"

	# Existing files stay usable.
	expect_eq "$t: read legacy" old "$("$fsop" read "$m" $LEGACY)"
	printf more >>"$m/$(printf 'legacy\351')"
	expect_eq "$t: append to legacy (exit status)" 0 $?
	expect_eq "$t: appended" oldmore "$("$fsop" read "$m" $LEGACY)"
	expect_eq "$t: truncate legacy" ok "$("$fsop" write "$m" $TRUNC new)"
	expect_status "$t: chmod legacy" 0 chmod 600 "$m/$(printf 'ch\351')"
	expect_eq "$t: rename legacy to a good name" ok \
		"$("$fsop" rename "$m/sub" $SUBBAD 6669786564)"
	expect_eq "$t: renamed" "6669786564 " "$("$fsop" readdir "$m/sub" | tr '\n' ' ')"
	r0=$(counts rename link mknod create mkdir)
	expect_eq "$t: delete legacy" ok "$("$fsop" unlink "$m" $DEL)"
	expect_eq "$t: deleted" ENOENT "$("$fsop" stat "$m" $DEL)"
	expect_eq "$t: delete counted nothing" "$r0" "$(counts rename link mknod create mkdir)"
	expect_eq "$t: hard link legacy to a good name" ok \
		"$("$fsop" link "$m" $HL 686c676f6f64)"
	expect_eq "$t: rename a symlink with a legacy target" ok \
		"$("$fsop" rename "$m" $LNK 6c6e6b32)"
	expect_eq "$t: its target" c0ae2e "$("$fsop" readlink "$m" 6c6e6b32)"
	expect_eq "$t: delete a legacy-named symlink" ok "$("$fsop" unlink "$m" $BADSYM)"
	c0=$(count create checked)
	expect_eq "$t: create inside a legacy-named directory" ok \
		"$("$fsop" create "$m/$(printf 'd\377')" 6e6577)"
	expect_eq "$t: ... counted once" $((c0 + 1)) "$(count create checked)"
	expect_eq "$t: rename a legacy-named directory" ok \
		"$("$fsop" rename "$m" $RENDIR 72676f6f64)"
	expect_eq "$t: its file" ok "$("$fsop" stat "$m/rgood" 66)"
	expect_eq "$t: remove a legacy-named empty directory" ok \
		"$("$fsop" rmdir "$m" $EMPTY)"

	# New bad names: refused, counted once.
	for op_name in "create c0ae2e" "mkdir eda080" "rename $LEGACY c0af" \
		"link $LEGACY 61ff62" "symlink 676f6f64 c0ae2e"; do
		# shellcheck disable=SC2086 # op_name is OP ARG...
		set -- $op_name
		case $1 in
		symlink) cop=symlink-target ;;
		*) cop=$1 ;;
		esac
		before=$("$fsop" readdir "$m" | tr '\n' ' ')
		c0=$(count "$cop" checked)
		j0=$(count "$cop" rejected)
		expect_eq "$t: new bad name: $op_name" EILSEQ "$("$fsop" "$1" "$m" "$2" ${3:+"$3"})"
		expect_eq "$t: $op_name created nothing" "$before" \
			"$("$fsop" readdir "$m" | tr '\n' ' ')"
		expect_eq "$t: $op_name checked and refused once" \
			"$((c0 + 1)) $((j0 + 1))" \
			"$(count "$cop" checked) $(count "$cop" rejected)"
	done
	# New good names: counted once, not once per layer.
	for op_name in "create 6e31" "mkdir 6e64" "symlink 6e73 74" \
		"link 686c676f6f64 6e6c" "rename 6e31 6e32"; do
		# shellcheck disable=SC2086 # op_name is OP ARG...
		set -- $op_name
		c0=$(count "$1" checked)
		expect_eq "$t: new good name: $op_name" ok "$("$fsop" "$1" "$m" "$2" ${3:+"$3"})"
		expect_eq "$t: $op_name checked once" $((c0 + 1)) "$(count "$1" checked)"
	done
	# A name made over a whiteout: the upper rename onto the whiteout is
	# not a new name.  Our own finding while breaking the hook: that must
	# not let the same process make a temporary-looking symlink with a
	# bad target elsewhere.
	expect_eq "$t: delete wo" ok "$("$fsop" unlink "$m" $WO)"
	expect_eq "$t: create over a whiteout, then a '#1' symlink to a bad target" \
		"ok EILSEQ " "$("$fsop" create "$m" $WO -- symlink "$b/plain" 2331 c0ae2e | tr '\n' ' ')"
	expect_eq "$t: ... and a '#1' symlink after a copy-up" "ok EILSEQ " \
		"$("$fsop" write "$m" $WO x -- symlink "$b/plain" 2332 c0ae2e | tr '\n' ' ')"
	# Adversarial review of these marks: the upper layer's operations
	# are let through only while overlayfs works on the user's behalf.
	# A1: a name made over a whiteout, then a symlink of that name with
	# a bad target elsewhere, by the same process (uid 1000).
	expect_eq "$t: A1: delete, create over the whiteout, symlink elsewhere" \
		"ok ok EILSEQ " \
		"$("$fsop" --as-uid 1000 unlink "$m" $WO2 -- create "$m" $WO2 -- symlink "$b/plain" $WO2 eda080 | tr '\n' ' ')"
	# A2: a written (copied-up) legacy file deleted, then renames to its
	# name in fresh directories elsewhere: the whiteout's mark must not
	# outlive the delete (a dentry at the same address elsewhere).
	for leg in $LEGS; do
		a2_ops="write $m $leg x -- unlink $m $leg -- sleep / 300"
		for k in 0 1 2 3 4 5 6 7; do
			a2_ops="$a2_ops -- rename $b/plain 737263 $(hex "n/d$k/")$leg"
		done
		# shellcheck disable=SC2086 # a2_ops is the chain of operations
		expect_eq "$t: A2: delete written legacy $leg, rename to it elsewhere" \
			"ok ok ok EILSEQ EILSEQ EILSEQ EILSEQ EILSEQ EILSEQ EILSEQ EILSEQ " \
			"$("$fsop" --as-uid 1000 $a2_ops | tr '\n' ' ')"
	done
	# An editor's save onto a legacy name: a new file renamed onto it.
	expect_eq "$t: rename a new file onto a legacy name" "ok ok " \
		"$("$fsop" --as-uid 1000 create "$m" 6e6577 -- rename "$m" 6e6577 $SAVE | tr '\n' ' ')"
	# B3 (second review): a symlink made over a whiteout is counted once.
	expect_eq "$t: B3: delete wo4" ok "$("$fsop" unlink "$m" $WO4)"
	c0="$(count symlink checked) $(count symlink-target checked)"
	expect_eq "$t: B3: symlink over the whiteout" ok "$("$fsop" symlink "$m" $WO4 74)"
	set -- $c0
	expect_eq "$t: B3: symlink and its target counted once" "$(($1 + 1)) $(($2 + 1))" \
		"$(count symlink checked) $(count symlink-target checked)"
	# A3a: the same process's create elsewhere is counted too.
	c0=$(count create checked)
	expect_eq "$t: A3a: delete, create over the whiteout, create elsewhere" \
		"ok ok ok " \
		"$("$fsop" --as-uid 1000 unlink "$m" $WO3 -- create "$m" $WO3 -- create "$b/plain" $WO3 | tr '\n' ' ')"
	expect_eq "$t: A3a: both creates counted" $((c0 + 2)) "$(count create checked)"
	expect_status "$t: umount overlay" 0 umount "$m"

	# In a user namespace, the mounter chooses the lower layers: no
	# exemption; copying a legacy file up is refused.
	ns_out=$(unshare -U -r -m sh -c "
		mount -t overlay overlay -o lowerdir=$b/lower,upperdir=$b/ns-upper,workdir=$b/ns-work $b/ns-merged || exit 3
		{ printf x >>\"$b/ns-merged/\$(printf 'legacy\351')\"; } 2>/dev/null && exit 0
		exit 1" 2>&1)
	expect_eq "$t: user-namespace overlay: legacy copy-up refused" 1 "$?${ns_out:+ $ns_out}"
	# B1 (second review): renaming onto a lower layer's legacy name
	# would make it on the upper filesystem: refused there.
	ns_out=$(unshare -U -r -m sh -c "
		mount -t overlay overlay -o lowerdir=$b/lower,upperdir=$b/ns-upper,workdir=$b/ns-work $b/ns-merged || exit 3
		$fsop create $b/ns-merged 6e73 -- rename $b/ns-merged 6e73 $LEGACY" 2>&1)
	expect_eq "$t: B1: user-namespace overlay: rename onto a legacy name refused" \
		"ok EILSEQ " "$(printf '%s\n' "$ns_out" | tr '\n' ' ')"
	expect_eq "$t: B1: ... nothing on the upper filesystem" ENOENT \
		"$("$fsop" stat "$b/ns-upper" $LEGACY)"
	# Review round 5: a user namespace's overlay operations take no
	# kretprobe instance (any user could block 512 of them and starve
	# root's overlays); so a new name made through one is checked on the
	# overlay and again on the upper filesystem (and so are overlayfs's
	# temporary names there): more than once.
	c0=$(count create checked)
	ns_out=$(unshare -U -r -m sh -c "
		mount -t overlay overlay -o lowerdir=$b/lower,upperdir=$b/ns-upper,workdir=$b/ns-work $b/ns-merged || exit 3
		$fsop create $b/ns-merged 6e7332" 2>&1)
	c1=$(count create checked)
	expect_eq "$t: user-namespace overlay: a create takes no instance" \
		"ok twice or more" "$ns_out $([ $((c1 - c0)) -ge 2 ] && echo twice or more || echo "$((c1 - c0)) time(s)")"
done
expect_eq "fs/unhooked" 0 "$(cat $fs/unhooked)"

# B2 (second review): kprobes switched off as a whole while a copy-up
# runs, then on again: the copy-up's mark must not outlive it.
b=/mnt/ovl-tmpfs
mkdir -p $b/big-lower $b/big-upper $b/big-work $b/big-merged
setmode off	# a legacy file, from before
dd if=/dev/zero of="$b/big-lower/$(printf 'big\351')" bs=1M count=96 2>&1 | sed 's/^/# dd: /'
chmod 666 "$b/big-lower/$(printf 'big\351')"
setmode enforce
expect_eq "B2: a 96 MiB legacy file" ok "$("$fsop" stat $b/big-lower $BIG)"
chmod 1777 $b/big-upper
ovl_mount B2 big
"$fsop" --as-uid 1000 append $b/big-merged $BIG x -- sleep / 2500 -- \
	create $b/plain 6232 -- rename $b/plain 6232 $BIG -- \
	symlink $b/plain 2339 c0ae2e >/tmp/b2.out 2>&1 &
b2_pid=$!
sleep 0.2
echo 0 >/sys/kernel/debug/kprobes/enabled
sleep 1.5
echo 1 >/sys/kernel/debug/kprobes/enabled
wait $b2_pid
expect_eq "B2: after a copy-up with kprobes off then on: no bad name" \
	"ok ok ok EILSEQ EILSEQ " "$(tr '\n' ' ' </tmp/b2.out)"
umount $b/big-merged
rm -rf $b/big-lower $b/big-upper $b/big-work

# Review round 6: an overlay operation stalled by a lease on the copy-up
# of its source, its mark made under laxer settings, made its name once
# they were tightened (F1); with index=on, a task that waited for another's
# copy-up of a hard link's other name linked its legacy name up unmarked,
# refused (F2); a waiter whose awaited copy-up failed copied up unmarked,
# uncounted (F2b).  Each copy-up here waits for uid 1000's lease on its
# lower file, until the lease's holder is killed.
mkdir -p $b/r6-lower $b/r6-upper $b/r6-work $b/r6-merged \
	$b/r6i-lower $b/r6i-upper $b/r6i-work $b/r6i-merged
setmode off	# legacy files, from before
for r6 in 66 6632 6633 6634; do
	"$fsop" create $b/r6-lower $r6 >/dev/null
	"$fsop" write $b/r6-lower $r6 old >/dev/null
done
"$fsop" create $b/r6-lower 6be9 >/dev/null	# "k" E9
"$fsop" write $b/r6-lower 6be9 old >/dev/null
"$fsop" create $b/r6i-lower 6c6561736564 >/dev/null	# "leased"
"$fsop" write $b/r6i-lower 6c6561736564 old >/dev/null
"$fsop" link $b/r6i-lower 6c6561736564 686ce9 >/dev/null	# "hl" E9
chown -R 1000:1000 $b/r6-lower $b/r6i-lower
chmod 666 $b/r6-lower/* $b/r6i-lower/*
chmod 1777 $b/r6-upper $b/r6i-upper
setmode enforce
ovl_mount "round 6" r6
ovl_mount "round 6" r6i index=on
break_time=$(cat /proc/sys/fs/lease-break-time)
echo 60 >/proc/sys/fs/lease-break-time
# r6_lease DIR HEX: uid 1000's lease on DIR/HEX, held in the background
# (r6_lp) until r6_release.
r6_lease() {
	rm -f /tmp/r6-lease.out
	"$fsop" --as-uid 1000 lease "$1" "$2" >/tmp/r6-lease.out &
	r6_lp=$!
	expect_eq "round 6: lease on $2 taken" ok \
		"$(wait_output ok cat /tmp/r6-lease.out)"
}
r6_release() {
	kill $r6_lp
	wait $r6_lp 2>/dev/null
}
# F1, mode: audit when uid 1000's rename to a bad name starts; enforce
# while its copy-up waits.
r6_lease $b/r6-lower 66
setmode audit
"$fsop" --as-uid 1000 rename $b/r6-merged 66 61ff62 >/tmp/r6.out 2>&1 &
r6_op=$!
sleep 2
setmode enforce
r6_r0=$(count rename rejected)
r6_release
wait $r6_op
expect_eq "round 6 F1: a rename begun in audit, refused once enforce is set" \
	EILSEQ "$(cat /tmp/r6.out)"
expect_eq "round 6 F1: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r6-upper 61ff62)"
expect_eq "round 6 F1: ... counted as a refused rename" $((r6_r0 + 1)) \
	"$(count rename rejected)"
# F1, policy: a hard link to a name with a bidi control, begun while the
# policy allows it, made after the policy gains bidi.
r6_lease $b/r6-lower 6632
"$fsop" --as-uid 1000 link $b/r6-merged 6632 61e280ae62 >/tmp/r6.out 2>&1 &
r6_op=$!
sleep 2
set_file $sys/policy "strict path-tricks bidi"
r6_release
wait $r6_op
expect_eq "round 6 F1: a link begun before policy bidi, refused after it" \
	EILSEQ "$(cat /tmp/r6.out)"
expect_eq "round 6 F1: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r6-upper 61e280ae62)"
set_file $sys/policy "strict path-tricks"
# F1, policy in audit: the same, mode audit throughout: the bidi name is
# made, and since the overlay's hook judged it under the old policy, the
# upper layer checks it again: audited and logged once, not passed
# silently.
setmode audit
r6_lease $b/r6-lower 6634
mark
r6_a0=$(count link audited)
"$fsop" --as-uid 1000 link $b/r6-merged 6634 62e280ae62 >/tmp/r6.out 2>&1 &
r6_op=$!
sleep 2
set_file $sys/policy "strict path-tricks bidi"
r6_release
wait $r6_op
expect_eq "round 6 F1: audit: a link begun before policy bidi is made" ok \
	"$(cat /tmp/r6.out)"
expect_eq "round 6 F1: audit: ... audited once the policy has bidi" \
	$((r6_a0 + 1)) "$(count link audited)"
expect_match "round 6 F1: audit: ... and logged" \
	'audit: would refuse link .*bidi' "$(log_since)"
set_file $sys/policy "strict path-tricks"
setmode enforce
# F1, fstypes: the same link begun while fs/fstypes leaves out overlay,
# made once it watches every filesystem again.
set_file $fs/fstypes "tmpfs ext4"
r6_lease $b/r6-lower 6633
"$fsop" --as-uid 1000 link $b/r6-merged 6633 62ff >/tmp/r6.out 2>&1 &
r6_op=$!
sleep 2
set_file $fs/fstypes '*'
r6_release
wait $r6_op
expect_eq "round 6 F1: a link begun with overlay unwatched, refused after" \
	EILSEQ "$(cat /tmp/r6.out)"
# The same settings from start to end: a good name is made, counted once.
r6_c0=$(count link checked)
expect_eq "round 6: a good link name, settings unchanged" ok \
	"$("$fsop" --as-uid 1000 link $b/r6-merged 6633 6c32)"
expect_eq "round 6: ... checked once" $((r6_c0 + 1)) "$(count link checked)"
# F2: root appends to the legacy hard link "hl" E9 while uid 1000's
# append to its other name "leased" copies the inode up (index=on).
r6_missed=$(cat $fs/missed)
r6_lease $b/r6i-lower 6c6561736564
"$fsop" --as-uid 1000 append $b/r6i-merged 6c6561736564 x >/tmp/r6a.out 2>&1 &
r6_op=$!
sleep 1
"$fsop" append $b/r6i-merged 686ce9 y >/tmp/r6.out 2>&1 &
r6_op2=$!
sleep 2
r6_release
wait $r6_op $r6_op2
expect_eq "round 6 F2: the other name's append" ok "$(cat /tmp/r6a.out)"
expect_eq "round 6 F2: append to a legacy hard link behind its copy-up" \
	ok "$(cat /tmp/r6.out)"
expect_match "round 6 F2: ... both appends in the file" '^old(xy|yx)$' \
	"$("$fsop" read $b/r6i-merged 686ce9)"
expect_eq "round 6 F2: ... nothing missed" "$r6_missed" "$(cat $fs/missed)"
# F2b: root's append to "k" E9 waits for uid 1000's copy-up of it, which
# fails as uid 1000 is killed; root then copies it up unmarked: refused
# once (failing safe), and counted in fs/missed.
r6_lease $b/r6-lower 6be9
"$fsop" --as-uid 1000 append $b/r6-merged 6be9 x >/dev/null 2>&1 &
r6_op=$!
sleep 1
"$fsop" append $b/r6-merged 6be9 y >/tmp/r6.out 2>&1 &
r6_op2=$!
sleep 1
kill -9 $r6_op
sleep 1
r6_release
wait $r6_op2
expect_eq "round 6 F2b: a waiter whose copy-up failed: refused once" \
	EILSEQ "$(cat /tmp/r6.out)"
expect_eq "round 6 F2b: ... counted in fs/missed" $((r6_missed + 1)) \
	"$(cat $fs/missed)"
expect_eq "round 6 F2b: ... the next append works" ok \
	"$("$fsop" append $b/r6-merged 6be9 z)"
umount $b/r6-merged $b/r6i-merged
rm -rf $b/r6-lower $b/r6-upper $b/r6-work $b/r6-merged \
	$b/r6i-lower $b/r6i-upper $b/r6i-work $b/r6i-merged

# Review round 7: the window is before the overlay operation's entry.
# vfs_link() and vfs_rename() take the source's inode lock after the
# overlay's own hook has judged the name; root's chmod of that file holds
# the lock while its copy-up waits for uid 1000's lease.  A setting
# tightened meanwhile must still hold when the name is made: also on an
# upper filesystem outside fs/fstypes (the overlay's hook is then the only
# check), and by a rename onto a deleted legacy name (its whiteout: the
# upper layer renames onto an existing entry, which it lets through).
mkdir -p $b/r7-lower $b/r7-upper $b/r7-work $b/r7-merged
setmode off
for r7 in 6631 6632 6633 6634 6635 7865; do	# f1 to f5, "xe" to delete
	"$fsop" create $b/r7-lower $r7 >/dev/null
	"$fsop" write $b/r7-lower $r7 old >/dev/null
done
"$fsop" create $b/r7-lower 78e9 >/dev/null	# "x" E9, a legacy name
chown -R 1000:1000 $b/r7-lower
chmod 666 $b/r7-lower/*
chmod 1777 $b/r7-upper
setmode enforce
ovl_mount "round 7" r7
expect_eq "round 7: delete the legacy x E9 (a whiteout)" ok \
	"$("$fsop" unlink $b/r7-merged 78e9)"
# r7_window NAME HEX CHANGE OP...: uid 1000's lease on lower NAME (HEX),
# root's chmod of it (its copy-up waits, holding the inode lock), OP on
# it (past the overlay's hook, it waits for the lock), then CHANGE, then
# the release.
r7_window() {
	r7_name=$1
	r7_f=$2
	r7_change=$3
	shift 3
	r6_lease $b/r7-lower $r7_f
	chmod 600 "$b/r7-merged/$r7_name" &
	r7_chmod=$!
	sleep 1
	"$fsop" "$@" >/tmp/r7.out 2>&1 &
	r7_op=$!
	sleep 1
	eval "$r7_change"
	r6_release
	wait $r7_chmod $r7_op
}
set_file $fs/fstypes overlay
setmode off
r7_window f1 6631 'setmode enforce' link $b/r7-merged 6631 61ff62
expect_eq "round 7: upper unwatched, off then enforce: a link refused" \
	EILSEQ "$(cat /tmp/r7.out)"
expect_eq "round 7: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r7-upper 61ff62)"
r7_window f2 6632 'set_file $sys/policy "strict path-tricks bidi"' \
	link $b/r7-merged 6632 61e280ae62
expect_eq "round 7: upper unwatched, bidi added: a link refused" \
	EILSEQ "$(cat /tmp/r7.out)"
set_file $sys/policy "strict path-tricks"
set_file $fs/fstypes '*'
setmode audit
r7_window f3 6633 'setmode enforce' rename $b/r7-merged 6633 78e9
expect_eq "round 7: audit then enforce: a rename onto a deleted legacy name refused" \
	EILSEQ "$(cat /tmp/r7.out)"
expect_eq "round 7: ... the name stays deleted" ENOENT \
	"$("$fsop" stat $b/r7-merged 78e9)"
expect_eq "round 7: delete xe (a whiteout)" ok \
	"$("$fsop" unlink $b/r7-merged 7865)"
expect_eq "round 7: a good rename onto a whiteout still works" ok \
	"$("$fsop" rename $b/r7-merged 6633 7865)"
# The same window in audit: the upper layer goes by the settings the
# overlay's hook judged the name under, not those at the operation's
# entry.  A link the hook passed before policy bidi, made after it: the
# upper layer audits and logs it (it passed quietly when the entry's
# settings stood for the hook's).  With the settings unchanged, a bad
# name is audited once, by the overlay's hook only.
setmode audit
mark
r7_a0=$(count link audited)
r7_window f4 6634 'set_file $sys/policy "strict path-tricks bidi"' \
	link $b/r7-merged 6634 63e280ae62
expect_eq "round 7: audit: a link judged before policy bidi is made" ok \
	"$(cat /tmp/r7.out)"
expect_eq "round 7: ... audited when made, under bidi" $((r7_a0 + 1)) \
	"$(count link audited)"
expect_match "round 7: ... and logged" 'audit: would refuse link .*bidi' \
	"$(log_since)"
r7_a0=$(count link audited)
expect_eq "round 7: audit: a bad link name, settings unchanged" ok \
	"$("$fsop" --as-uid 1000 link $b/r7-merged 6635 64ff)"
expect_eq "round 7: ... audited once" $((r7_a0 + 1)) "$(count link audited)"
set_file $sys/policy "strict path-tricks"
setmode enforce
echo "$break_time" >/proc/sys/fs/lease-break-time
umount $b/r7-merged
rm -rf $b/r7-lower $b/r7-upper $b/r7-work $b/r7-merged

# Review round 8: overlay operations that carry no mark.  An overlay in a
# user namespace gets none (any user could stall its operations by the
# thousand), and an operation that entered while the probes were
# disarmed (mode off, or fs/enabled 0, for over a second) had no probe to
# make one.  Either way its name, judged on the overlay under laxer
# settings or not at all, must still be checked when it is made on an
# upper layer outside fs/fstypes.  Each stalls in the copy-up of its
# source: root's lease on the lower file.
mkdir -p $b/r8-lower $b/r8-upper $b/r8-work $b/r8-merged
for r8 in 6631 6632 6633 6634 6635 6636 6637 6638 6639; do	# f1 to f9
	"$fsop" create $b/r8-lower $r8 >/dev/null
	"$fsop" write $b/r8-lower $r8 old >/dev/null
done
echo 60 >/proc/sys/fs/lease-break-time
ovl_mount "round 8" r8
# r8_lease NAME: root's lease on lower NAME (hex), in the background.
r8_lease() {
	rm -f /tmp/r8-lease.out
	"$fsop" lease $b/r8-lower "$1" >/tmp/r8-lease.out &
	r8_lp=$!
	expect_eq "round 8: lease on $1 taken" ok \
		"$(wait_output ok cat /tmp/r8-lease.out)"
}
# r8_window CHANGE OP...: OP in the background (it stalls in its copy-up),
# then CHANGE, then the lease's release; OP's output in /tmp/r8.out.
r8_window() {
	r8_change=$1
	shift
	"$@" >/tmp/r8.out 2>&1 &
	r8_op=$!
	sleep 2
	eval "$r8_change"
	kill $r8_lp
	wait $r8_lp $r8_op 2>/dev/null
}
# r8_ns OP ARG...: fs_op OP on an overlay of the r8 layers mounted in a
# new user namespace.
r8_ns() {
	unshare -Urm sh -c "
		mount -t overlay overlay -o lowerdir=$b/r8-lower,upperdir=$b/r8-upper,workdir=$b/r8-work $b/r8-merged || exit 3
		exec $fsop \"\$@\"" sh "$@"
}
# r8_disarmed LABEL: the hook's probes disarmed, as they are a second
# after mode off or fs/enabled 0; overlay.ko's stay armed.
r8_disarmed() {
	expect_eq "round 8: $1: the hook's probes disarmed" "6 disabled 6" \
		"$(wait_fs_probes '6 disabled 6')"
	expect_eq "round 8: $1: overlay.ko's probes armed" "armed armed" \
		"$(kprobe_state ovl_link r) $(kprobe_state ovl_copy_up_start r)"
}
set_file $fs/fstypes overlay
setmode off
r8_disarmed "mode off"
r8_lease 6631
r8_window 'setmode enforce' "$fsop" link $b/r8-merged 6631 61ff62
expect_eq "round 8: link entered disarmed, made after enforce: refused" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 8: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r8-upper 61ff62)"
set_file $fs/enabled 0
r8_disarmed "fs/enabled 0"
r8_lease 6632
r8_window 'set_file $fs/enabled 1' "$fsop" rename $b/r8-merged 6632 63ff
expect_eq "round 8: rename entered disarmed, made after fs/enabled 1: refused" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 8: ... the file keeps its name" old \
	"$("$fsop" read $b/r8-merged 6632)"
umount $b/r8-merged
setmode off
r8_disarmed "user namespace, mode off"
r8_lease 6633
r8_window 'setmode enforce' r8_ns rename $b/r8-merged 6633 61ff62
expect_eq "round 8: user namespace: a rename begun in mode off, refused after enforce" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 8: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r8-upper 61ff62)"
r8_lease 6634
r8_window 'set_file $sys/policy "strict path-tricks bidi"' \
	r8_ns link $b/r8-merged 6634 61e280ae62
expect_eq "round 8: user namespace: a link begun before policy bidi, refused after" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 8: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r8-upper 61e280ae62)"
# Round 9: a first fix kept the hook's judgement of a user namespace's
# name in a slot chosen by the task's pid; any task whose pid hashed to
# the same slot wiped it with a good name of its own, and the stalled
# rename made its refused name.  Here that task runs during the stall,
# after enforce.
mkdir -p $b/r9-lower $b/r9-upper $b/r9-work $b/r9-merged
setmode off
r8_disarmed "user namespace, a pid slot's other task"
r8_lease 6637
r8_ns rename $b/r8-merged 6637 61ff63 >/tmp/r8.out 2>&1 &
r8_op=$!
sleep 2
setmode enforce
r9_victim=
for r9 in /proc/[0-9]*; do
	case "$(tr '\0' ' ' <"$r9/cmdline" 2>/dev/null)" in
	*"rename $b/r8-merged 6637 61ff63"*) r9_victim=${r9#/proc/} ;;
	esac
done
expect_match "round 9: the stalled rename's pid" '^[0-9][0-9]*$' "$r9_victim"
# The slot: hash_32(pid, 10), as overlay_seen.c chose it.
r9_slot=$(( ((r9_victim * 0x61C88647) & 0xffffffff) >> 22 ))
r9_n=0
until [ $r9_n -ge 8000 ] || sh -c '
	[ $(( (($$ * 0x61C88647) & 0xffffffff) >> 22 )) = "$1" ] || exit 1
	exec unshare -Urm sh -c "
		mount -t overlay overlay -o lowerdir=$2-lower,upperdir=$2-upper,workdir=$2-work $2-merged &&
		exec $3 create $2-merged 6767"' sh "$r9_slot" "$b/r9" "$fsop" >/dev/null
do
	r9_n=$((r9_n + 1))
done
expect_eq "round 9: a task of the victim's slot made a good name" ok \
	"$("$fsop" stat $b/r9-upper 6767)"
kill $r8_lp
wait $r8_lp $r8_op 2>/dev/null
expect_eq "round 9: user namespace: the stalled rename still refused" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 9: ... its name not on the upper layer" ENOENT \
	"$("$fsop" stat $b/r8-upper 61ff63)"
rm -rf $b/r9-lower $b/r9-upper $b/r9-work $b/r9-merged
# Round 10: a whiteout on the upper layer (a 0/0 character device: anyone
# who can write there makes one) hides nothing in the lower layer, and a
# rename onto it, or a link over it (a temporary name exchanged with it),
# makes its name in the merged view: checked there as new, also after
# the settings changed while it stalled.
mknod $b/r8-upper/"$(printf 'a\377d')" c 0 0
mknod $b/r8-upper/"$(printf 'a\377e')" c 0 0
expect_eq "round 10: a whiteout named 61 FF 64 is not in the merged view" \
	"ENOENT" "$(r8_ns stat $b/r8-merged 61ff64)"
setmode off
r8_disarmed "user namespace, onto a whiteout"
r8_lease 6638
r8_window 'setmode enforce' r8_ns rename $b/r8-merged 6638 61ff64
expect_eq "round 10: user namespace: a rename onto a whiteout, begun in mode off, refused after enforce" \
	EILSEQ "$(cat /tmp/r8.out)"
setmode audit
r8_lease 6639
r8_window 'setmode enforce' r8_ns link $b/r8-merged 6639 61ff65
expect_eq "round 10: user namespace: a link over a whiteout, begun in audit, refused after enforce" \
	EILSEQ "$(cat /tmp/r8.out)"
expect_eq "round 10: ... neither name in the merged view" "ENOENT ENOENT " \
	"$(r8_ns stat $b/r8-merged 61ff64 -- stat $b/r8-merged 61ff65 | tr '\n' ' ')"
# With overlays watched, a user namespace's overlay makes every name on
# its upper layer as new, even there outside fs/fstypes (its mounter
# chose its layers): a legacy file is not copied up.  A rename onto a
# name the upper layer has makes none, and works (a save by rename onto
# a legacy file copied up before).
"$fsop" create $b/r8-lower 6ce9 >/dev/null	# "l" E9
"$fsop" create $b/r8-upper 75e9 >/dev/null	# "u" E9, on the upper layer
expect_eq "round 8: user namespace: a legacy lower file is not copied up" \
	"EILSEQ " "$(r8_ns append $b/r8-merged 6ce9 x | tr '\n' ' ')"
expect_eq "round 8: user namespace: a save by rename onto an upper legacy name" \
	"ok ok " "$(r8_ns create $b/r8-merged 7573 -- rename $b/r8-merged 7573 75e9 | tr '\n' ' ')"
# Settings unchanged: the overlay's hook alone judges (a good name is
# made; a bad one refused there), as before.
r8_lease 6635
r8_window : r8_ns link $b/r8-merged 6635 6c2d6f6b
expect_eq "round 8: user namespace: a good link, settings unchanged" ok \
	"$(cat /tmp/r8.out)"
expect_eq "round 8: user namespace: a bad link, settings unchanged: refused" \
	EILSEQ "$(r8_ns link $b/r8-merged 6636 62ff)"
# Round 10: two other kernel services override a task's credentials with
# its own, in a user namespace: an io_uring request with a personality,
# and a core dump.  They make names where the task chose, outside an
# overlay: on tmpfs, outside fs/fstypes, nothing is checked.  Through an
# overlay of that namespace, the same services are overlayfs's callers:
# checked.
mkdir -p $b/r10 $b/r10/cores
expect_eq "round 10: io_uring personalities in a user namespace, outside fs/fstypes" \
	"ok ok ok ok ok " \
	"$(unshare -Ur "$fsop" --uring-personality uring-mkdir $b/r10 61ff66 -- \
		uring-create $b/r10 61ff67 -- uring-symlink $b/r10 61ff68 62ff -- \
		uring-link $b/r10 61ff67 61ff69 -- uring-rename $b/r10 61ff69 61ff6a |
		tr '\n' ' ')"
# Round 12: IORING_OP_BIND (6.11+) makes a socket's name too.
if [ "$("$fsop" uring-bind $b/r10 6f6b)" = ok ]; then
	expect_eq "round 12: io_uring bind with a personality in a user namespace, outside fs/fstypes" \
		ok "$(unshare -Ur "$fsop" --uring-personality uring-bind $b/r10 61ff6b)"
else
	echo "# note: no IORING_OP_BIND in this kernel (6.11+)"
fi
expect_eq "round 10: ... through the namespace's overlay: refused" \
	"EILSEQ EILSEQ " \
	"$(r8_ns --uring-personality uring-mkdir $b/r8-merged 62ff66 -- \
		uring-create $b/r8-merged 62ff67 | tr '\n' ' ')"
expect_eq "round 10: ... neither on the upper layer" "ENOENT ENOENT " \
	"$("$fsop" stat $b/r8-upper 62ff66 -- stat $b/r8-upper 62ff67 | tr '\n' ' ')"
# (The debug kernel has no core dumps: CONFIG_COREDUMP is off there.)
if [ -e /proc/sys/kernel/core_pattern ]; then
	core_pattern=$(cat /proc/sys/kernel/core_pattern)
	echo "$b/r10/cores/core.%e" >/proc/sys/kernel/core_pattern
	unshare -Ur sh -c "ulimit -c unlimited; exec $fsop crash $b/r10 65ff66" 2>/dev/null
	expect_eq "round 10: a core dump in a user namespace, outside fs/fstypes" \
		ok "$("$fsop" stat $b/r10/cores 636f72652e65ff66)"
	echo "$b/r8-merged/core.%e" >/proc/sys/kernel/core_pattern
	(ulimit -c unlimited; r8_ns crash $b/r10 67ff68 2>/dev/null)
	expect_eq "round 10: ... through the namespace's overlay: refused" ENOENT \
		"$("$fsop" stat $b/r8-upper 636f72652e67ff68)"
	(ulimit -c unlimited; r8_ns crash $b/r10 676f6f64 2>/dev/null)
	expect_eq "round 10: ... a good name dumped there" ok \
		"$("$fsop" stat $b/r8-upper 636f72652e676f6f64)"
	echo "$core_pattern" >/proc/sys/kernel/core_pattern
else
	echo "# note: no core dumps in this kernel: round 10's core dump tests not run"
fi
rm -rf $b/r10
set_file $sys/policy "strict path-tricks"

# Round 12: with the overlay outside fs/fstypes its names are checked on
# its upper layer's filesystem, also a name made over a whiteout (a
# deleted legacy name made anew): overlayfs exchanges a temporary name
# with the whiteout, or renames onto it.
r12=$b/r12
mkdir -p $r12/lower $r12/upper $r12/work $r12/merged
set_file $fs/fstypes ext4	# the lower layer's legacy names, from before
for n in 6c31ff 6c32ff 6c33ff 6c35ff 6f6b; do
	"$fsop" create $r12/lower $n >/dev/null
done
chown -R 1000:1000 $r12/lower
chmod 1777 $r12/lower $r12/upper
set_file $fs/fstypes tmpfs
expect_status "round 12: mount overlay" 0 mount -t overlay overlay \
	-o lowerdir=$r12/lower,upperdir=$r12/upper,workdir=$r12/work $r12/merged
chmod 1777 $r12/merged
expect_eq "round 12: overlay outside fs/fstypes: a deleted legacy name made anew over its whiteout: refused" \
	"ok EILSEQ ok EILSEQ ok EILSEQ ok ok EILSEQ " \
	"$("$fsop" --as-uid 1000 unlink $r12/merged 6c31ff -- \
		create $r12/merged 6c31ff -- unlink $r12/merged 6c32ff -- \
		mkdir $r12/merged 6c32ff -- unlink $r12/merged 6c33ff -- \
		rename $r12/merged 6f6b 6c33ff -- create $r12/merged 6e6577 -- \
		unlink $r12/merged 6c35ff -- link $r12/merged 6e6577 6c35ff |
		tr '\n' ' ')"
expect_eq "round 12: ... none in the merged view" \
	"ENOENT ENOENT ENOENT ENOENT " \
	"$("$fsop" stat $r12/merged 6c31ff -- stat $r12/merged 6c32ff -- \
		stat $r12/merged 6c33ff -- stat $r12/merged 6c35ff | tr '\n' ' ')"
expect_eq "round 12: ... a good name over a whiteout: made" "ok ok ok " \
	"$("$fsop" --as-uid 1000 unlink $r12/merged 6e6577 -- \
		create $r12/merged 6e6577 -- stat $r12/merged 6e6577 | tr '\n' ' ')"
umount $r12/merged
rm -rf $r12
set_file $fs/fstypes '*'
echo "$break_time" >/proc/sys/fs/lease-break-time
rm -rf $b/r8-lower $b/r8-upper $b/r8-work $b/r8-merged

# Review rounds 3 and 4: tasks waiting behind one copy-up held all 1024
# instances of the copy-up kretprobes, and every other copy-up on the
# system was missed (legacy names refused).  The owner of a lower file
# holds a write lease on it (so its copy-up waits in break_lease()) and
# opens it for writing from 1100 tasks: the same file, a hard link to it
# (index=on: another dentry of the same overlay inode), or the same file
# on an overlay mounted in a user namespace.  Tasks waiting for another's
# copy-up take no instance: the legacy files of a root-mounted overlay
# stay usable, nothing is missed.
# OVL_EXHAUST=0 leaves these out (the debug kernel: over 30 minutes under
# KASAN and TCG).
if [ "${OVL_EXHAUST:-1}" = 1 ]; then
	mkdir -p $b/ex-lower $b/ex-upper $b/ex-work $b/ex-merged $b/ns
	setmode off	# the legacy names, as an old image has them
	for ex in 6578e9 657832e9 657833e9 657834e9 657835e9 657836e9 \
		657837e9 657838e9 657839e9 6c6561736564; do
		"$fsop" create $b/ex-lower $ex >/dev/null
		"$fsop" write $b/ex-lower $ex old >/dev/null
	done
	"$fsop" link $b/ex-lower 6c6561736564 6c696e6b >/dev/null	# "leased", "link"
	chown -R 1000:1000 $b/ex-lower
	chmod 1777 $b/ex-upper $b/ns
	setmode enforce
	ovl_mount exhaust ex index=on
	break_time=$(cat /proc/sys/fs/lease-break-time)
	echo 600 >/proc/sys/fs/lease-break-time
	# waiting_tasks: how many fs_op processes there are, but the lease's.
	waiting_tasks() {
		grep -l '^fs_op$' /proc/[0-9]*/comm 2>/dev/null | wc -l |
			awk '{ print $1 - 1 }'
	}
	# legacy_usable CASE A B C: with the waiters queued, three legacy files of
	# the root-mounted overlay appended to, renamed, deleted; nothing missed.
	legacy_usable() {
		expect_eq "exhaust ($1): 1101 tasks wait on one copy-up" 1101 \
			"$(wait_output 1101 waiting_tasks)"
		sleep 2
		expect_eq "exhaust ($1): append to a legacy file" ok \
			"$("$fsop" --as-uid 1000 append $b/ex-merged "$2" x)"
		expect_eq "exhaust ($1): rename a legacy file to a good name" ok \
			"$("$fsop" --as-uid 1000 rename $b/ex-merged "$3" "$(hex "good-$1")")"
		expect_eq "exhaust ($1): delete a legacy file" ok \
			"$("$fsop" --as-uid 1000 unlink $b/ex-merged "$4")"
		expect_eq "exhaust ($1): nothing missed" "$ex_missed" "$(cat $fs/missed)"
	}
	# exhaust CASE WAITHEX A B C: the lease on "leased", one task stalled
	# copying it up, 1100 more opening WAITHEX; then the legacy files A B C.
	exhaust() {
		ex_case=$1
		ex_wait=$2
		shift 2
		rm -f /tmp/lease.out
		"$fsop" --as-uid 1000 lease $b/ex-lower 6c6561736564 >/tmp/lease.out &
		ex_lease=$!
		expect_eq "exhaust ($ex_case): lease taken" ok \
			"$(wait_output ok cat /tmp/lease.out)"
		ex_missed=$(cat $fs/missed)
		"$fsop" --as-uid 1000 append $b/ex-merged 6c6561736564 x >/dev/null &
		sleep 1
		ex_n=0
		while [ $ex_n -lt 1100 ]; do
			"$fsop" --as-uid 1000 append $b/ex-merged "$ex_wait" x >/dev/null &
			ex_n=$((ex_n + 1))
		done
		legacy_usable "$ex_case" "$@"
		kill $ex_lease
		wait
	}
	exhaust "same file" 6c6561736564 6578e9 657832e9 657833e9
	expect_eq "exhaust: the leased file, copied up at last" oldx \
		"$("$fsop" read $b/ex-merged 6c6561736564 | head -c 4)"
	umount $b/ex-merged
	rm -rf $b/ex-upper $b/ex-work
	mkdir -p $b/ex-upper $b/ex-work
	chmod 1777 $b/ex-upper
	mount -t overlay overlay \
		-o "index=on,lowerdir=$b/ex-lower,upperdir=$b/ex-upper,workdir=$b/ex-work" \
		$b/ex-merged
	exhaust "hard link" 6c696e6b 657834e9 657835e9 657836e9

	# An overlay in a user namespace, of root's files there: its own
	# lease-stalled copy-up and 1100 waiters, while uid 1000's legacy files
	# on the root-mounted overlay must stay usable.
	umount $b/ex-merged
	rm -rf $b/ex-upper $b/ex-work
	mkdir -p $b/ex-upper $b/ex-work
	chmod 1777 $b/ex-upper
	mount -t overlay overlay \
		-o "lowerdir=$b/ex-lower,upperdir=$b/ex-upper,workdir=$b/ex-work" $b/ex-merged
	rm -f /tmp/lease.out /tmp/ns-lease.pid
	unshare -Urm sh -c "
		mount -t tmpfs tmpfs $b/ns && mkdir $b/ns/l $b/ns/u $b/ns/w $b/ns/m &&
		echo data >$b/ns/l/big &&
		mount -t overlay overlay -o lowerdir=$b/ns/l,upperdir=$b/ns/u,workdir=$b/ns/w $b/ns/m || exit 1
		$fsop lease $b/ns/l 626967 >/tmp/lease.out & echo \$! >/tmp/ns-lease.pid
		while [ \"\$(cat /tmp/lease.out 2>/dev/null)\" != ok ]; do sleep 0.2; done
		$fsop append $b/ns/m 626967 x >/dev/null &
		sleep 1
		n=0
		while [ \$n -lt 1100 ]; do
			$fsop append $b/ns/m 626967 x >/dev/null &
			n=\$((n + 1))
		done
		wait
	" &
	ex_missed=$(cat $fs/missed)
	expect_eq "exhaust (user namespace): lease taken" ok \
		"$(wait_output ok cat /tmp/lease.out)"
	legacy_usable "user namespace" 657837e9 657838e9 657839e9
	kill "$(cat /tmp/ns-lease.pid)"
	wait
	echo "$break_time" >/proc/sys/fs/lease-break-time
	umount $b/ex-merged
	rm -rf $b/ex-lower $b/ex-upper $b/ex-work $b/ex-merged $b/ns
fi

# Review round 5 (make check-long only: about 7 minutes under TCG): uid
# 1000's overlay in a user namespace, 530 unlinks and 530 renames each
# blocked behind a leased copy-up of its own file (tests/fs/ovl_stall.c).
# They held every instance of ovl_do_remove and ovl_rename, and root's
# overlay could then neither delete a legacy file nor rename onto one.
if [ "${FS_CYCLES:-50}" -ge 50 ]; then
	mkdir -p $b/st-lower $b/st-upper $b/st-work $b/st-merged /tmp/st
	setmode off
	for st in 73e9 7331e9 7332e9 7333e9; do
		"$fsop" create $b/st-lower $st >/dev/null
	done
	setmode enforce
	mount -t overlay overlay \
		-o "lowerdir=$b/st-lower,upperdir=$b/st-upper,workdir=$b/st-work" \
		$b/st-merged
	chown 1000:1000 /tmp/st
	break_time=$(cat /proc/sys/fs/lease-break-time)
	echo 900 >/proc/sys/fs/lease-break-time
	st_missed=$(cat $fs/missed)
	"$tools/ovl_stall" 1000 /tmp/st 530 530 >/tmp/st.out 2>&1 &
	st_pid=$!
	st_n=0
	while [ "$(tail -n 1 /tmp/st.out)" != "ovl_stall: 530 renamers" ] &&
		[ $st_n -lt 600 ]; do
		sleep 1
		st_n=$((st_n + 1))
	done
	expect_eq "round 5: 530 unlinks and 530 renames blocked" \
		"ovl_stall: 530 renamers" "$(tail -n 1 /tmp/st.out)"
	sleep 20
	"$fsop" create $b/st-merged 676f6f64 >/dev/null
	expect_eq "round 5: root deletes a legacy file" ok \
		"$("$fsop" unlink $b/st-merged 73e9)"
	expect_eq "round 5: root renames a good file onto a legacy name" ok \
		"$("$fsop" rename $b/st-merged 676f6f64 7331e9)"
	expect_eq "round 5: root appends to a legacy file" ok \
		"$("$fsop" append $b/st-merged 7332e9 x)"
	expect_eq "round 5: nothing missed" "$st_missed" "$(cat $fs/missed)"
	for st in /proc/[0-9]*; do
		[ "$(cat $st/comm 2>/dev/null)" != ovl_stall ] ||
			kill -9 "${st#/proc/}" 2>/dev/null
	done
	wait $st_pid
	echo "$break_time" >/proc/sys/fs/lease-break-time
	umount $b/st-merged
else
	echo "# note: review round 5's attack runs in make check-long only"
fi

# overlay.ko unloaded: its probes go; loaded again: back.
umount /mnt/ovl-tmpfs
expect_status "rmmod overlay" 0 rmmod overlay
expect_no_match "overlay unloaded: no probe" 'ovl_' \
	"$(cat /sys/kernel/debug/kprobes/list 2>/dev/null)"
expect_status "modprobe overlay" 0 modprobe overlay
expect_eq "overlay loaded again: 8 probes" 8 \
	"$(grep -c ' ovl_[a-z_]*+0x' /sys/kernel/debug/kprobes/list)"
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_eq "utf8guard_fs unloaded: no overlay probe" 0 \
	"$(grep -c ' ovl_[a-z_]*+0x' /sys/kernel/debug/kprobes/list)"
expect_status "rmmod utf8guard" 0 rmmod utf8guard
finish_tests
