#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fs_lock_test.sh MODDIR TOOLDIR - a rename or link judged under lax
# settings, held on its inode lock while an admin tightens them, in a VM.
#
# vfs_rename() and vfs_link() take the lock of the inode that moves or
# gets the link after their security hook: holdlock keeps that lock (a
# write from a page userfaultfd keeps missing) while the operation waits
# on it, the settings change, then the lock goes.  Review round 11's
# finding 1 (the name was made after the change, unchecked and uncounted)
# and finding 2 (the same across an unload and a load of utf8guard_fs.ko).
# For rename and link, from each laxer setting (mode audit, mode off with
# the probes disarmed, tmpfs outside fs/fstypes, fs/enabled 0) to enforce
# with tmpfs checked: a bad name refused with EILSEQ, nothing made, the
# refusal counted once; a good name made.  And the probes on tmpfs's
# rename and link functions, there from load (after_lock.c); on btrfs,
# mounted after load in mode off, there from its mount.  Needs
# /utf8guard/btrfs.img (vm-suite.sh).
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
hold=$tools/holdlock
tmpfs=/mnt/lock
btrfs=/mnt/lock-btrfs
BAD=61ff62			# an invalid byte
GOOD=676f6f64			# "good"

mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p $tmpfs $btrfs
mount -t tmpfs tmpfs $tmpfs
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
expect_status "insmod utf8guard_fs.ko" 0 insmod "$mods/utf8guard_fs.ko"
# No rename or link has been made since load: found by the mounts.
expect_eq "tmpfs's rename function probed at load" armed \
	"$(kprobe_state shmem_rename2)"
expect_eq "tmpfs's link function probed at load" armed \
	"$(kprobe_state shmem_link)"

# loosen HOW / tighten HOW: from and back to mode enforce, fs/enabled 1,
# fs/fstypes "*".
loosen() {
	case $1 in
	audit) set_file $sys/mode audit ;;
	off)
		set_file $sys/mode off
		# Past idle.c's second: the probes disarmed.
		wait_fs_probes "6 disabled 6" >/dev/null
		;;
	fstypes) set_file $fs/fstypes ext4 ;;
	enabled) set_file $fs/enabled 0 ;;
	reload) set_file $fs/fstypes ext4 ;;
	esac
}
tighten() {
	case $1 in
	audit | off) set_file $sys/mode enforce ;;
	fstypes) set_file $fs/fstypes '*' ;;
	enabled) set_file $fs/enabled 1 ;;
	reload)
		rmmod utf8guard_fs
		insmod "$mods/utf8guard_fs.ko"
		set_file $sys/mode enforce
		;;
	esac
}

# held OP HOW NAME [DIR]: OP (rename or link) of a held file to NAME, judged
# with the settings loosened as HOW says, made after they are tightened;
# prints what fs_op printed, and whether NAME exists after; in DIR, or
# on tmpfs.
n=0
held() {
	op=$1
	how=$2
	name=$3
	dir=${4:-$tmpfs}
	n=$((n + 1))
	src=$(hex "src$n")
	: >"$dir/src$n"
	loosen "$how"
	"$hold" "$dir/src$n" >/tmp/hold.out 2>&1 &
	hpid=$!
	wait_output held cat /tmp/hold.out >/dev/null
	"$fsop" "$op" $dir "$src" "$name" >/tmp/op.out 2>&1 &
	opid=$!
	waited=$(wait_blocked $opid)
	tighten "$how"
	kill -USR1 $hpid
	wait $hpid
	wait $opid
	made=$("$fsop" stat $dir "$name")
	echo "$(cat /tmp/op.out) waited:$waited $name:$made"
	rm -f "$dir/src$n"
	"$fsop" unlink $dir "$name" >/dev/null
}

for op in rename link; do
	for how in audit off fstypes enabled reload; do
		r0=$(cat $fs/stats/$op/rejected 2>/dev/null || echo 0)
		[ "$how" != reload ] || r0=0
		expect_eq "$op held from $how to enforce: bad name refused, not made" \
			"EILSEQ waited:D $BAD:ENOENT" "$(held $op $how $BAD)"
		expect_eq "$op held from $how to enforce: the refusal counted once" \
			$((r0 + 1)) "$(cat $fs/stats/$op/rejected)"
		expect_eq "$op held from $how to enforce: good name made" \
			"ok waited:D $GOOD:ok" "$(held $op $how $GOOD)"
	done
