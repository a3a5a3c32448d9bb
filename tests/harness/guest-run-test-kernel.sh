#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh on the TEST kernel (KUnit, KASAN, lockdep, kmemleak):
# the KUnit suites as modules, the filesystem hook suite, then the
# integration suite (which ends by locking, pinning utf8guard.ko until
# reboot), then the fs hook's checks under that lock.
set -u
. /utf8guard/vm-lib.sh
mods=/utf8guard/modules
status=0

# kunit.py needs a KTAP header for suites run from modules.
ktap_header 5
insmod $mods/utf8guard.ko || exit 1
for t in utf8guard_core_test utf8guard_policy_test utf8guard_sysfs_test utf8guard_chars_test utf8guard_vector_test; do
	insmod $mods/$t.ko || status=1
done
# Guest-side check too: every suite's results say ok.
for r in /sys/kernel/debug/kunit/utf8guard_*/results; do
	if grep -q '^not ok' "$r" || ! grep -q '^ok' "$r"; then
		echo "kunit suite failed: $r"
		status=1
	fi
done
for t in utf8guard_core_test utf8guard_policy_test utf8guard_sysfs_test utf8guard_chars_test utf8guard_vector_test; do
	rmmod $t || status=1
done
rmmod utf8guard || status=1

# KASAN, lockdep and kmemleak under TCG are ~20x slower than the stock
# kernel, which runs the full 16 x 10000 stress on tmpfs and on ext4 and
# an unthrottled load: here 16 x 2000 on tmpfs (88 s), 16 x 500 on ext4
# (45 s), and a load with a 1 ms pause per iteration (see
# fs_hook_test.sh).
FS_STRESS_ITER=2000 FS_STRESS_EXT4_ITER=500 FS_LOAD_PAUSE_US=1000 \
	sh /utf8guard/tools/fs_hook_test.sh $mods /utf8guard/tools || status=1
# Here 5 unload/load cycles under traffic paced at 64 datagrams per 50 ms,
# and 4 s for bytes that do not come (the stock kernel: 20 cycles under an
# unpaced flood, 1.5 s).
NF_CYCLES=5 NF_TIMEOUT_MS=4000 NF_FLOOD_PAUSE_US=50000 \
	sh /utf8guard/tools/nf_hook_test.sh $mods /utf8guard/tools || status=1
sh /utf8guard/tools/integration_test.sh $mods /utf8guard/tools || status=1
sh /utf8guard/tools/fs_hook_test.sh --after-lock $mods /utf8guard/tools || status=1
exit $status
