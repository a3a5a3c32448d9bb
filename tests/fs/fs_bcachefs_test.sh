#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fs_bcachefs_test.sh MODDIR TOOLDIR - utf8guard_fs.ko on bcachefs
# subvolumes, in a VM of a Debian kernel.
#
# BCH_IOCTL_SUBVOLUME_CREATE (6.12's bcachefs.ko) calls only
# security_path_mkdir() before making the directory, past every
# security_inode_*() hook, and needs no capability: while bcachefs.ko is
# loaded, utf8guard_fs.ko probes security_path_mkdir() and checks the calls
# made from bcachefs.ko's own code (kernel/fs/bcachefs.c).
#
# Debian's bookworm archive has no mkfs.bcachefs, so no bcachefs can be
# made here.  With the real bcachefs.ko (6.12), the test checks that the
# probe comes and goes with it and that an ordinary mkdir is still judged
# once, by the mkdir hook.  The creation itself is checked with a stand-in
# module named bcachefs (tests/fs/kmod/standin/bcachefs.c) that makes a
# directory the way the ioctl does: bad names refused with EILSEQ as root
# and as uid 1000, nothing created, counted once in fs/stats/subvol; good
# names created; audit mode; the probe at load, by the notifier, disarmed
# in mode off, gone with either module; and beside a kprobe event on
# security_path_mkdir (review round 19).
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
mnt=/mnt/bch
subvolume=/proc/utf8guard_subvolume
BAD="c0ae2e 61ff62 eda080"	# overlong "/.", an invalid byte, a surrogate
GOOD=636166c3a9			# "café"

setmode() { set_file $sys/mode "$1"; }
count() { cat "$fs/stats/$1/$2"; }
# probe_state: security_path_mkdir's kprobe (vm-lib.sh).
probe_state() { kprobe_state security_path_mkdir; }
# plain_mkdir_once WHAT: an ordinary mkdir of a bad name is refused, and
# counted in mkdir, not in subvol.
plain_mkdir_once() {
	pm_m0=$(count mkdir rejected)
	pm_s0=$(count subvol checked)
	expect_eq "$1: mkdir of a bad name refused" EILSEQ \
		"$("$fsop" mkdir $mnt c0ae2e)"
	expect_eq "$1: counted in mkdir, not in subvol" \
		"$((pm_m0 + 1)) $pm_s0" \
		"$(count mkdir rejected) $(count subvol checked)"
}

mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p $mnt
mount -t tmpfs tmpfs $mnt
mkdir $mnt/user
chown 1000:1000 $mnt/user
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
expect_status "insmod utf8guard_fs.ko" 0 insmod "$mods/utf8guard_fs.ko"
setmode enforce
expect_eq "no bcachefs: no probe" absent "$(probe_state)"

# The real bcachefs.ko, where the kernel has it.
if modprobe bcachefs 2>/dev/null; then
	expect_eq "bcachefs.ko: probed by the notifier" armed "$(probe_state)"
	expect_eq "bcachefs.ko: fs/unhooked" 0 "$(cat $fs/unhooked)"
	plain_mkdir_once "bcachefs.ko loaded"
	expect_status "rmmod bcachefs" 0 rmmod bcachefs
	expect_eq "bcachefs.ko unloaded: no probe" absent "$(probe_state)"
else
	echo "# note: $(uname -r) has no bcachefs.ko; only the stand-in runs"
fi

# The stand-in, loaded after utf8guard_fs.ko: probed by the notifier.
# The harness puts every module it built in MODDIR, the stand-in too.
expect_status "insmod the stand-in" 0 insmod "$mods/bcachefs.ko"
expect_eq "stand-in: probed by the notifier" armed "$(probe_state)"
chmod 0666 $subvolume

