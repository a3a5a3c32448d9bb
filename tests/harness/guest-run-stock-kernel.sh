#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh on a Debian kernel of the matrix: the filesystem hook
# suite with its btrfs, overlayfs, ocfs2, bcachefs, scope (fs/mounts) and
# exemption (fs/exempt) suites, the netfilter hook
# suite, the TCP fuzzer's round (NF_FUZZ_SEED from the kernel command
# line, if given), the audit records' suite, utf8guardctl's admin suite (the CLI
# and modules as make install put them), then the integration suite (which ends
# by locking, pinning utf8guard.ko until reboot), then the fs hook's checks
# under that lock.  After each, a line "utf8guard-suite: NAME exit STATUS"
# tells vm-suite.sh whose "N passed, N failed" line came just before;
# "utf8guard-kernel: RELEASE VERSION" which kernel ran them (PREEMPT_RT?).
# The soaks' lengths (FS_STRESS_ITER, FS_CYCLES, NF_CYCLES) come from the
# kernel command line, which passes them to /init's environment
# (vm-suite.sh: shortened in make check, full in make check-long).
set -u
. /utf8guard/vm-lib.sh
echo "utf8guard-soak: FS_STRESS_ITER=${FS_STRESS_ITER:-10000} FS_CYCLES=${FS_CYCLES:-50} NF_CYCLES=${NF_CYCLES:-20}"
mods=/utf8guard/modules
tools=/utf8guard/tools
status=0
echo "utf8guard-kernel: $(uname -r) $(uname -v)"
run() {
	name=$1
	shift
	sh "$@"
	rc=$?
	timed "$name"
	echo "utf8guard-suite: $name exit $rc"
	[ $rc -eq 0 ] || status=1
}
run fs $tools/fs_hook_test.sh $mods $tools
run fs-btrfs $tools/fs_btrfs_test.sh $mods $tools
run fs-overlay $tools/fs_overlay_test.sh $mods $tools
run fs-ocfs2 $tools/fs_ocfs2_test.sh $mods $tools
run fs-bcachefs $tools/fs_bcachefs_test.sh $mods $tools
run fs-held $tools/fs_lock_test.sh $mods $tools
run fs-scope $tools/fs_scope_test.sh $mods $tools
run fs-exempt $tools/fs_exempt_test.sh $mods $tools
run nf $tools/nf_hook_test.sh $mods $tools
run tcp-fuzz $tools/tcp_fuzz_test.sh $mods $tools
run audit $tools/audit_test.sh $mods $tools
run cli-admin $tools/cli_admin_test.sh $mods
run integration $tools/integration_test.sh $mods $tools
run fs-locked $tools/fs_hook_test.sh --after-lock $mods $tools
run fs-scope-locked $tools/fs_scope_test.sh --after-lock $mods $tools
run fs-exempt-locked $tools/fs_exempt_test.sh --after-lock $mods $tools
exit $status