done

# Disarmed with the hook's probes (a second after mode off), armed with
# them before enforce is in effect.
set_file $sys/mode off
expect_eq "mode off: tmpfs's rename function's probe disarmed" disabled \
	"$(wait_output disabled kprobe_state shmem_rename2 k)"
set_file $sys/mode enforce
expect_eq "mode enforce: tmpfs's rename function's probe armed" armed \
	"$(kprobe_state shmem_rename2 k)"

# A filesystem mounted after load, while the probes are disarmed (mode
# off): its functions are probed from its mount, so a rename or link held
# there from off to enforce is refused (review round 12: a scan of the
# mounts on arming waited on a mount held in progress).  btrfs: no other
# suite leaves it mounted.
modprobe loop 2>/dev/null
modprobe btrfs 2>/dev/null
set_file $sys/mode off
wait_fs_probes "6 disabled 6" >/dev/null
expect_eq "btrfs's rename function not probed before its mount" absent \
	"$(kprobe_state btrfs_rename2)"
expect_status "mount btrfs in mode off" 0 \
	mount -t btrfs -o loop /utf8guard/btrfs.img $btrfs
expect_eq "btrfs's rename function probed from its mount, disarmed" disabled \
	"$(wait_output disabled kprobe_state btrfs_rename2 k)"
expect_eq "btrfs's link function probed from its mount, disarmed" disabled \
	"$(wait_output disabled kprobe_state btrfs_link k)"
for op in rename link; do
	r0=$(cat $fs/stats/$op/rejected)
	expect_eq "$op on btrfs mounted in mode off, held to enforce: bad name refused, not made" \
		"EILSEQ waited:D $BAD:ENOENT" "$(held $op off $BAD $btrfs)"
	expect_eq "$op on btrfs mounted in mode off, held to enforce: the refusal counted once" \
		$((r0 + 1)) "$(cat $fs/stats/$op/rejected)"
done
umount $btrfs

# Review round 13 (F1): a slot claimed by one note and registered by the
# work of another before its operation was written gave a filesystem's
# ->rename() the ->link() handler: an oops at its first rename.
# utf8guard_fs_slownote.ko waits 200 ms in that window (tests/fs/kmod);
# ramfs, ext4 and btrfs, none mounted at load, are mounted 250 ms apart
# into it.  Every rename and link then judged right: good names made, bad
# refused.
if [ -f "$mods/utf8guard_fs_slownote.ko" ]; then
	modprobe ext4 2>/dev/null
	r13=/mnt/r13
	mkdir -p $r13/ramfs $r13/ext4 $r13/btrfs
	expect_status "r13 F1: rmmod utf8guard_fs" 0 rmmod utf8guard_fs
	expect_status "r13 F1: insmod utf8guard_fs_slownote.ko" 0 \
		insmod "$mods/utf8guard_fs_slownote.ko"
	set_file $sys/mode enforce
	mount -t ramfs ramfs $r13/ramfs &
	sleep 0.25
	mount -t ext4 -o loop /utf8guard/ext4.img $r13/ext4 &
	sleep 0.25
	mount -t btrfs -o loop /utf8guard/btrfs.img $r13/btrfs &
	wait
	for d in ramfs ext4 btrfs; do
		: >$r13/$d/src
		expect_eq "r13 F1: $d: rename to a good name made" ok \
			"$("$fsop" rename $r13/$d 737263 $GOOD)"
		expect_eq "r13 F1: $d: link to a good name made" ok \
			"$("$fsop" link $r13/$d $GOOD 6c6b)"
		expect_eq "r13 F1: $d: rename to a bad name refused" EILSEQ \
			"$("$fsop" rename $r13/$d $GOOD $BAD)"
		expect_eq "r13 F1: $d: link to a bad name refused" EILSEQ \
			"$("$fsop" link $r13/$d $GOOD c0ae2e)"
	done
	expect_eq "r13 F1: ext4's rename function probed" armed "$(kprobe_state ext4_rename2)"
	expect_eq "r13 F1: btrfs's link function probed" armed "$(kprobe_state btrfs_link)"
	expect_eq "r13 F1: fs/missed" 0 "$(cat $fs/missed)"
	umount $r13/ramfs $r13/ext4 $r13/btrfs
	expect_status "r13 F1: rmmod utf8guard_fs_slownote" 0 rmmod utf8guard_fs_slownote
	expect_status "r13 F1: insmod utf8guard_fs.ko again" 0 insmod "$mods/utf8guard_fs.ko"