# create_all WHO DIR [--as-uid UID]: every bad name, then a good one.
create_all() {
	ca_who=$1
	ca_dir=$2
	shift 2
	for ca_bad in $BAD; do
		ca_before=$(listing "$ca_dir")
		ca_r0=$(count subvol rejected)
		ca_c0=$(count subvol checked)
		ca_m0=$(count mkdir checked)
		expect_eq "$ca_who: subvolume $ca_bad refused" EILSEQ \
			"$("$gw" "$@" $subvolume "$(hex "$ca_dir/")$ca_bad")"
		expect_eq "$ca_who: subvolume $ca_bad created nothing" \
			"$ca_before" "$(listing "$ca_dir")"
		expect_eq "$ca_who: subvolume $ca_bad counted once, in subvol" \
			"$((ca_r0 + 1)) $((ca_c0 + 1)) $ca_m0" \
			"$(count subvol rejected) $(count subvol checked) $(count mkdir checked)"
	done
	expect_eq "$ca_who: subvolume of a good name" ok \
		"$("$gw" "$@" $subvolume "$(hex "$ca_dir/")$GOOD")"
	expect_eq "$ca_who: the subvolume exists" ok \
		"$("$fsop" stat "$ca_dir" $GOOD)"
}
create_all root $mnt
create_all "uid 1000" $mnt/user --as-uid 1000
plain_mkdir_once "stand-in loaded"

setmode audit
a0=$(count subvol audited)
expect_eq "audit: bad subvolume allowed" ok \
	"$("$gw" $subvolume "$(hex "$mnt/")c0af")"
expect_eq "audit: counted" $((a0 + 1)) "$(count subvol audited)"
setmode off
expect_eq "mode off: probe disarmed" disabled "$(wait_output disabled probe_state)"
setmode enforce
expect_eq "enforce: probe armed again" armed "$(probe_state)"
expect_eq "armed again: refuses" EILSEQ \
	"$("$gw" $subvolume "$(hex "$mnt/")c0ae2e")"

# utf8guard_fs.ko unloaded and loaded again: probed at load.
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_eq "utf8guard_fs unloaded: no probe" absent "$(probe_state)"
expect_status "insmod utf8guard_fs.ko with the stand-in loaded" 0 \
	insmod "$mods/utf8guard_fs.ko"
setmode enforce
expect_eq "stand-in: probed at load" armed "$(probe_state)"
expect_eq "probed at load: refuses" EILSEQ \
	"$("$gw" $subvolume "$(hex "$mnt/")eda080")"
expect_eq "fs/unhooked at the end" 0 "$(cat $fs/unhooked)"
expect_status "rmmod the stand-in" 0 rmmod bcachefs
expect_eq "stand-in unloaded: no probe" absent "$(probe_state)"

# Review round 19 (F2): the probe of a filesystem module joining a kprobe
# already on security_path_mkdir (a kprobe event; bpftrace, bcc...) made
# the user's kprobe fail to disarm (a WARN), and left the module's probe
# hashed and armed once the stand-in went: the next mkdir oopsed.  Only
# where kprobes can be ftrace-based (tracefs enabled_functions).
tr=/sys/kernel/tracing
if [ -w $tr/kprobe_events ] && [ -e $tr/enabled_functions ]; then
	r19warn=$((($(cat /proc/sys/kernel/tainted) >> 9) & 1))
	mark
	expect_status "r19 F2: kprobe event on security_path_mkdir" 0 \
		sh -c "echo 'p:r19_path_mkdir security_path_mkdir' >>$tr/kprobe_events &&
			echo 1 >$tr/events/kprobes/r19_path_mkdir/enable"
	expect_status "r19 F2: insmod the stand-in beside it" 0 insmod "$mods/bcachefs.ko"
	expect_eq "r19 F2: beside a kprobe event: subvolume of a bad name refused" EILSEQ \
		"$("$gw" $subvolume "$(hex "$mnt/")c0ae2e")"
	expect_status "r19 F2: kprobe event disabled" 0 \
		sh -c "echo 0 >$tr/events/kprobes/r19_path_mkdir/enable"
	expect_status "r19 F2: kprobe event removed" 0 \
		sh -c "echo '-:r19_path_mkdir' >>$tr/kprobe_events"
	expect_eq "r19 F2: event removed: the stand-in's probe armed" armed "$(probe_state)"
	expect_eq "r19 F2: event removed: subvolume of a bad name refused" EILSEQ \
		"$("$gw" $subvolume "$(hex "$mnt/")eda080")"
	expect_status "r19 F2: rmmod the stand-in" 0 rmmod bcachefs
	expect_eq "r19 F2: stand-in unloaded: no probe" absent "$(probe_state)"
	expect_eq "r19 F2: then a mkdir of a good name" ok "$("$fsop" mkdir $mnt 72313966)"
	expect_eq "r19 F2: then a mkdir of a bad name refused" EILSEQ \
		"$("$fsop" mkdir $mnt 72313966e9)"
	expect_eq "r19 F2: no kprobe failed to disarm" 0 \
		"$(log_since | grep -c 'Failed to disarm')"
	expect_eq "r19 F2: no WARN (taint W)" "$r19warn" \
		"$((($(cat /proc/sys/kernel/tainted) >> 9) & 1))"
