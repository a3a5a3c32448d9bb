#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh of VM 2 on the TEST kernel (KASAN, lockdep, kmemleak),
# which runs beside VM 1 (guest-run-test-kernel.sh): the netfilter hook
# suite, its races, the TCP fuzzer's round, the audit records' suite, in
# check-long the fs hook's
# stress on ext4 (fs_hook_test.sh --stress-only): 16 x FS_STRESS_ITER from
# the kernel command line (vm-suite.sh: 10000 in check-long), then the
# overlayfs suite.
# Single-threaded TCG runs each VM on one host core, so two VMs side by
# side take the time of the longer one.
set -u
. /utf8guard/vm-lib.sh
echo "utf8guard-soak: FS_STRESS_ITER=${FS_STRESS_ITER:-10000} FS_STRESS_EXT4=${FS_STRESS_EXT4:-1}"
mods=/utf8guard/modules
status=0

# Here 3 unload/load cycles under traffic paced at 64 datagrams per 50 ms
# at nice 19, 4 s for bytes that do not come, and a stray flood of 20000
# segments (the stock kernels: NF_CYCLES from the kernel command line
# under an unpaced flood at nice 0, 1.5 s, 100000 strays).  At nice 0 the
# paced floods still took one cycle to 330 s when the host was busy.
NF_CYCLES=3 NF_TIMEOUT_MS=4000 NF_FLOOD_PAUSE_US=50000 NF_FLOOD_NICE=19 \
	NF_STRAY_FLOOD=20000 sh /utf8guard/tools/nf_hook_test.sh $mods /utf8guard/tools || status=1
timed nf
# The races, 100 tries a case: single-threaded TCG seldom races them, but
# KASAN and lockdep see their paths.
NF_RACE_COUNT=100 sh /utf8guard/tools/nf_race_test.sh $mods /utf8guard/tools || status=1
timed nf-race
# The TCP fuzzer's round, smaller: 60 sequences a family, 20 under pressure.
NF_FUZZ_COUNT=60 sh /utf8guard/tools/tcp_fuzz_test.sh $mods /utf8guard/tools || status=1
timed tcp-fuzz
# The audit records (CONFIG_AUDIT in the test kernel's config).
sh /utf8guard/tools/audit_test.sh $mods /utf8guard/tools || status=1
timed audit
# The fs stress on ext4 (320 s here) in check-long only (FS_STRESS_EXT4=0
# from the kernel command line in make check): VM 1 runs it on tmpfs, and
# the stock kernels on both.
if [ "${FS_STRESS_EXT4:-1}" = 1 ]; then
	FS_STRESS_ON=ext4 \
		sh /utf8guard/tools/fs_hook_test.sh --stress-only $mods /utf8guard/tools || status=1
	timed fs-stress-ext4
fi
# The overlayfs suite without its lease exhaustions (1100 tasks behind
# one copy-up, three times: over 30 minutes here); the stock kernels run
# them.  Its marks are NMI-safe: lockdep and KASAN see every overlay path.
OVL_EXHAUST=0 sh /utf8guard/tools/fs_overlay_test.sh $mods /utf8guard/tools || status=1
timed fs-overlay
exit $status
