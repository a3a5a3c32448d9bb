#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fs_ocfs2_test.sh MODDIR TOOLDIR - utf8guard_fs.ko on ocfs2 reflinks, in
# a VM of a Debian kernel (ocfs2.ko is a module there).
#
# OCFS2_IOC_REFLINK makes its new name in ocfs2_reflink(), past every
# security_inode_*() hook, and needs no capability: utf8guard_fs.ko probes
# ocfs2_reflink() while ocfs2.ko is loaded (kernel/fs/module_probes.c).
# Checks, as root and as uid 1000: bad names are refused with EILSEQ,
# nothing appears, and each refusal is counted once in fs/stats/reflink;
# a good name is a reflink with the same contents.  Then audit mode, ocfs2
# loaded after utf8guard_fs.ko (probed by the module notifier) and
# utf8guard_fs.ko unloaded (probe gone, ocfs2 unaffected).
# Needs /utf8guard/ocfs2.img (an empty local-mount ocfs2 with refcount
# trees, vm-suite.sh).
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
mnt=/mnt/ocfs2
BAD="c0ae2e 61ff62 eda080"	# overlong "/.", an invalid byte, a surrogate
GOOD=636166c3a9			# "café"

setmode() { set_file $sys/mode "$1"; }
count() { cat "$fs/stats/reflink/$1"; }
# probe_state: ocfs2_reflink's kprobe (vm-lib.sh).
probe_state() { kprobe_state ocfs2_reflink; }
mount_ocfs2() {
	expect_status "mount ocfs2 ($1)" 0 \
		mount -t ocfs2 -o loop /utf8guard/ocfs2.img $mnt
}

mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
modprobe loop
expect_status "modprobe ocfs2" 0 modprobe ocfs2
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
expect_status "insmod utf8guard_fs.ko with ocfs2 loaded" 0 \
	insmod "$mods/utf8guard_fs.ko"
expect_eq "ocfs2_reflink probed at load" armed "$(probe_state)"
expect_eq "fs/unhooked with ocfs2 loaded" 0 "$(cat $fs/unhooked)"
setmode enforce
mkdir -p $mnt
mount_ocfs2 "probed at load"
mkdir $mnt/root $mnt/user
chown 1000:1000 $mnt/user

# reflink_all WHO DIR [--as-uid UID]: a reflink of a file to every bad
# name, then to a good one, in DIR.
reflink_all() {
	ra_who=$1
	ra_dir=$2
	shift 2
	expect_eq "$ra_who: file 'src' created" ok \
		"$("$fsop" "$@" create "$ra_dir" 737263)"
	expect_eq "$ra_who: file 'src' written" ok \
		"$("$fsop" "$@" write "$ra_dir" 737263 data)"
	for ra_bad in $BAD; do
		ra_before=$(listing "$ra_dir")
		ra_r0=$(count rejected)
		ra_c0=$(count checked)
		expect_eq "$ra_who: reflink to $ra_bad refused" EILSEQ \
			"$("$fsop" "$@" reflink "$ra_dir" 737263 $ra_bad)"
		expect_eq "$ra_who: reflink to $ra_bad created nothing" \
			"$ra_before" "$(listing "$ra_dir")"
		expect_eq "$ra_who: reflink to $ra_bad counted once" \
			"$((ra_r0 + 1)) $((ra_c0 + 1))" \
			"$(count rejected) $(count checked)"
	done
	expect_eq "$ra_who: reflink to a good name" ok \
		"$("$fsop" "$@" reflink "$ra_dir" 737263 $GOOD)"
	expect_eq "$ra_who: the reflink has the data" data \
		"$("$fsop" "$@" read "$ra_dir" $GOOD)"
}
reflink_all root $mnt/root
reflink_all "uid 1000" $mnt/user --as-uid 1000

# audit: allowed and counted.
setmode audit
a0=$(count audited)
expect_eq "audit: bad reflink allowed" ok "$("$fsop" reflink $mnt/root 737263 c0af)"
expect_eq "audit: counted" $((a0 + 1)) "$(count audited)"
setmode enforce

# ocfs2 unloaded: the probe goes with it; loaded again: probed by the
# notifier.
expect_status "umount ocfs2" 0 umount $mnt
expect_status "rmmod ocfs2" 0 rmmod ocfs2
expect_eq "ocfs2 unloaded: no probe" absent "$(probe_state)"
expect_status "modprobe ocfs2 after utf8guard_fs.ko" 0 modprobe ocfs2
expect_eq "ocfs2 loaded later: probed by the notifier" armed "$(probe_state)"
mount_ocfs2 "probed by the notifier"
expect_eq "notifier probe refuses" EILSEQ \
	"$("$fsop" reflink $mnt/root 737263 c0ae2e)"
expect_eq "fs/unhooked at the end" 0 "$(cat $fs/unhooked)"

# utf8guard_fs.ko unloaded: its probe goes; ocfs2 goes on working.
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_eq "utf8guard_fs unloaded: no probe" absent "$(probe_state)"
expect_eq "utf8guard_fs unloaded: ocfs2 unchecked" ok \
	"$("$fsop" reflink $mnt/root 737263 c0ae2e)"
expect_status "umount ocfs2" 0 umount $mnt
expect_status "rmmod ocfs2" 0 rmmod ocfs2
expect_status "rmmod utf8guard" 0 rmmod utf8guard
finish_tests
