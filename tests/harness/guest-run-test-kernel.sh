#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh of VM 1 on the TEST kernel (KUnit, KASAN, lockdep,
# kmemleak): the KUnit suites as modules, the filesystem hook suite with
# the stress on tmpfs, its btrfs, ocfs2 and bcachefs suites, the held
# renames and links (fs_lock_test.sh), the per-filesystem policies
# (fs_scope_test.sh), the exemptions by cgroup (fs_exempt_test.sh),
# then the integration suite (which ends by locking, pinning utf8guard.ko
# until reboot), then the fs hook's checks under that lock.  VM 2 runs
# guest-run-test-kernel-2.sh at the same time.
set -u
. /utf8guard/vm-lib.sh
mods=/utf8guard/modules
status=0

# The KUnit suites (core/tests, kernel/tests, kernel/fs/tests), named once.
kunit_suites="utf8guard_core_test utf8guard_policy_test utf8guard_sysfs_test
	utf8guard_chars_test utf8guard_vector_test utf8guard_fs_marks_test"
# kunit.py needs a KTAP header for suites run from modules.
set -- $kunit_suites
ktap_header $#
insmod $mods/utf8guard.ko || exit 1
for t in $kunit_suites; do
	insmod $mods/$t.ko || status=1
done
# Guest-side check too: every suite's results say ok.
for r in /sys/kernel/debug/kunit/utf8guard_*/results; do
	if grep -q '^not ok' "$r" || ! grep -q '^ok' "$r"; then
		echo "kunit suite failed: $r"
		status=1
	fi
done
for t in $kunit_suites; do
	rmmod $t || status=1
done
rmmod utf8guard || status=1

# The stress, here on tmpfs only (16 x FS_STRESS_ITER: 1000 in make check,
# about 100 s; 10000 in check-long), then FS_CYCLES unload/load cycles (20;
# 50): both from the kernel command line (vm-suite.sh).  VM 2
# (guest-run-test-kernel-2.sh) runs the nf hook suite and the ext4 stress
# beside this one.  The load under which the module is unloaded and
# loaded pauses 1 ms per iteration (see fs_hook_test.sh): an unthrottled
# one starves the debug kernel's RCU kthreads on 2 emulated CPUs.
echo "utf8guard-soak: FS_STRESS_ITER=${FS_STRESS_ITER:-10000} FS_CYCLES=${FS_CYCLES:-50} FS_MATRIX_ON=${FS_MATRIX_ON:-all}"
timed kunit
FS_STRESS_ON=tmpfs FS_LOAD_PAUSE_US=1000 \
	sh /utf8guard/tools/fs_hook_test.sh $mods /utf8guard/tools || status=1
timed fs
# The filesystems with name paths of their own, as on the stock kernels;
# bcachefs through its stand-in (6.1 has no bcachefs.ko).  overlayfs runs
# in VM 2 (guest-run-test-kernel-2.sh), without its lease exhaustions.
for fs in btrfs ocfs2 bcachefs; do
	sh /utf8guard/tools/fs_${fs}_test.sh $mods /utf8guard/tools || status=1
	timed fs-$fs
done
# A rename or link held on its inode lock across a change of settings.
sh /utf8guard/tools/fs_lock_test.sh $mods /utf8guard/tools || status=1
timed fs-held
# fs/mounts: a policy per filesystem, its stress under KASAN.
sh /utf8guard/tools/fs_scope_test.sh $mods /utf8guard/tools || status=1
timed fs-scope
# fs/exempt: exemptions by cgroup, its stress under KASAN.
sh /utf8guard/tools/fs_exempt_test.sh $mods /utf8guard/tools || status=1
timed fs-exempt
sh /utf8guard/tools/integration_test.sh $mods /utf8guard/tools || status=1
timed integration
sh /utf8guard/tools/fs_hook_test.sh --after-lock $mods /utf8guard/tools || status=1
timed fs-locked
sh /utf8guard/tools/fs_scope_test.sh --after-lock $mods /utf8guard/tools || status=1
timed fs-scope-locked
sh /utf8guard/tools/fs_exempt_test.sh --after-lock $mods /utf8guard/tools || status=1
timed fs-exempt-locked
exit $status