else
	echo "# no ftrace-based kprobe events here: a kprobe event beside the stand-in's probe not tested"
fi

# Review round 20 (N2): the probe tells the stand-in's calls from the
# others by the return address on top of the stack; a return hook put on
# security_path_mkdir after the stand-in loaded (a kretprobe event,
# bpftrace, the function graph tracer) replaced it with its trampoline,
# and the bad subvolume was made, unchecked and uncounted.  A caller so
# hidden is judged now.
if [ -w $tr/kprobe_events ]; then
	expect_status "r20 N2: insmod the stand-in" 0 insmod "$mods/bcachefs.ko"
	expect_status "r20 N2: kretprobe event on security_path_mkdir, after it" 0 \
		sh -c "echo 'r:r20_path_mkdir security_path_mkdir' >>$tr/kprobe_events &&
			echo 1 >$tr/events/kprobes/r20_path_mkdir/enable"
	for n2 in c0ae2e 61ff62; do
		expect_eq "r20 N2: under a kretprobe: subvolume $n2 refused" EILSEQ \
			"$("$gw" $subvolume "$(hex "$mnt/")$n2")"
		expect_eq "r20 N2: under a kretprobe: subvolume $n2 not made" ENOENT \
			"$("$fsop" stat $mnt $n2)"
	done
	expect_eq "r20 N2: under a kretprobe: a good subvolume made" ok \
		"$("$gw" $subvolume "$(hex "$mnt/")7232306b")"
	expect_eq "r20 N2: under a kretprobe: a mkdir of a good name" ok \
		"$("$fsop" mkdir $mnt 7232306d)"
	expect_eq "r20 N2: under a kretprobe: a mkdir of a bad name refused" EILSEQ \
		"$("$fsop" mkdir $mnt 7232306de9)"
	expect_status "r20 N2: kretprobe event removed" 0 \
		sh -c "echo 0 >$tr/events/kprobes/r20_path_mkdir/enable &&
			echo '-:r20_path_mkdir' >>$tr/kprobe_events"
	if grep -qw function_graph $tr/available_tracers 2>/dev/null; then
		expect_status "r20 N2: function graph tracer on security_path_mkdir" 0 \
			sh -c "echo security_path_mkdir >$tr/set_ftrace_filter &&
				echo function_graph >$tr/current_tracer"
		expect_eq "r20 N2: under the graph tracer: a bad subvolume refused" EILSEQ \
			"$("$gw" $subvolume "$(hex "$mnt/")72323067c0af")"
		expect_eq "r20 N2: under the graph tracer: a good subvolume made" ok \
			"$("$gw" $subvolume "$(hex "$mnt/")72323067")"
		expect_status "r20 N2: graph tracer off" 0 \
			sh -c "echo nop >$tr/current_tracer && echo >$tr/set_ftrace_filter"
	else
		echo "# no function_graph tracer here: not tested beside the stand-in's probe"
	fi
	expect_status "r20 N2: rmmod the stand-in" 0 rmmod bcachefs
else
	echo "# no kprobe events here: a return hook beside the stand-in's probe not tested"
fi
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_status "rmmod utf8guard" 0 rmmod utf8guard
umount $mnt
finish_tests