else
	fail "r13 F1: utf8guard_fs_slownote.ko built" "not in $mods"
fi

# Review round 13 (F4): a note queued the registration with queue_work()
# from the probe handler, which an int3 kprobe runs as NMI: lockdep's
# "inconsistent {INITIAL USE} -> {IN-NMI}" on the workqueue pool's lock
# (the debug kernel, under this load within a minute). 30 s: the mode and
# fs/ settings flipping, tmpfs/ramfs and btrfs mounted, renamed in and
# unmounted, utf8guard_fs.ko reloaded every 4 s; every reload loads, and
# lockdep stays quiet (run-vm.sh fails the VM on any splat, too).
r13=/mnt/r13f4
stop=/tmp/r13f4.stop
rm -f $stop /tmp/r13f4.insmod
mkdir -p $r13/m
(while [ ! -e $stop ]; do
	for m in enforce audit off enforce; do
		echo $m >$sys/mode 2>/dev/null
		sleep 0.3
	done
	echo 0 >$fs/enabled 2>/dev/null
	sleep 0.2
	echo 1 >$fs/enabled 2>/dev/null
	echo 'ext4 btrfs' >$fs/fstypes 2>/dev/null
	sleep 0.1
	echo '*' >$fs/fstypes 2>/dev/null
done) &
(i=0; while [ ! -e $stop ]; do
	i=$((i + 1))
	d=$r13/s$((i % 4))
	mkdir -p $d
	mount -t tmpfs x $d 2>/dev/null || mount -t ramfs x $d
	: >$d/a
	"$fsop" rename $d 61 61ff62 >/dev/null
	"$fsop" link $d 61 6262 >/dev/null
	"$fsop" mkdir $d 63e9 >/dev/null
	umount $d
done) &
(while [ ! -e $stop ]; do
	mount -t btrfs -o loop /utf8guard/btrfs.img $r13/m 2>/dev/null && {
		: >$r13/m/q
		"$fsop" rename $r13/m 71 7172 >/dev/null
		"$fsop" rename $r13/m 7172 71 >/dev/null
		umount $r13/m
	}
done) &
(while [ ! -e $stop ]; do
	sleep 4
	rmmod utf8guard_fs
	insmod "$mods/utf8guard_fs.ko" || echo failed >>/tmp/r13f4.insmod
done) &
sleep 30
touch $stop
wait
expect_eq "r13 F4: utf8guard_fs.ko reloaded under renames and mounts: every load loaded" "" \
	"$(cat /tmp/r13f4.insmod 2>/dev/null)"
expect_eq "r13 F4: lockdep quiet" 0 "$(dmesg | grep -c -E 'inconsistent lock state|possible circular locking')"
grep -q '^utf8guard_fs ' /proc/modules || insmod "$mods/utf8guard_fs.ko"
set_file $sys/mode enforce
set_file $fs/enabled 1
set_file $fs/fstypes '*'
expect_eq "r13 F4: after the load, a bad name refused" EILSEQ "$("$fsop" mkdir $r13 c0ae2e)"

# After the reloads: the probes again there from load, and gone at unload.
expect_eq "tmpfs's rename function probed after reloads" armed \
	"$(kprobe_state shmem_rename2)"
expect_eq "fs/missed" 0 "$(cat $fs/missed)"
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_eq "tmpfs's rename function not probed after unload" absent \
	"$(kprobe_state shmem_rename2)"
expect_status "rmmod utf8guard" 0 rmmod utf8guard
umount $tmpfs
kmemleak_check
finish_tests
