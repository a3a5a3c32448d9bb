#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of the filesystem hook utf8guard_fs.ko inside the VM (busybox sh, as
# root), on the stock and on the debug test kernel (issue 4, section 6):
# every name-creating operation with valid and ill-formed names on tmpfs,
# ext4 (loop image) and 9p (the ->atomic_open path) in enforce, audit and
# off; symlink targets; existing ill-formed names stay usable; enabled,
# fstypes and policy scoping; exact log lines of every operation; counters
# per operation and per reason; every sysfs write that must fail;
# privileges; module parameters; the refusal to load when a hooked
# function is missing; other ftrace users on the hooked functions (BPF
# trampolines, kprobe events, a livepatch come while mode off); unhooked;
# stress runs on tmpfs and on ext4 with the
# mode flipping; load/unload cycles under that load; a forced kprobe miss;
# kmemleak.  Ends with both modules unloaded, so that integration_test.sh
# can run next; that one ends by locking, and
#
#	fs_hook_test.sh --after-lock MODULE_DIR TOOL_DIR
#
# then checks utf8guard_fs.ko under the lock (it pins the modules until
# reboot).
#
#	fs_hook_test.sh --stress-only MODULE_DIR TOOL_DIR [STRESS_ITER]
#
# loads both modules, runs only the stress runs, unloads them and checks
# kmemleak: the debug kernel runs its slow ext4 stress that way in a second
# VM, beside the first one (tests/harness/guest-run-test-kernel-2.sh).
#
# usage: fs_hook_test.sh [--after-lock | --stress-only] MODULE_DIR TOOL_DIR
#        [STRESS_ITER]
# MODULE_DIR holds utf8guard.ko, utf8guard_fs.ko and the test modules
# utf8guard_fs_nosym.ko, utf8guard_fs_decoy.ko and utf8guard_miss_trigger.ko;
# TOOL_DIR holds fs_op, fs_stress, guest_write, bpfattach and sysfs-kernel-utf8guard-fs
# (the ABI file); the harness puts tests/lib/assert.sh and vm-lib.sh in /utf8guard/.
# STRESS_ITER (or the environment's FS_STRESS_ITER; default 10000) is the
# number of iterations of each of the 16 stress processes on tmpfs, the
# environment's FS_STRESS_EXT4_ITER (default: the same) on ext4;
# FS_STRESS_ON (default "tmpfs ext4") the filesystems the stress runs on,
# FS_MATRIX_ON (default: every one mounted) those the op matrix runs on.  The
# environment's FS_CYCLES (default 50) is the number of unload/load cycles
# under load; FS_LOAD_PAUSE_US (default 0) throttles that load (fs_stress's
# FS_STRESS_PAUSE_US): the debug kernel under emulation needs it, as a
# saturating load starves its RCU grace-period kthread (RCU stall reports,
# minutes per synchronize_rcu() in rmmod).  FS_FLIP_MAX_MS (default 50):
# the stress runs must flip the mode at least once per that many ms on
# average; FS_FLIP_WRITE_US (default 16384): half the mode writes must
# take at most that many us.
# Filesystems: a fresh tmpfs on /mnt/tmpfs, /utf8guard/ext4.img on
# /mnt/ext4, and the 9p share "utf8guard" on /mnt/9p.
set -u
after_lock=
stress_only=
case ${1:-} in
--after-lock)
	after_lock=1
	shift
	;;
--stress-only)
	stress_only=1
	shift
	;;
esac
mods=${1:?module dir}
tools=${2:?tool dir}
iters=${3:-${FS_STRESS_ITER:-10000}}
# shellcheck source=../lib/assert.sh
. /utf8guard/assert.sh
# shellcheck source=../vm/vm-lib.sh
. /utf8guard/vm-lib.sh
sys=/sys/kernel/utf8guard
fs=$sys/fs
fsop=$tools/fs_op
stress=$tools/fs_stress
gw=$tools/guest_write
abi=$tools/sysfs-kernel-utf8guard-fs

# w, hex, set_file, mark and log_since come from vm-lib.sh.
setmode() { set_file $sys/mode "$1"; }
fsstate() {
	printf '%s|%s|%s' "$(cat $fs/enabled)" "$(cat $fs/fstypes)" \
		"$(cat $fs/check_symlink_target)"
}
# field NAME TEXT: the value of NAME=value in fs_stress's output.
field() {
	for f_kv in $2; do
		case $f_kv in "$1"=*) echo "${f_kv#*=}" && return ;; esac
	done
	echo missing
}
us() { echo "$1" | tr - _; }

# --- names ----------------------------------------------------------------
GOOD=636166c3a9f09f9880			# "café" + U+1F600: valid UTF-8
SRC=737263				# "src", the source of link and rename
TARGET=2e2e2f746172676574		# "../target"
BADTARGET=2e2e2fc0ae2e2f657463		# "../\xc0\xae./etc": overlong at 3
BAD="c0ae2e c0af c080 eda080 e282"	# the pieces, a surrogate, truncated
# reason_of HEX: sets $why, the counter a bad name counts in.
reason_of() {
	case $1 in
	c0ae2e | c0af | c080 | 61c0ae62) why=overlong ;;
	eda080) why=surrogate ;;
	e282 | 2f746d702fe282) why=truncated ;;
	ff) why=invalid_byte ;;
	80) why=unexpected_continuation ;;
	f4908080) why=out_of_range ;;
	*) why=unknown-$1 ;;
	esac
}
OPS="create open-creat creat mknod-reg mknod-fifo mknod-chr mknod-blk
mknod-sock bind mkdir symlink link tmpfile-link rename rename-noreplace
rename-whiteout"
# io_uring's opcodes that create names (OPENAT with O_CREAT, MKDIRAT,
# SYMLINKAT, LINKAT, RENAMEAT), added to OPS where the kernel has io_uring.
URING_OPS="uring-create uring-mkdir uring-symlink uring-link uring-rename"
# counter_of OP: sets $cop, the stats/<op>/ directory (with _ for -).
counter_of() {
	case $1 in
	create | open-creat | creat | mknod-reg | uring-create) cop="create" ;;
	mkdir | uring-mkdir) cop="mkdir" ;;
	mknod-* | bind) cop="mknod" ;;
	symlink | uring-symlink) cop="symlink" ;;
	link | tmpfile-link | uring-link) cop="link" ;;
	rename* | uring-rename) cop="rename" ;;
	*) cop="unknown" ;;
	esac
}

# --- counters -------------------------------------------------------------
# Every fs counter and the global totals, in a fixed order.  snap VAR reads
# them all (shell builtins only) into $VAR; diffsnap sets $delta to the
# changes from $s0 to $s1 as "key+N ..."; want builds the same text from
# the checks an operation should make.
REASONS="truncated unexpected-continuation invalid-byte overlong surrogate out-of-range
control bidi ignorable noncharacter bom confusable-path not-nfc
empty-name dot-name slash nul name-too-long"
COUNTER_OPS="create mkdir mknod symlink symlink-target link rename subvol snapshot reflink"
KEYS=
FILES=
addkey() {
	KEYS="$KEYS $1"
	FILES="$FILES $2"
}
# exempted: fs/exempt is empty here, so never counted.
for k in checked rejected audited exempted; do addkey "$k" "$fs/stats/$k"; done
for r in $REASONS; do addkey "$(us "$r")" "$fs/stats/$r"; done
for o in $COUNTER_OPS; do
	for k in checked rejected audited exempted; do
		addkey "$(us "$o")_$k" "$fs/stats/$o/$k"
	done
done
for k in checked rejected audited; do addkey "g_$k" "$sys/stats/$k"; done

s='' s0='' s1='' wx=''
snap() {
	sn_s=
	for sn_f in $FILES; do
		sn_v=missing
		read -r sn_v 2>/dev/null <"$sn_f"
		sn_s="$sn_s$sn_v "
	done
	eval "$1=\$sn_s"
}
diffsnap() {
	delta=
	ds_a=$s0
	ds_b=$s1
	for ds_k in $KEYS; do
		ds_x=${ds_a%% *}
		ds_a=${ds_a#* }
		ds_y=${ds_b%% *}
		ds_b=${ds_b#* }
		[ "$ds_x" = "$ds_y" ] && continue
		case "$ds_x$ds_y" in
		*[!0-9]*) delta="$delta $ds_k:$ds_x->$ds_y" ;;
		*) delta="$delta $ds_k+$((ds_y - ds_x))" ;;
		esac
	done
	delta=${delta# }
}
# get KEY SNAP: one counter from a snapshot.
get() {
	g_rest=$2
	for g_k in $KEYS; do
		g_v=${g_rest%% *}
		g_rest=${g_rest#* }
		[ "$g_k" = "$1" ] && echo "$g_v" && return
	done
	echo missing
}
inc() { eval "$1=\$((\$$1 + 1))"; }
# want CHECK...: CHECK is OP:clean, OP:reject:REASON or OP:audit:REASON
# (OP and REASON with _ for -); sets $expect.
want() {
	for wk in $KEYS; do eval "w_$wk=0"; done
	for wc in "$@"; do
		wop=${wc%%:*}
		wrest=${wc#*:}
		wv=${wrest%%:*}
		wr=${wrest#*:}
		inc w_checked
		inc w_g_checked
		inc "w_${wop}_checked"
		case $wv in
		reject)
			inc w_rejected
			inc w_g_rejected
			inc "w_${wop}_rejected"
			inc "w_$wr"
			;;
		audit)
			inc w_audited
			inc w_g_audited
			inc "w_${wop}_audited"
			inc "w_$wr"
			;;
		esac
	done
	expect=
	for wk in $KEYS; do
		eval "wx=\$w_$wk"
		[ "$wx" = 0 ] || expect="$expect $wk+$wx"
	done
	expect=${expect# }
}
# run_counted NAME CHECKS -- COMMAND...: run a command, then compare the
# counter changes with `want CHECKS` (CHECKS: one word, comma-separated,
# or "" for none); the command's output is left in $out.
run_counted() {
	rc_name=$1
	rc_checks=$2
	shift 3
	snap s0
	out=$("$@" 2>&1)
	snap s1
	diffsnap
	rc_old=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split on commas on purpose
	set -- $rc_checks
	IFS=$rc_old
	want "$@"
	expect_eq "$rc_name: counters" "$expect" "$delta"
}

# identity CONTEXT: per op checked >= rejected + audited; the per-op counts
# sum to the totals; the reasons sum to rejected + audited.
identity() {
	snap s
	sum_c=0 sum_r=0 sum_a=0 sum_why=0 bad_ops=
	for o in $COUNTER_OPS; do
		ou=$(us "$o")
		ock=$(get "${ou}_checked" "$s")
		orj=$(get "${ou}_rejected" "$s")
		oa=$(get "${ou}_audited" "$s")
		[ "$ock" -ge $((orj + oa)) ] || bad_ops="$bad_ops $o"
		sum_c=$((sum_c + ock))
		sum_r=$((sum_r + orj))
		sum_a=$((sum_a + oa))
	done
	for r in $REASONS; do
		sum_why=$((sum_why + $(get "$(us "$r")" "$s")))
	done
	expect_eq "$1: per op, checked >= rejected + audited" "" "$bad_ops"
	expect_eq "$1: per-op checked sum to checked" "$(get checked "$s")" $sum_c
	expect_eq "$1: per-op rejected sum to rejected" "$(get rejected "$s")" $sum_r
	expect_eq "$1: per-op audited sum to audited" "$(get audited "$s")" $sum_a
	expect_eq "$1: reasons sum to rejected + audited" \
		$(($(get rejected "$s") + $(get audited "$s"))) $sum_why
}

# --- the stress runs (they run after the sysfs tests, see "stress") ---------------
# On each filesystem of FS_STRESS_ON (default: tmpfs and ext4), each with its
# own counters.  fs_stress's flipper writes the mode on a 1 ms grid; under
# TCG, with 16 busy workers on 2 emulated CPUs, it gets one flip per 4 to
# 10 ms on an idle host (measured: 184-277 per s on Debian's 6.1, 95 on
# ext4 on the debug kernel; Debian's HZ is 250), but guest time is the
# host's wall time: with three VMs on a 2-core host the debug kernel got
# 79 per s.  So the rate floor, one flip per
# FS_FLIP_MAX_MS ms over the run (default 50: 20 per s), only catches a
# starved or stalled flipper; what a mode write that waits for something
# (an RCU grace period takes tens of ms here) would show is the time the
# writes took: half of them must take at most FS_FLIP_WRITE_US us
# (default 16384, a power of 2 as fs_stress's histogram has them; on the
# debug kernel half took 1 to 2 ms alone with 16 busy workers beside it,
# lockdep and KASAN on every lock of the store, and 4 ms with five VMs on
# the 2-core host; a write that waits for an RCU grace period would take
# tens of ms alone, and longer on a busy host).  Not
# the average: a write now and then flushes the serial console's backlog
# of refusal lines, up to 0.9 s, which took the average to 2 ms.
flip_max_ms=${FS_FLIP_MAX_MS:-50}
flip_write_us=${FS_FLIP_WRITE_US:-16384}
# check_flips LABEL OUTPUT: fs_stress's flips worked, at that rate, each
# write quick.
check_flips() {
	cf_n=$(field flips "$2")
	cf_ms=$(field ms "$2")
	cf_p50=$(field write_us_p50 "$2")
	expect_eq "$1: mode flips all worked" 0 "$(field flip_errors "$2")"
	echo "# $1: $cf_n flips in $cf_ms ms: $((cf_n * 1000 / (cf_ms ? cf_ms : 1))) per s (the floor: $((1000 / flip_max_ms)) per s); writes: half in $cf_p50 us or less, $(($(field write_us "$2") / (cf_n ? cf_n : 1))) us on average, $(field write_us_max "$2") us at most"
	if [ "$cf_ms" -gt 0 ] 2>/dev/null && [ $((cf_n * flip_max_ms)) -ge "$cf_ms" ]; then
		pass "$1: at least one flip per $flip_max_ms ms"
	else
		fail "$1: at least one flip per $flip_max_ms ms" "$cf_n flips in $cf_ms ms"
	fi
	if [ "$cf_n" -gt 0 ] 2>/dev/null && [ "$cf_p50" -le "$flip_write_us" ] 2>/dev/null; then
		pass "$1: half the mode writes take $flip_write_us us or less"
	else
		fail "$1: half the mode writes take $flip_write_us us or less" \
			"$cf_n writes, half in $cf_p50 us or less"
	fi
}
dk() { echo $(($(get "$1" "$s1") - $(get "$1" "$s0"))); }
# stress_run FSTYPE DIR ITER: 16 x ITER creates of a good and a bad name in
# DIR with the mode flipping, fs/fstypes set to FSTYPE alone (the test's
# own files elsewhere do not count); every counter must add up.
stress_run() {
	st_fs=$1
	st=$2
	st_iter=$3
	l="stress on $st_fs"	# the label of every check
	set_file $fs/fstypes "$st_fs"
	setmode enforce
	mkdir -p "$st"
	# Every flip logs a mode change (pr_notice): keep those off the slow
	# serial console; warnings and worse still reach it.
	printk=$(cat /proc/sys/kernel/printk)
	echo 5 >/proc/sys/kernel/printk
	: >/tmp/stress.err	# created now: an O_CREAT would count below
	snap s0
	out=$("$stress" "$st" 16 "$st_iter" --flip $sys/mode 2>/tmp/stress.err)
	status=$?
	snap s1
	setmode enforce
	echo "$printk" >/proc/sys/kernel/printk
	echo "# stress: 16 x $st_iter on $st_fs: $out"
	expect_eq "$l: ran" 0 "$status"
	expect_eq "$l: no unexpected error" "" "$(cat /tmp/stress.err)"
	att=$((16 * st_iter))
	ref=$(field bad_refused "$out")
	cre=$(field bad_created "$out")
	mkd=$(field mkdirs "$out")
	expect_eq "$l: every valid create worked" "$att 0" \
		"$(field good_ok "$out") $(field good_failed "$out")"
	expect_eq "$l: no other errors" 0 "$(field other_errors "$out")"
	check_flips "$l" "$out"
	expect_eq "$l: every bad create refused or created" $att $((ref + cre))
	expect_match "$l: some refused (enforce)" '^[1-9]' "$ref"
	expect_match "$l: some created (audit)" '^[1-9]' "$cre"
	expect_eq "$l: rejected = bad_refused" "$ref" "$(dk rejected)"
	expect_eq "$l: audited = bad_created" "$cre" "$(dk audited)"
	expect_eq "$l: overlong = bad attempts" "$att" "$(dk overlong)"
	expect_eq "$l: create checked = all creates" $((2 * att)) "$(dk create_checked)"
	expect_eq "$l: create rejected" "$ref" "$(dk create_rejected)"
	expect_eq "$l: create audited" "$cre" "$(dk create_audited)"
	expect_eq "$l: mkdir checked = its mkdirs" "$mkd" "$(dk mkdir_checked)"
	expect_eq "$l: checked = all checks" $((2 * att + mkd)) "$(dk checked)"
	expect_eq "$l: global checked" $((2 * att + mkd)) "$(dk g_checked)"
	expect_eq "$l: global rejected" "$ref" "$(dk g_rejected)"
	expect_eq "$l: global audited" "$cre" "$(dk g_audited)"
	expect_eq "$l: missed 0" 0 "$(cat $fs/missed)"
	expect_eq "$l: nothing left behind" "" "$("$fsop" readdir "$st")"
	identity "after the $l"
	set_file $fs/fstypes '*'
}
# stress_all: stress_run on every filesystem of FS_STRESS_ON that is mounted.
stress_all() {
	for sa_fs in ${FS_STRESS_ON:-tmpfs ext4}; do
		case $sa_fs in
		tmpfs) sa_iter=$iters ;;
		ext4) sa_iter=${FS_STRESS_EXT4_ITER:-$iters} ;;
		*)
			fail "FS_STRESS_ON: $sa_fs" "only tmpfs and ext4 are mounted here"
			continue
			;;
		esac
		if [ -d "/mnt/$sa_fs/t" ]; then
			stress_run "$sa_fs" "/mnt/$sa_fs/stress" "$sa_iter"
		else
			fail "stress on $sa_fs" "/mnt/$sa_fs is not mounted"
		fi
	done
}

# --- under the lock (run after integration_test.sh has locked) --------------
if [ -n "$after_lock" ]; then
	expect_eq "utf8guard.ko is loaded and locked" 1 "$(cat $sys/locked 2>&1)"
	expect_eq "mode enforce" "off audit [enforce]" "$(cat $sys/mode 2>&1)"
	# An exemption given at load, for fs_exempt_test.sh --after-lock:
	# exemptions end at the lock (review round 18).
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup
	mkdir -p /sys/fs/cgroup/locked-exempt
	expect_status "insmod utf8guard_fs.ko while locked" 0 \
		insmod "$mods/utf8guard_fs.ko" exempt=/locked-exempt
	before=$(fsstate)
	expect_eq "locked: default state" "1|*|1" "$before"
	expect_eq "locked: enabled write refused" EPERM "$(w $fs/enabled "$(hex 0)")"
	expect_eq "locked: fstypes write refused" EPERM "$(w $fs/fstypes "$(hex ext4)")"
	expect_eq "locked: check_symlink_target write refused" EPERM \
		"$(w $fs/check_symlink_target "$(hex 0)")"
	expect_eq "locked: without CAP_SYS_ADMIN still EPERM" EPERM \
		"$("$gw" --no-cap-sys-admin $fs/enabled "$(hex 0)" 2>&1)"
	expect_eq "locked: state unchanged" "$before" "$(fsstate)"
	expect_failure "locked: rmmod utf8guard_fs refused" rmmod utf8guard_fs
	expect_eq "locked: module still there" "$before" "$(fsstate)"
	d=/tmp/fs-locked
	mkdir -p $d
	run_counted "locked: bad names refused" mkdir:reject:overlong -- \
		"$fsop" mkdir $d c0af
	expect_eq "locked: bad names refused" EILSEQ "$out"
	expect_eq "locked: nothing created" "" "$("$fsop" readdir $d)"
	run_counted "locked: valid names allowed" create:clean -- \
		"$fsop" create $d $GOOD
	expect_eq "locked: valid names allowed" ok "$out"
	expect_eq "locked: stats/reset still allowed" ok \
		"$(w $fs/stats/reset "$(hex 1)")"
	expect_eq "locked: counters reset" 0 "$(cat $fs/stats/checked)"
	expect_eq "locked: unhooked 0" 0 "$(cat $fs/unhooked)"
	expect_eq "locked: missed 0" 0 "$(cat $fs/missed)"
	finish_tests
	exit
fi
kmemleak_reset

# --- filesystems ----------------------------------------------------------
# Stock kernel: modules; test kernel: built in (modprobe fails, ignored).
for m in loop ext4 virtio_pci 9pnet_virtio 9p; do
	modprobe "$m" 2>/dev/null || true
done
fslist=
mkdir -p /mnt/tmpfs /mnt/ext4 /mnt/9p
if mount -t tmpfs tmpfs /mnt/tmpfs; then
	pass "mount tmpfs"
	fslist="$fslist tmpfs:/mnt/tmpfs"
else
	fail "mount tmpfs"
fi
if grep -qw ext4 /proc/filesystems &&
	mount -t ext4 -o loop /utf8guard/ext4.img /mnt/ext4; then
	pass "mount ext4 loop image"
	fslist="$fslist ext4:/mnt/ext4"
else
	fail "mount ext4 loop image" "$(grep -w ext4 /proc/filesystems)"
fi
# The 9p mount hung twice under TCG (before the test kernel had MSI): it
# runs in the background, and after 120 s the suite goes on without 9p,
# fails this check and shows where the mount waits.
mount_9p() {
	grep -qw 9p /proc/filesystems || return 1
	mount -t 9p -o trans=virtio,version=9p2000.L utf8guard /mnt/9p &
	m9_pid=$!
	m9_waited=0
	while [ -d /proc/$m9_pid ] && [ $m9_waited -lt 120 ]; do
		sleep 1
		m9_waited=$((m9_waited + 1))
	done
	if [ -d /proc/$m9_pid ]; then
		m9_why="hung for 120 s; its kernel stack:
$(cat /proc/$m9_pid/stack 2>&1)"
		return 1
	fi
	wait $m9_pid
}
m9_why=
# io_uring: every kernel of the matrix has it, the debug kernel too.
uring_probe=$("$fsop" uring-mkdir /mnt/tmpfs 7572696e67 2>&1)
case $uring_probe in
ok)
	pass "io_uring available: its opcodes join the matrix"
	OPS="$OPS $URING_OPS"
	rmdir /mnt/tmpfs/uring
	;;
*) fail "io_uring probe" "got: $uring_probe" ;;
esac
if [ -n "$stress_only" ]; then
	: # the stress runs on tmpfs and ext4 only
elif mount_9p; then
	pass "mount 9p"
	fslist="$fslist 9p:/mnt/9p"
else
	fail "mount 9p" "${m9_why:-$(grep -w 9p /proc/filesystems)}"
fi
for spec in $fslist; do
	mkdir -p "${spec#*:}/t"
done

# --- load -------------------------------------------------------------------
[ -d $sys ] && { rmmod utf8guard_fs 2>/dev/null; rmmod utf8guard 2>/dev/null; }
expect_failure "utf8guard_fs.ko does not load without utf8guard.ko" \
	insmod "$mods/utf8guard_fs.ko"
expect_status "insmod utf8guard.ko" 0 insmod "$mods/utf8guard.ko"
mark
expect_status "insmod utf8guard_fs.ko" 0 insmod "$mods/utf8guard_fs.ko"
# The contract's line; the module puts its version before "hooked".
expect_match "load logged" \
	'utf8guard_fs: ([0-9]+\.[0-9]+\.[0-9]+ )?hooked create mkdir mknod symlink link rename( |$)' \
	"$(log_since)"
expect_failure "utf8guard.ko pinned while utf8guard_fs.ko uses it" rmmod utf8guard
expect_eq "mode enforce after load" "off audit [enforce]" "$(cat $sys/mode)"

# The files: exactly those the contract lists and the ABI file documents.
contract="enabled fstypes check_symlink_target mounts exempt mounts_gone missed unhooked
stats/checked stats/rejected stats/audited stats/exempted stats/reset"
for r in $REASONS; do contract="$contract stats/$r"; done
for o in $COUNTER_OPS; do
	for k in checked rejected audited exempted; do contract="$contract stats/$o/$k"; done
done
contract=$(for f in $contract; do echo "$fs/$f"; done | sort | tr '\n' ' ')
present=$(find $fs -type f | sort | tr '\n' ' ')
expect_eq "sysfs files are the contract's" "$contract" "$present"
documented=$(sed -n 's|^What:[[:space:]]*||p' "$abi" | sort | tr '\n' ' ')
expect_eq "sysfs files match the ABI file" "$documented" "$present"
expect_eq "default enabled" 1 "$(cat $fs/enabled)"
expect_eq "default fstypes" "*" "$(cat $fs/fstypes)"
expect_eq "default check_symlink_target" 1 "$(cat $fs/check_symlink_target)"
expect_eq "missed 0 after load" 0 "$(cat $fs/missed)"
expect_eq "unhooked 0 after load" 0 "$(cat $fs/unhooked)"
# nonzero_counters: every fs/stats counter that is not 0, as FILE=VALUE.
nonzero_counters() {
	find $fs/stats -type f ! -name reset | sort | while read -r nz_f; do
		read -r nz_v <"$nz_f"
		[ "$nz_v" = 0 ] || printf '%s=%s ' "$nz_f" "$nz_v"
	done
}
expect_eq "every counter 0 after load" "" "$(nonzero_counters)"
for f in enabled:-rw-r--r-- fstypes:-rw-r--r-- check_symlink_target:-rw-r--r-- \
	missed:-r--r--r-- unhooked:-r--r--r-- stats/checked:-r--r--r-- \
	stats/overlong:-r--r--r-- stats/rename/audited:-r--r--r-- \
	stats/reset:--w-------; do
	# shellcheck disable=SC2012 # busybox stat has no portable format
	expect_eq "file mode of ${f%%:*}" "${f#*:}" \
		"$(ls -l "$fs/${f%%:*}" | cut -c1-10)"
done

if [ -n "$stress_only" ]; then
	stress_all
	expect_eq "after the stress: unhooked 0" 0 "$(cat $fs/unhooked)"
	expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
	expect_status "rmmod utf8guard" 0 rmmod utf8guard
	kmemleak_check
	finish_tests
	exit
fi

# --- log lines (first: the log is rate-limited) -----------------------------
d=/mnt/tmpfs/t/log
mkdir -p $d
mark
"$fsop" mkdir $d c0ae2e >/tmp/fs_op.out &
pid=$!
wait $pid
expect_eq "enforce: mkdir c0ae2e refused" EILSEQ "$(cat /tmp/fs_op.out)"
expect_match "refusal log line" \
	"\] utf8guard: refused mkdir from \"fs_op\"\[$pid\]: overlong at offset 0: \[c0\] ae 2e \(path trick\)\$" \
	"$(log_since)"
setmode audit
mark
"$fsop" mkdir $d 61c0af62 >/tmp/fs_op.out &
pid=$!
wait $pid
expect_eq "audit: mkdir 61c0af62 allowed" ok "$(cat /tmp/fs_op.out)"
expect_match "audit log line" \
	"\] utf8guard: audit: would refuse mkdir from \"fs_op\"\[$pid\]: overlong at offset 1: 61 \[c0\] af 62 \(path trick\)\$" \
	"$(log_since)"
# Every other operation's line, in audit: with the two above, 10 lines,
# the burst of pr_warn_ratelimited() (10 in 5 s).
# audit_line OP REPORT FS_OP ARG...: fs_op allowed, and exactly the line
# "audit: would refuse OP from ...: REPORT" (a regular expression) logged.
al=$d/ops
mkdir -p $al
: >$al/src
audit_line() {
	al_op=$1
	al_report=$2
	shift 2
	mark
	"$fsop" "$@" >/tmp/fs_op.out &
	al_pid=$!
	wait $al_pid
	expect_eq "audit: $1 allowed" ok "$(cat /tmp/fs_op.out)"
	expect_match "audit log line of $1" \
		"\] utf8guard: audit: would refuse $al_op from \"fs_op\"\[$al_pid\]: $al_report\$" \
		"$(log_since)"
}
audit_line create 'truncated at offset 1: 61 \[e2 82\]' create $al 61e282
audit_line mknod 'overlong at offset 0: \[c0\] 80 \(path trick\)' \
	mknod-chr $al c080
audit_line mknod 'invalid-byte at offset 0: \[ff\]' mknod-fifo $al ff
audit_line mknod 'unexpected-continuation at offset 0: \[80\]' bind $al 80
audit_line symlink 'surrogate at offset 0: \[ed\] a0 80' \
	symlink $al eda080 2e2e2fc0ae2e2f657463
expect_match "audit log line of symlink: the target too" \
	"\] utf8guard: audit: would refuse symlink-target from \"fs_op\"\[$al_pid\]: overlong at offset 3: 2e 2e 2f \[c0\] ae 2e 2f 65 \(path trick\)\$" \
	"$(log_since)"
audit_line link 'out-of-range at offset 0: \[f4\] 90 80 80' \
	link $al $SRC f4908080
audit_line rename 'overlong at offset 0: \[c0\] af \(path trick\)' \
	rename $al $SRC c0af
expect_no_match "audit: no line suppressed" 'callbacks suppressed' "$(dmesg)"
setmode off
mark
"$fsop" mkdir $d e282 >/tmp/fs_op.out
expect_eq "off: mkdir e282 allowed" ok "$(cat /tmp/fs_op.out)"
expect_no_match "off: nothing logged" 'refuse' "$(log_since)"
setmode enforce
expect_no_match "log lines hold no raw invalid bytes" \
	"$(printf '[\200-\377]')" "$(dmesg)"

# --- every operation, every name, every mode --------------------------------
# attempt OP NAMEHEX [TARGETHEX]: fs_op OP in a fresh directory $d, with
# the file "src" first for link and rename; sets $out (fs_op's output),
# $delta (counter changes), $pre (the listing before) and $ls (after).
n=0
attempt() {
	a_op=$1
	a_name=$2
	n=$((n + 1))
	d=$base/c$n
	mkdir "$d" || fail "setup: mkdir $d"
	pre=
	case $a_op in
	link | rename* | uring-link | uring-rename)
		: >"$d/src"
		pre=$SRC
		;;
	esac
	case $a_op in
	symlink | uring-symlink) set -- "$a_op" "$d" "$a_name" "${3:-$TARGET}" ;;
	link | rename* | uring-link | uring-rename) set -- "$a_op" "$d" "$SRC" "$a_name" ;;
	*) set -- "$a_op" "$d" "$a_name" ;;
	esac
	snap s0
	out=$("$fsop" "$@" 2>&1)
	snap s1
	ls=$("$fsop" readdir "$d" 2>&1)
	diffsnap
}
# created: the listing after a successful attempt of $a_op with $a_name.
created() {
	case $a_op in
	link | rename-whiteout | uring-link) printf '%s\n' "$SRC" "$a_name" | sort ;;
	*) echo "$a_name" ;;
	esac
}
# checks_of VERDICT REASON: the checks $a_op makes (symlink: the target,
# $TARGET, is clean and only checked if the name passed).
checks_of() {
	counter_of "$a_op"
	case $1 in
	clean) co_c="$cop:clean" ;;
	*) co_c="$cop:$1:${2:-}" ;;
	esac
	if [ "$cop" = symlink ] && [ "$1" != reject ]; then
		co_c="$co_c symlink_target:clean"
	fi
	# shellcheck disable=SC2086 # one word per check
	want $co_c
}
unsupported=
is_unsupported() {
	case " $unsupported " in *" $1 "*) return 0 ;; esac
	return 1
}

# expect_allowed LABEL VERDICT REASON: the attempt succeeded and created
# its name, with these counter changes (VERDICT "none": not checked).
expect_allowed() {
	expect_eq "$1: allowed" ok "$out"
	expect_eq "$1: created" "$(created)" "$ls"
	if [ "$2" = none ]; then
		expect=
	else
		checks_of "$2" "${3:-}"
	fi
	expect_eq "$1: counters" "$expect" "$delta"
}
expect_refused() {	# LABEL REASON
	expect_eq "$1: refused" EILSEQ "$out"
	expect_eq "$1: nothing created" "$pre" "$ls"
	checks_of reject "$2"
	expect_eq "$1: counters" "$expect" "$delta"
}

matrix() {	# FSTYPE
	mx=$1
	unsupported=
	setmode enforce
	for op in $OPS; do
		attempt "$op" $GOOD
		if [ "$mx" = 9p ] && [ "$out" != ok ]; then
			case $op in
			create | open-creat | creat | mkdir | uring-create | uring-mkdir) ;;
			*)
				echo "# 9p: $op of a valid name gives $out: only checking that bad names create nothing"
				unsupported="$unsupported $op"
				for b in $BAD; do
					attempt "$op" "$b"
					expect_no_match "$mx $op $b fails" '^ok$' "$out"
					expect_eq "$mx $op $b: nothing created" "$pre" "$ls"
				done
				continue
				;;
			esac
		fi
		expect_allowed "$mx enforce $op valid name" clean
		for b in $BAD; do
			reason_of "$b"
			attempt "$op" "$b"
			expect_refused "$mx enforce $op $b" "$why"
		done
	done
	# The other reasons, once each.
	for b in ff 80 f4908080; do
		reason_of "$b"
		attempt mkdir "$b"
		expect_refused "$mx enforce mkdir $b" "$why"
	done

	# audit: allowed, counted, each op with two of the bad names.
	setmode audit
	i=0
	for op in $OPS; do
		is_unsupported "$op" && continue
		i=$((i + 1))
		attempt "$op" $GOOD
		expect_allowed "$mx audit $op valid name" clean
		case $((i % 5)) in
		0) b1=c0ae2e b2=eda080 ;;
		1) b1=c0af b2=e282 ;;
		2) b1=c080 b2=c0ae2e ;;
		3) b1=eda080 b2=c0af ;;
		*) b1=e282 b2=c080 ;;
		esac
		for b in $b1 $b2; do
			reason_of "$b"
			attempt "$op" "$b"
			expect_allowed "$mx audit $op $b" audit "$why"
		done
	done

	# off: allowed, nothing counted.
	setmode off
	i=0
	for op in $OPS; do
		is_unsupported "$op" && continue
		i=$((i + 1))
		case $((i % 5)) in
		0) b=c0ae2e ;;
		1) b=c0af ;;
		2) b=c080 ;;
		3) b=eda080 ;;
		*) b=e282 ;;
		esac
		attempt "$op" "$b"
		expect_allowed "$mx off $op $b" none
	done
	setmode enforce
}

# Symlink targets: the whole target string is checked when
# check_symlink_target is 1; a refused link name stops before the target.
symlink_targets() {	# FSTYPE
	mx=$1
	if is_unsupported symlink; then
		echo "# $mx: no symlinks, target checks skipped"
		return
	fi
	setmode enforce
	attempt symlink $GOOD $BADTARGET
	expect_eq "$mx enforce symlink to $BADTARGET: refused" EILSEQ "$out"
	expect_eq "$mx enforce symlink to $BADTARGET: nothing created" "" "$ls"
	want symlink:clean symlink_target:reject:overlong
	expect_eq "$mx enforce symlink to $BADTARGET: counters" "$expect" "$delta"
	for t in eda080 2f746d702fe282; do
		reason_of $t
		attempt symlink $GOOD $t
		expect_eq "$mx enforce symlink to $t: refused" EILSEQ "$out"
		want symlink:clean "symlink_target:reject:$why"
		expect_eq "$mx enforce symlink to $t: counters" "$expect" "$delta"
	done
	attempt symlink c0af $BADTARGET
	expect_eq "$mx enforce bad symlink name and target: refused" EILSEQ "$out"
	want symlink:reject:overlong
	expect_eq "$mx enforce bad name and target: target not checked" "$expect" "$delta"
	setmode audit
	attempt symlink $GOOD $BADTARGET
	expect_eq "$mx audit symlink to $BADTARGET: allowed" ok "$out"
	expect_eq "$mx audit symlink: target kept" $BADTARGET \
		"$("$fsop" readlink "$d" $GOOD)"
	want symlink:clean symlink_target:audit:overlong
	expect_eq "$mx audit symlink to $BADTARGET: counters" "$expect" "$delta"
	attempt symlink eda080 $BADTARGET
	expect_eq "$mx audit bad symlink name and target: allowed" ok "$out"
	want symlink:audit:surrogate symlink_target:audit:overlong
	expect_eq "$mx audit bad name and target: both counted" "$expect" "$delta"
	setmode enforce
	set_file $fs/check_symlink_target 0
	attempt symlink $GOOD $BADTARGET
	expect_eq "$mx check_symlink_target=0: bad target allowed" ok "$out"
	want symlink:clean
	expect_eq "$mx check_symlink_target=0: target not counted" "$expect" "$delta"
	attempt symlink c0ae2e $TARGET
	expect_eq "$mx check_symlink_target=0: bad name still refused" EILSEQ "$out"
	set_file $fs/check_symlink_target 1
}

# Names created while the mode was off stay usable under enforce; none of
# these operations is checked, except link and rename to a new valid name.
existing() {	# FSTYPE
	mx=$1
	e=$base/existing
	mkdir "$e"
	setmode off
	for spec in create:c0ae2e mkdir:c0af create:eda080 mkdir:e282 \
		create:c080 create:80 create:ff create:$GOOD; do
		expect_eq "$mx off: ${spec%%:*} ${spec#*:}" ok \
			"$("$fsop" "${spec%%:*}" "$e" "${spec#*:}")"
	done
	setmode enforce
	all=$(printf '%s\n' c0ae2e c0af eda080 e282 c080 80 ff $GOOD | sort)
	# tmpfs and ext4 have no ->atomic_open: open(O_CREAT) of an existing
	# name never reaches security_inode_create there.  On 9p it does
	# (the dentry is negative until the server is asked), see below.
	if [ "$mx" = 9p ]; then oc=unknown; else oc=""; fi
	if [ "$mx" = 9p ]; then
		# renameat2 flags: probe on two valid names first.
		mkdir "$base/xprobe"
		"$fsop" create "$base/xprobe" 61 >/dev/null
		"$fsop" create "$base/xprobe" 62 >/dev/null
		got=$("$fsop" rename-exchange "$base/xprobe" 61 62)
		if [ "$got" != ok ]; then
			echo "# 9p: rename-exchange of valid names gives $got: skipped"
			unsupported="$unsupported rename-exchange"
		fi
	fi
	for t in \
		"readdir lists them::$all:readdir" \
		"stat::ok:stat c0ae2e" \
		"open file::ok:open c0ae2e" \
		"open dir::ok:open c0af" \
		"write::ok:write c0ae2e hello" \
		"read::hello:read c0ae2e" \
		"open O_CREAT::ok:open-creat c0ae2e" \
		"creat (truncates)::ok:creat eda080" \
		"open O_CREAT|O_EXCL::EEXIST:create c0ae2e" \
		"mkdir::EEXIST:mkdir c0af" \
		"mknod fifo::EEXIST:mknod-fifo c0ae2e" \
		"symlink name::EEXIST:symlink c0ae2e $TARGET" \
		"link onto it::EEXIST:link $GOOD c0ae2e" \
		"rename-noreplace onto it::EEXIST:rename-noreplace $GOOD c0ae2e" \
		"link to a valid name:link_clean:ok:link c0ae2e 6c696e6b" \
		"read through the link::hello:read 6c696e6b" \
		"rename to a valid name:rename_clean:ok:rename c0ae2e 72656e616d6564" \
		"read renamed::hello:read 72656e616d6564" \
		"old name gone::ENOENT:stat c0ae2e" \
		"rename a valid name onto it::ok:rename $GOOD 80" \
		"rename an invalid name onto another::ok:rename ff eda080" \
		"RENAME_EXCHANGE valid and invalid::ok:rename-exchange 6c696e6b c0af" \
		"RENAME_EXCHANGE back::ok:rename-exchange 6c696e6b c0af" \
		"rename dir to a valid name:rename_clean:ok:rename c0af 646972" \
		"unlink::ok:unlink c080" \
		"rmdir::ok:rmdir e282" \
		"readdir after::$(printf '%s\n' 646972 6c696e6b 72656e616d6564 80 eda080 | sort):readdir"; do
		t_label=${t%%:*}
		t=${t#*:}
		t_checks=${t%%:*}
		t=${t#*:}
		t_cmd=${t##*:}
		t_want=${t%:*}
		t_checks=$(echo "$t_checks" | tr _ :)
		case $t_cmd in
		open-creat\ * | create\ * | creat\ *)
			[ "$oc" = unknown ] && t_checks=unknown
			;;
		esac
		# shellcheck disable=SC2086 # the words of the command
		set -- $t_cmd
		t_op=$1
		shift
		if is_unsupported "$t_op"; then
			echo "# $mx: $t_label skipped ($t_op not supported)"
			continue
		fi
		snap s0
		out=$("$fsop" "$t_op" "$e" "$@" 2>&1)
		snap s1
		diffsnap
		expect_eq "$mx enforce existing: $t_label" "$t_want" "$out"
		if [ "$t_checks" = unknown ]; then
			echo "# $mx: $t_label of an existing invalid name changed the counters by: ${delta:-nothing}"
			continue
		fi
		# shellcheck disable=SC2086 # empty or one check
		want $t_checks
		expect_eq "$mx enforce existing: $t_label: counters" "$expect" "$delta"
	done
	expect_eq "$mx: new valid names in enforce still allowed" ok \
		"$("$fsop" mkdir "$e" $GOOD)"
	# lookup_open() calls security_inode_create() before the lookup when
	# the name is not in the dcache: the open works (O_CREAT is dropped,
	# the file is found), the counters may say otherwise.
	if [ "$mx" != tmpfs ]; then
		sync
		echo 2 >/proc/sys/vm/drop_caches
		snap s0
		out=$("$fsop" open-creat "$e" eda080 2>&1)
		snap s1
		diffsnap
		expect_eq "$mx: open O_CREAT of an existing invalid name, dcache dropped" \
			ok "$out"
		echo "# $mx: that open changed the counters by: ${delta:-nothing}"
	fi
}

for spec in $fslist; do
	fst=${spec%%:*}
	base=${spec#*:}/t
	case " ${FS_MATRIX_ON:-$fst} " in
	*" $fst "*) matrix "$fst" ;;
	*) echo "# $fst: op matrix not run (FS_MATRIX_ON=$FS_MATRIX_ON)" ;;
	esac
	symlink_targets "$fst"
	existing "$fst"
done

# --- enabled, fstypes, policy -------------------------------------------------
sc=/mnt/tmpfs/t/scope
mkdir -p $sc
expect_eq "tmpfs enforce: refused" EILSEQ "$("$fsop" mkdir $sc c0ae2e)"
set_file $fs/enabled 0
run_counted "enabled=0: tmpfs" "" -- "$fsop" mkdir $sc c0ae2e
expect_eq "enabled=0: bad name allowed on tmpfs" ok "$out"
if [ -d /mnt/ext4/t ]; then
	mkdir -p /mnt/ext4/t/scope
	run_counted "enabled=0: ext4" "" -- "$fsop" create /mnt/ext4/t/scope eda080
	expect_eq "enabled=0: bad name allowed on ext4" ok "$out"
fi
set_file $fs/enabled 1
run_counted "enabled=1 again" mkdir:reject:surrogate -- "$fsop" mkdir $sc eda080
expect_eq "enabled=1 again: refused" EILSEQ "$out"

set_file $fs/fstypes ext4
expect_eq "fstypes reads ext4" ext4 "$(cat $fs/fstypes)"
run_counted "fstypes=ext4: tmpfs not checked" "" -- "$fsop" mkdir $sc c0af
expect_eq "fstypes=ext4: bad name allowed on tmpfs" ok "$out"
if [ -d /mnt/ext4/t ]; then
	run_counted "fstypes=ext4: ext4 checked" create:reject:overlong -- \
		"$fsop" create /mnt/ext4/t/scope c080
	expect_eq "fstypes=ext4: bad name refused on ext4" EILSEQ "$out"
fi
set_file $fs/fstypes 'tmpfs,ext4'
expect_eq "fstypes reads tmpfs ext4" "tmpfs ext4" "$(cat $fs/fstypes)"
run_counted "fstypes=tmpfs,ext4: tmpfs checked" mkdir:reject:overlong -- \
	"$fsop" mkdir $sc c080
expect_eq "fstypes=tmpfs,ext4: refused on tmpfs" EILSEQ "$out"
if [ -d /mnt/9p/t ]; then
	mkdir -p /mnt/9p/t/scope
	run_counted "fstypes=tmpfs,ext4: 9p not checked" "" -- \
		"$fsop" create /mnt/9p/t/scope c0ae2e
	expect_eq "fstypes=tmpfs,ext4: bad name allowed on 9p" ok "$out"
	set_file $fs/fstypes 9p
	run_counted "fstypes=9p: 9p checked" create:reject:overlong -- \
		"$fsop" open-creat /mnt/9p/t/scope c080
	expect_eq "fstypes=9p: refused on 9p" EILSEQ "$out"
	run_counted "fstypes=9p: tmpfs not checked" "" -- "$fsop" mkdir $sc e282
	expect_eq "fstypes=9p: bad name allowed on tmpfs" ok "$out"
fi
set_file $fs/fstypes nosuchfs
run_counted "fstypes=nosuchfs: nothing checked" "" -- "$fsop" mkdir $sc 80
expect_eq "fstypes=nosuchfs: allowed" ok "$out"
set_file $fs/fstypes '*
'
expect_eq "fstypes reads * again" "*" "$(cat $fs/fstypes)"
run_counted "fstypes=*: checked" mkdir:reject:invalid_byte -- "$fsop" mkdir $sc ff
expect_eq "fstypes=*: refused" EILSEQ "$out"

# The policy classes are the global ones.
set_file $sys/policy path-tricks
run_counted "policy path-tricks: surrogate checked, passes" mkdir:clean -- \
	"$fsop" mkdir $sc eda080
expect_eq "policy path-tricks: surrogate allowed" ok "$out"
run_counted "policy path-tricks: overlong '/' refused" mkdir:reject:overlong -- \
	"$fsop" mkdir $sc 61c0af62
expect_eq "policy path-tricks: overlong '/' refused" EILSEQ "$out"
set_file $sys/policy none
run_counted "policy none: checked, passes" mkdir:clean -- "$fsop" mkdir $sc c0ae2e61
expect_eq "policy none: allowed" ok "$out"
set_file $sys/policy 'strict path-tricks'

# The normalize-reject classes: each refuses the issue's example while it
# is on and allows it once it is off, on tmpfs and on ext4; with every
# class on, ordinary names still pass.
class_rows="nfc:65cc81:not_nfc bidi:61e280ae62:bidi
ignorables:2e67e2808c6974:ignorable
confusable-path:efbc8eefbc8e:confusable_path
controls:610962:control bom:efbbbf61:bom noncharacters:61efbfbe:noncharacter"
for cd in $sc /mnt/ext4/t/scope; do
	[ -d "$cd" ] || continue
	for row in $class_rows; do
		cc=${row%%:*}
		rest=${row#*:}
		ch=${rest%%:*}
		cr=${rest#*:}
		set_file $sys/policy "strict path-tricks $cc"
		run_counted "policy +$cc: $ch in $cd" mkdir:reject:$cr -- \
			"$fsop" mkdir $cd $ch
		expect_eq "policy +$cc: $ch refused in $cd" EILSEQ "$out"
		set_file $sys/policy "strict path-tricks"
		run_counted "policy -$cc: $ch in $cd" mkdir:clean -- \
			"$fsop" mkdir $cd $ch
		expect_eq "policy -$cc: $ch allowed in $cd" ok "$out"
	done
	set_file $sys/policy "+controls +bidi +ignorables +noncharacters +bom +confusable-path +nfc"
	expect_eq "every class on" \
		"strict path-tricks controls bidi ignorables noncharacters bom confusable-path nfc" \
		"$(cat $sys/policy)"
	# "café", its NFC; CJK; "résumé.txt"
	for ok_name in 636166c3a9 e69687e4bbb6e5908d 72c3a973756dc3a92e747874; do
		run_counted "every class: $ok_name in $cd" create:clean -- \
			"$fsop" create $cd $ok_name
		expect_eq "every class: $ok_name allowed in $cd" ok "$out"
	done
	run_counted "every class: bidi symlink target in $cd" \
		symlink:clean,symlink_target:reject:bidi -- \
		"$fsop" symlink $cd 6c6e6b 61e280ae62
	expect_eq "every class: bidi symlink target refused in $cd" EILSEQ "$out"
	run_counted "every class: rename to a + U+0301 in $cd" \
		rename:reject:not_nfc -- "$fsop" rename $cd 636166c3a9 61cc81
	expect_eq "every class: rename to a non-NFC name refused in $cd" EILSEQ "$out"
	set_file $sys/policy "strict path-tricks"
done

# --- counters add up, reset --------------------------------------------------
identity "after the operation tests"
snap s
expect_match "operation tests counted something" '^[1-9]' "$(get checked "$s")"
g_before=$(cat $sys/stats/checked)
expect_eq "stats/reset" ok "$(w $fs/stats/reset "$(hex 1)")"
expect_eq "stats/reset zeroes every fs counter" "" "$(nonzero_counters)"
expect_eq "stats/reset leaves the global counters" "$g_before" "$(cat $sys/stats/checked)"
expect_eq "missed still 0" 0 "$(cat $fs/missed)"
expect_eq "unhooked still 0" 0 "$(cat $fs/unhooked)"

# --- sysfs writes ---------------------------------------------------------------
set_file $fs/fstypes 'tmpfs ext4'
before=$(fsstate)
nw=0
malformed() {	# FILE HEX DESCRIPTION
	nw=$((nw + 1))
	expect_eq "malformed $1: $3" EINVAL "$(w "$fs/$1" "$2")"
}
for f in enabled check_symlink_target; do
	for v in 0a 20 "$(hex 2)" "$(hex yes)" "$(hex on)" "$(hex 1junk)" \
		"$(hex '1 1')" "$(hex 01)" "$(hex '-1')" "$(hex '0,1')" 00 3100 \
		"$(hex 1)c0ae"; do
		malformed $f "$v" "'$v'"
	done
done
long31=$(head -c 31 /dev/zero | tr '\0' a)
long32=${long31}a
names16=$(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do printf 'fs%s ' $i; done)
names17="${names16}fs17"
for v in 0a 20 2c "$(hex '* tmpfs')" "$(hex 'tmpfs *')" "$(hex '*,ext4')" \
	"$(hex '**')" "$(hex TMPFS)" "$(hex Ext4)" "$(hex 'tmp/fs')" \
	"$(hex 'tmpfs;ext4')" "$(hex 'ext4 tm+fs')" c0ae "$(hex tmpfs)00" 00 \
	"$(hex tmpfs)c0ae" "$(hex "$long32")" "$(hex "tmpfs $long32")" \
	"$(hex "$names17")" "$(hex tmpfs)0a$(hex ext4)" "$(hex tmpfs)0a0a"; do
	malformed fstypes "$v" "'$v'"
done
for v in 0a "$(hex 0)" "$(hex 2)" "$(hex yes)" "$(hex '1 1')" 00; do
	malformed stats/reset "$v" "'$v'"
done
big=$(head -c 4000 /dev/zero | tr '\0' 'x' | od -An -v -tx1 | tr -d ' \n')
malformed fstypes "$big" "4000 bytes of junk"
malformed enabled "$big" "4000 bytes of junk"
expect_match "at least 40 malformed writes" '^([4-9][0-9]|[1-9][0-9][0-9])$' "$nw"
expect_eq "state unchanged by malformed writes" "$before" "$(fsstate)"
for f in enabled fstypes check_symlink_target stats/reset; do
	expect_eq "zero-byte write to $f is a no-op" ok "$(w $fs/$f "")"
done
expect_eq "state unchanged by zero-byte writes" "$before" "$(fsstate)"
# Well-formed edge cases.
set_file $fs/fstypes "$long31"
expect_eq "a 31-character type name" "$long31" "$(cat $fs/fstypes)"
set_file $fs/fstypes "$names16"
expect_eq "16 type names" "${names16% }" "$(cat $fs/fstypes)"
set_file $fs/fstypes 'tmpfs ext4
'
expect_eq "trailing newline accepted" "tmpfs ext4" "$(cat $fs/fstypes)"
set_file $fs/enabled '0
'
expect_eq "enabled 0 with newline" 0 "$(cat $fs/enabled)"
set_file $fs/enabled 1
before=$(fsstate)
# Read-only files: even root cannot write them.
for f in missed unhooked stats/checked stats/overlong stats/create/checked; do
	old=$(cat $fs/$f)
	got=$(w $fs/$f "$(hex 0)")
	expect_match "write to read-only $f refused" '^(EIO|EACCES|EPERM)$' "$got"
	expect_eq "read-only $f unchanged" "$old" "$(cat $fs/$f)"
done
expect_eq "read of write-only stats/reset refused" "" "$(cat $fs/stats/reset 2>/dev/null)"
# Privilege: CAP_SYS_ADMIN in the initial user namespace.
mkdir -p $sc/priv
"$fsop" mkdir $sc/priv 61 >/dev/null
c=$(cat $fs/stats/checked)
for f in enabled fstypes check_symlink_target stats/reset; do
	case $f in enabled | check_symlink_target) v=$(hex 0) ;; fstypes) v=$(hex ext4) ;; *) v=$(hex 1) ;; esac
	expect_eq "uid 65534 cannot write $f" EACCES "$("$gw" --as-uid 65534 $fs/$f "$v" 2>&1)"
	expect_eq "root without CAP_SYS_ADMIN cannot write $f" EPERM "$("$gw" --no-cap-sys-admin $fs/$f "$v" 2>&1)"
	expect_eq "user-namespace root cannot write $f" EPERM "$("$gw" --in-userns $fs/$f "$v" 2>&1)"
done
expect_eq "state unchanged by unprivileged writes" "$before" "$(fsstate)"
expect_eq "counters not reset by unprivileged writes" "$c" "$(cat $fs/stats/checked)"
set_file $fs/fstypes '*'

# --- module parameters ----------------------------------------------------------
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_eq "fs/ gone after unload" "" "$(ls -d $fs 2>/dev/null)"
expect_eq "unloaded: bad names allowed" ok "$("$fsop" mkdir $sc 61c0ae62)"
expect_status "insmod enabled=0 fstypes=tmpfs,ext4 check_symlink_target=0" 0 \
	insmod "$mods/utf8guard_fs.ko" enabled=0 fstypes=tmpfs,ext4 check_symlink_target=0
expect_eq "parameters" "0|tmpfs ext4|0" "$(fsstate)"
rmmod utf8guard_fs
# busybox insmod passes arguments as they are: the quotes reach the kernel.
expect_status "insmod fstypes=\"tmpfs ext4\"" 0 \
	insmod "$mods/utf8guard_fs.ko" 'fstypes="tmpfs ext4"'
expect_eq "space-separated parameter" "1|tmpfs ext4|1" "$(fsstate)"
rmmod utf8guard_fs
for p in enabled=2 enabled=maybe fstypes=TMPFS 'fstypes=*,tmpfs' fstypes= \
	"fstypes=$long32" check_symlink_target=x; do
	mark
	if insmod "$mods/utf8guard_fs.ko" "$p" 2>/dev/null; then
		fail "insmod $p fails" "it loaded: $(fsstate)"
		rmmod utf8guard_fs
	else
		pass "insmod $p fails"
	fi
	expect_match "insmod $p: logged" "utf8guard_fs: .*parameter.*${p%%=*}" \
		"$(log_since)"
done
expect_eq "nothing left after failed loads" "" "$(ls -d $fs 2>/dev/null)"
# A kernel without one of the hooked functions: utf8guard_fs_nosym.ko is
# this module built to probe a symbol no kernel has in place of
# security_inode_rename, its last probe (tests/fs/kmod/).  It must refuse
# to load, name the symbol, and leave no probe and no sysfs file behind.
mark
expect_failure "a build that probes a missing symbol does not load" \
	insmod "$mods/utf8guard_fs_nosym.ko"
expect_match "missing symbol: logged" \
	'\] utf8guard_fs_nosym: cannot probe utf8guard_no_such_symbol: error -2 \(no such symbol: kernel built without CONFIG_SECURITY\?\); not loading: no hook is better than a partial one$' \
	"$(log_since)"
expect_eq "missing symbol: not loaded" "" "$(grep -w utf8guard_fs_nosym /proc/modules)"
expect_eq "missing symbol: no fs/ directory" "" "$(ls -d $fs 2>/dev/null)"
kl=/sys/kernel/debug/kprobes/list
ef=/sys/kernel/tracing/enabled_functions
if [ -r $kl ]; then
	expect_eq "missing symbol: the other probes unregistered" "" \
		"$(grep security_inode_ $kl)"
	expect_eq "missing symbol: nothing on ftrace" "" \
		"$(grep security_inode_ $ef 2>/dev/null)"
else
	echo "# no $kl: registered probes not listed"
fi
expect_eq "missing symbol: nothing hooked, bad name allowed" ok \
	"$("$fsop" mkdir $sc 6ec0af)"
# A hooked function the kernel never calls (inlined into its caller by
# LTO, say): utf8guard_fs_decoy.ko puts its mkdir probe on a function of
# its own (tests/fs/kmod/).  The probe registers and is armed; only the
# self-test, which runs each operation through the real vfs_*(), can
# tell.  The module must refuse to load, name mkdir, and leave nothing.
mark
expect_failure "a build whose mkdir probe is never reached does not load" \
	insmod "$mods/utf8guard_fs_decoy.ko"
expect_match "decoy: logged, naming mkdir alone" \
	'\] utf8guard_fs_decoy: 1 of 6 hooks are not in effect \(self-test got through: mkdir;' \
	"$(log_since)"
expect_eq "decoy: not loaded" "" "$(grep -w utf8guard_fs_decoy /proc/modules)"
if [ -r $kl ]; then
	expect_eq "decoy: its probes unregistered" "" \
		"$(grep -E 'security_inode_|decoy' $kl)"
	expect_eq "decoy: nothing on ftrace" "" \
		"$(grep -E 'security_inode_|decoy' $ef 2>/dev/null)"
fi
# A livepatch of a hooked function: ftrace lets one ftrace_ops that may
# change the instruction pointer (IPMODIFY) on a function, and the hook's
# is one.  utf8guard_ipmodify_clash.ko stands in for a livepatch of
# security_inode_mkdir (tests/fs/kmod/).  With it loaded, utf8guard_fs.ko
# must refuse to load, say why and leave nothing; loaded after
# utf8guard_fs.ko, the stand-in must fail.  Only where the hook is an
# ftrace_ops (not on the debug kernel: no ftrace with regs there).
if [ -e "$mods/utf8guard_ipmodify_clash.ko" ]; then
	expect_status "livepatch stand-in: loads alone" 0 \
		insmod "$mods/utf8guard_ipmodify_clash.ko"
	mark
	expect_failure "livepatch clash: utf8guard_fs.ko does not load" \
		insmod "$mods/utf8guard_fs.ko"
	expect_match "livepatch clash: logged" \
		'\] utf8guard_fs: cannot hook create mkdir mknod symlink link rename by ftrace: another ftrace user already modifies the instruction pointer of one of them \(a livepatch\?' \
		"$(log_since)"
	expect_eq "livepatch clash: not loaded" "" "$(grep -w utf8guard_fs /proc/modules)"
	expect_eq "livepatch clash: no fs/ directory" "" "$(ls -d $fs 2>/dev/null)"
	expect_eq "livepatch clash: no probe left" "" \
		"$(grep security_inode_ $kl 2>/dev/null)"
	expect_eq "livepatch clash: only the stand-in on ftrace" \
		"security_inode_mkdir" \
		"$(grep -oE '^security_inode_[a-z]+' $ef 2>/dev/null)"
	expect_status "livepatch stand-in: rmmod" 0 rmmod utf8guard_ipmodify_clash
	expect_status "livepatch stand-in gone: utf8guard_fs.ko loads" 0 \
		insmod "$mods/utf8guard_fs.ko"
	expect_failure "livepatch stand-in: does not load over utf8guard_fs.ko" \
		insmod "$mods/utf8guard_ipmodify_clash.ko"
	expect_eq "livepatch stand-in failed: refused" EILSEQ \
		"$("$fsop" mkdir /mnt/tmpfs/t 61c0ae62)"
	expect_status "livepatch clash: rmmod utf8guard_fs" 0 rmmod utf8guard_fs
else
	echo "# no utf8guard_ipmodify_clash.ko (no ftrace with regs): livepatch clash not tested"
fi

# --- review round 19: other ftrace users on the hooked functions -------------
# Only where the six are on the ftrace_ops (the livepatch stand-in is built
# where ftrace has regs; the debug kernel's int3 kprobes are not concerned).
# Starts and ends with utf8guard_fs.ko unloaded, in enforce.
r19=/mnt/tmpfs/t/r19
r19n=0
# r19name: sets $r19x to a new ill-formed name, "caf" + a lone E9 + two
# digits (new each time: one made where it should not be stays).
r19name() {
	r19n=$((r19n + 1))
	r19x=636166e93$((r19n / 10 % 10))3$((r19n % 10))
}
# r19_warn: the kernel's taint W (a WARN fired; never reset).
r19_warn() { echo $((($(cat /proc/sys/kernel/tainted) >> 9) & 1)); }
# r19_refused LABEL OP: a bad name is refused with EILSEQ by OP (create or
# mkdir) and does not exist afterwards.
r19_refused() {
	r19name
	expect_eq "$1: $2 of a bad name refused" EILSEQ "$("$fsop" "$2" $r19 "$r19x")"
	expect_eq "$1: $2 of a bad name: nothing made" ENOENT "$("$fsop" stat $r19 "$r19x")"
}
# bpf_on KIND FUNCTION: bpfattach in the background until it says it has
# attached (up to 20 s); sets $bpf_pid.  Counts a test.
bpf_on() {
	bo_f=/tmp/bpfattach.$1.$2
	rm -f "$bo_f"
	"$tools/bpfattach" "$1" "$2" >"$bo_f" 2>&1 &
	bpf_pid=$!
	bo_n=0
	while ! grep -q '^attached' "$bo_f" 2>/dev/null && kill -0 $bpf_pid 2>/dev/null &&
		[ $bo_n -lt 100 ]; do
		sleep 0.2
		bo_n=$((bo_n + 1))
	done
	expect_eq "r19 F1: $1 program on $2 attached" "attached $1 $2" "$(cat "$bo_f")"
}
# bpf_off: detach (the link goes with the process).
bpf_off() {
	kill $bpf_pid 2>/dev/null
	wait $bpf_pid 2>/dev/null
}
if [ -e "$mods/utf8guard_ipmodify_clash.ko" ]; then
	setmode enforce
	mkdir -p $r19
	# F1: a BPF fentry, fexit or fmod_ret program on a hooked function
	# (its trampoline shares the function with the IPMODIFY ops) turned
	# each refusal into success: the name was made, the log said refused.
	if [ -r /sys/kernel/btf/vmlinux ]; then
		# Attached before the module loads: it loads, and refuses.
		bpf_on fentry security_inode_mkdir
		bpf_mkdir=$bpf_pid
		bpf_on fmod_ret security_inode_create
		bpf_create=$bpf_pid
		expect_status "r19 F1: loads with BPF programs on mkdir and create" 0 \
			insmod "$mods/utf8guard_fs.ko"
		r19_refused "r19 F1: programs attached before load" mkdir
		r19_refused "r19 F1: programs attached before load" create
		expect_eq "r19 F1: programs attached before load: unhooked 0" 0 \
			"$(cat $fs/unhooked)"
		kill $bpf_mkdir $bpf_create
		wait $bpf_mkdir
		wait $bpf_create
		r19_refused "r19 F1: programs detached" mkdir
		r19_refused "r19 F1: programs detached" create
		# (loaded now, if the load failed: counted above)
		[ -d $fs ] || insmod "$mods/utf8guard_fs.ko"
		# Attached while it is loaded: each kind on each function.
		for r19k in fentry fexit fmod_ret; do
			for r19f in mkdir create; do
				r19l="r19 F1: $r19k on $r19f"
				bpf_on $r19k security_inode_$r19f
				r19_refused "$r19l" $r19f
				r19name
				expect_eq "$r19l: a good name made" ok \
					"$("$fsop" $r19f $r19 "6f6b${r19x#636166e9}")"
				expect_eq "$r19l: unhooked 0" 0 "$(cat $fs/unhooked)"
				bpf_off
				r19_refused "$r19l, detached" $r19f
			done
		done
		expect_status "r19 F1: rmmod utf8guard_fs" 0 rmmod utf8guard_fs
	else
		echo "# no /sys/kernel/btf/vmlinux: BPF trampolines not tested"
	fi

	# F3: a livepatch of one of the six (the stand-in, on mkdir) that came
	# while mode off had the ops unregistered took all six out at the next
	# enforce.  Now mkdir alone is left out, logged by name and counted in
	# fs/unhooked; the other five refuse; mkdir is taken back (the health
	# check, every 10 s) once the livepatch goes.
	expect_status "r19 F3: insmod utf8guard_fs" 0 insmod "$mods/utf8guard_fs.ko"
	setmode off
	expect_eq "r19 F3: mode off: disarmed" "6 disabled 6" "$(wait_fs_probes '6 disabled 6')"
	expect_status "r19 F3: livepatch stand-in loads while mode off" 0 \
		insmod "$mods/utf8guard_ipmodify_clash.ko"
	mark
	setmode enforce
	r19_refused "r19 F3: livepatch on mkdir, enforce" create
	expect_eq "r19 F3: livepatch on mkdir: unhooked 1" 1 "$(cat $fs/unhooked)"
	r19log=$(log_since)
	expect_match "r19 F3: the function lost to the livepatch logged by name" \
		'\] utf8guard_fs: security_inode_mkdir: another ftrace user modifies its instruction pointer' \
		"$r19log"
	expect_match "r19 F3: mkdir alone reported" \
		'\] utf8guard_fs: 1 of [0-9]+ hooks are not in effect \(self-test got through: mkdir;' \
		"$r19log"
	expect_eq "r19 F3: the five others on ftrace" \
		"security_inode_create security_inode_link security_inode_mknod security_inode_rename security_inode_symlink" \
		"$(grep -oE '^security_inode_[a-z]+' $ef | grep -v mkdir | sort | tr '\n' ' ' | sed 's/ $//')"
	expect_status "r19 F3: rmmod the livepatch stand-in" 0 rmmod utf8guard_ipmodify_clash
	# The health check's next round (every 10 s) takes mkdir back.
	r19w=0
	while ! log_since | grep -q 'utf8guard_fs: security_inode_mkdir: hooked again$' &&
		[ $r19w -lt 30 ]; do
		sleep 0.5
		r19w=$((r19w + 1))
	done
	expect_match "r19 F3: livepatch gone: mkdir hooked again within 15 s" \
		'\] utf8guard_fs: security_inode_mkdir: hooked again$' "$(log_since)"
	r19_refused "r19 F3: livepatch gone" mkdir
	r19_refused "r19 F3: livepatch gone" create
	expect_eq "r19 F3: livepatch gone: unhooked 0" 0 "$(cat $fs/unhooked)"
	expect_status "r19 F3: rmmod utf8guard_fs" 0 rmmod utf8guard_fs

	# F2: a kprobe already on one of the six got the module's locating
	# kprobe (with a post_handler) grafted on: disarming it failed later
	# (a WARN; the kprobe freed while still hashed and armed).  Kprobe
	# events on the six, enabled before load; load; remove them; unload;
	# load again: no failure to disarm, no WARN, nothing left behind.
	tr=/sys/kernel/tracing
	if [ -w $tr/kprobe_events ]; then
		r19warn=$(r19_warn)
		mark
		for r19f in create mkdir mknod symlink link rename; do
			echo "p:r19_$r19f security_inode_$r19f" >>$tr/kprobe_events
		done
		echo 1 >$tr/events/kprobes/enable
		expect_eq "r19 F2: kprobe events on the six, enabled" 6 \
			"$(grep -cE ' k  security_inode_[a-z]+\+0x[0-9a-f]+ .*\[FTRACE\]' $kl)"
		expect_status "r19 F2: insmod utf8guard_fs with kprobe events on the six" 0 \
			insmod "$mods/utf8guard_fs.ko"
		r19_refused "r19 F2: kprobe events on the six" create
		r19_refused "r19 F2: kprobe events on the six" mkdir
		expect_eq "r19 F2: kprobe events on the six: unhooked 0" 0 "$(cat $fs/unhooked)"
		expect_status "r19 F2: kprobe events disabled" 0 \
			sh -c "echo 0 >$tr/events/kprobes/enable"
		expect_status "r19 F2: kprobe events removed" 0 \
			sh -c "echo >$tr/kprobe_events"
		expect_eq "r19 F2: no kprobe left on the six" "" \
			"$(grep -E ' security_inode_[a-z]+\+' $kl)"
		expect_status "r19 F2: rmmod utf8guard_fs" 0 rmmod utf8guard_fs
		expect_eq "r19 F2: nothing left on ftrace" "" \
			"$(grep -E '^security_inode_' $ef)"
		expect_status "r19 F2: insmod again" 0 insmod "$mods/utf8guard_fs.ko"
		r19_refused "r19 F2: loaded again" create
		expect_status "r19 F2: rmmod utf8guard_fs again" 0 rmmod utf8guard_fs
		expect_eq "r19 F2: no kprobe failed to disarm" 0 \
			"$(log_since | grep -c 'Failed to disarm')"
		expect_eq "r19 F2: no WARN (taint W)" "$r19warn" "$(r19_warn)"
	else
		echo "# no $tr/kprobe_events: a kprobe event beside the hooks not tested"
	fi
	rm -rf $r19
else
	echo "# no utf8guard_ipmodify_clash.ko (no ftrace with regs): review round 19's BPF, kprobe event and late livepatch cases not tested"
fi
expect_status "insmod with defaults again" 0 insmod "$mods/utf8guard_fs.ko"
expect_eq "defaults again" "1|*|1" "$(fsstate)"

# --- unhooked: root can disarm every kprobe, and ftrace ------------------------
# Disarmed kprobes take out the six where they are on int3 kprobes, else
# (on the ftrace_ops) the re-check of link and rename after the inode lock
# and the probes of filesystem modules, each counted: 2 + (M - 6) of M.
kp=/sys/kernel/debug/kprobes/enabled
un=/mnt/tmpfs/t/unhooked
mkdir -p $un
if [ -w $kp ]; then
	six_kprobes=$(fs_probes_on_kprobes)
	mark
	echo 0 >$kp
	u=$(cat $fs/unhooked)
	if [ "$six_kprobes" = yes ]; then
		expect_eq "kprobes disarmed: unhooked 6" 6 "$u"
	else
		m=$(log_since | sed -n 's/.*utf8guard_fs: [0-9]* of \([0-9]*\) hooks are not in effect (self-test got through: link rename; kprobes are disarmed as a whole.*/\1/p' | tail -n 1)
		expect_eq "kprobes disarmed: unhooked 2 + modules' probes, logged" \
			"$((${m:-6} - 4))" "$u"
		expect_eq "kprobes disarmed: the six's ftrace_ops still refuses" EILSEQ \
			"$("$fsop" mkdir $un 61c0ae62)"
	fi
	rmmod utf8guard_fs
	mark
	expect_failure "insmod while kprobes are disarmed fails" \
		insmod "$mods/utf8guard_fs.ko"
	expect_match "insmod while disarmed: logged" 'utf8guard_fs: .*disarmed' \
		"$(log_since)"
	echo 1 >$kp
	expect_status "insmod once armed again" 0 insmod "$mods/utf8guard_fs.ko"
	expect_eq "kprobes armed again: unhooked 0" 0 "$(cat $fs/unhooked)"
	expect_eq "kprobes armed again: refused" EILSEQ "$("$fsop" mkdir $un 61c0ae62)"
else
	echo "# no $kp: disarming not tested"
fi
fe=/proc/sys/kernel/ftrace_enabled
if [ -w $fe ] && [ "$(cat $fe)" = 1 ]; then
	if echo 0 >$fe 2>/dev/null; then
		u=$(cat $fs/unhooked)
		echo 1 >$fe
		expect_eq "ftrace_enabled=0: unhooked 6" 6 "$u"
		expect_eq "ftrace_enabled=1: unhooked 0" 0 "$(cat $fs/unhooked)"
		expect_eq "ftrace_enabled=1: refused" EILSEQ "$("$fsop" mkdir $un 61c0ae62)"
	else
		echo "# ftrace_enabled cannot be cleared here"
	fi
fi

# --- nothing to check: the probes are disarmed ------------------------------------
# Mode off or fs/enabled 0 for 1 s disarms the probes (idle.c): debugfs
# kprobes/list marks them [DISABLED].  The write that wants names checked
# again arms them before it returns: the very next bad name is refused.
kl=/sys/kernel/debug/kprobes/list
dis=/mnt/tmpfs/t/disarm
mkdir -p $dis
# disarm_cycle LABEL OFF_FILE OFF_VALUE ON_VALUE VERDICT: turn checks off
# with one write, see the probes disarmed, turn them on again, see them
# armed and the next bad name judged: VERDICT reject (EILSEQ) or audit (ok).
disarm_cycle() {
	dc_l=$1
	dc_want=EILSEQ
	[ "$5" = audit ] && dc_want=ok
	set_file "$2" "$3"
	expect_eq "$dc_l: the probes disarmed within 20 s" "6 disabled 6" "$(wait_fs_probes '6 disabled 6')"
	expect_eq "$dc_l: disarmed, unhooked still 0" 0 "$(cat $fs/unhooked)"
	run_counted "$dc_l: a bad name allowed, not counted" "" -- \
		"$fsop" mkdir $dis c0af
	expect_eq "$dc_l: a bad name allowed" ok "$out"
	"$fsop" rmdir $dis c0af >/dev/null
	set_file "$2" "$4"
	run_counted "$dc_l, then $4: the next bad name judged" "mkdir:$5:overlong" -- \
		"$fsop" mkdir $dis c0af
	expect_eq "$dc_l, then $4: the next bad name judged" $dc_want "$out"
	expect_eq "$dc_l, then $4: the probes armed" "6 disabled 0" "$(fs_probes)"
	expect_eq "$dc_l, then $4: unhooked 0" 0 "$(cat $fs/unhooked)"
}
if [ -r $kl ]; then
	setmode enforce
	expect_eq "enforce: the 6 probes are armed" "6 disabled 0" "$(fs_probes)"
	mark
	disarm_cycle "mode off" $sys/mode off enforce reject
	dlog=$(log_since)
	expect_match "disarming logged" \
		'utf8guard_fs: 6 probes disarmed \(mode off or fs/enabled 0\)' "$dlog"
	expect_match "arming logged" \
		'utf8guard_fs: 6 probes armed: new names are checked again' "$dlog"
	disarm_cycle "fs/enabled 0" $fs/enabled 0 1 reject
	disarm_cycle "mode off" $sys/mode off audit audit
	"$fsop" rmdir $dis c0af >/dev/null
	# Back within 1 s: the probes stay armed.
	setmode off
	setmode enforce
	sleep 2
	expect_eq "off and back at once: the probes stay armed" "6 disabled 0" "$(fs_probes)"
	# Review round 6 (F3): a write that turns checks on while the probes
	# are still being disarmed (1 s after the off, for seconds under
	# emulation) must not be read back before they are armed again: once
	# "enforce" (or fs/enabled 1) reads back, a bad name is refused.  The
	# on-write comes 1.1 to 2 s after the off, into the disarming.
	# f3_race LABEL FILE OFF ON: see above, for a few delays.
	f3_race() {
		for f3_delay in 1.1 1.3 1.6 2.0; do
			set_file "$2" "$3"
			sleep $f3_delay
			set_file "$2" "$4" &
			f3_writer=$!
			# Until it reads back, or the write has returned.
			while kill -0 $f3_writer 2>/dev/null &&
				[ "$(cat "$2")" != "$4" ]; do
				:
			done
			f3_out=$("$fsop" mkdir $dis c0af)
			wait $f3_writer
			[ "$f3_out" = EILSEQ ] || "$fsop" rmdir $dis c0af >/dev/null
			expect_eq "$1 after $f3_delay s: $4 read back, a bad name refused" \
				EILSEQ "$f3_out"
		done
		expect_eq "$1: the probes armed" "6 disabled 0" "$(fs_probes)"
	}
	f3_race "F3: mode off, then enforce" $sys/mode off enforce
	f3_race "F3: fs/enabled 0, then 1" $fs/enabled 0 1
	# Loaded while off: armed for the self-test, disarmed 1 s later.
	setmode off
	rmmod utf8guard_fs
	expect_status "insmod utf8guard_fs.ko in mode off" 0 insmod "$mods/utf8guard_fs.ko"
	expect_eq "loaded in mode off: disarmed within 20 s" "6 disabled 6" "$(wait_fs_probes '6 disabled 6')"
	setmode enforce
	expect_eq "loaded in mode off, then enforce: refused" EILSEQ "$("$fsop" mkdir $dis c0af)"
	expect_eq "loaded in mode off, then enforce: unhooked 0" 0 "$(cat $fs/unhooked)"
	# Review round 13 (F3): armed while kprobes are off as a whole, the
	# six stayed disabled once kprobes were back (enable_kprobe() arms
	# nothing then, and arm_all_kprobes() skips a disabled probe): bad
	# names were made in enforce for good.  The health check (run by a
	# read of fs/unhooked) arms them again.
	if [ -w $kp ]; then
		setmode off
		expect_eq "r13 F3: mode off, disarmed within 20 s" "6 disabled 6" \
			"$(wait_fs_probes '6 disabled 6')"
		echo 0 >$kp
		mark
		setmode enforce
		u=$(cat $fs/unhooked)
		if [ "$six_kprobes" = yes ]; then
			expect_eq "r13 F3: enforce while kprobes are off: unhooked 6" 6 "$u"
		else
			expect_match "r13 F3: enforce while kprobes are off: unhooked 2 or more" \
				'^([2-9]|[1-9][0-9])$' "$u"
		fi
		echo 1 >$kp
		expect_eq "r13 F3: kprobes back: unhooked 0" 0 "$(cat $fs/unhooked)"
		expect_eq "r13 F3: kprobes back: the 6 probes armed" "6 disabled 0" "$(fs_probes)"
		expect_eq "r13 F3: kprobes back: mkdir 61 FF 62 refused" EILSEQ \
			"$("$fsop" mkdir $dis 61ff62)"
		expect_eq "r13 F3: kprobes back: create ED A0 80 refused" EILSEQ \
			"$("$fsop" create $dis eda080)"
		expect_match "r13 F3: the re-arming logged" \
			'utf8guard_fs: probes armed again: .*kprobes were off as a whole' "$(log_since)"
	fi
else
	fail "disarming in mode off" "no $kl"
fi

# --- stress: 16 processes, the mode flipping every millisecond ---------------------
stress_all

# --- FS_CYCLES (50) unload/load cycles under load, the mode flipping ---------------
# The load: fs_stress without end, 8 processes on tmpfs with the mode
# flipper and 8 on ext4, at nice 19: its processes still hit the probes
# all the time, but at nice 0 they starve rmmod, insmod and the RCU
# kthreads on the VM's 2 emulated CPUs (on the test kernel each cycle then
# took about twice as long as the one before: 4 s, 10 s, ... 290 s by the
# 8th).  The flipper is SCHED_FIFO; the mode file belongs to utf8guard.ko
# and stays while utf8guard_fs.ko is out.
loads="tmpfs:/mnt/tmpfs"
cyc_dirs=/mnt/tmpfs/t/cycles
if [ -d /mnt/ext4/t ]; then
	loads="$loads ext4:/mnt/ext4"
	cyc_dirs="$cyc_dirs /mnt/ext4/t/cycles"
fi
mkdir -p $cyc_dirs
printk=$(cat /proc/sys/kernel/printk)
echo 5 >/proc/sys/kernel/printk
lps=
for spec in $loads; do
	lf=${spec%%:*}
	mkdir -p "${spec#*:}/load"
	flip=
	[ "$lf" = tmpfs ] && flip="--flip $sys/mode"
	# shellcheck disable=SC2016,SC2086 # $$ and $0 belong to the inner shell
	FS_STRESS_PAUSE_US=${FS_LOAD_PAUSE_US:-0} \
		sh -c 'renice 19 -p $$ >/dev/null && exec "$0" "$@"' \
		"$stress" "${spec#*:}/load" 8 0 $flip \
		>/tmp/load-$lf.out 2>/tmp/load-$lf.err &
	lps="$lps $lf:$!"
done
# The load's mkdirs of its p0..p7 come first (the cycles count mkdirs
# exactly): wait for the last, up to 60 s (a slow debug-kernel VM needed
# more than the 1 s this once slept).
for spec in $loads; do
	ld_n=0
	while [ ! -d "${spec#*:}/load/p7" ] && [ $ld_n -lt 120 ]; do
		sleep 0.5
		ld_n=$((ld_n + 1))
	done
	expect_eq "the load on ${spec%%:*} made its directories" yes \
		"$([ -d "${spec#*:}/load/p7" ] && echo yes)"
done
# cycle_check: after an insmod, a bad mkdir in each of $cyc_dirs is judged
# again: refused in enforce, allowed and audited in audit, and the fresh
# module's mkdir counters (the load makes no directories once started)
# say exactly that; the self-test finds every hook in effect.
cycle_check() {
	cc_ref=0 cc_aud=0 cc_why=
	for cc_d in $cyc_dirs; do
		cc_got=$("$fsop" mkdir "$cc_d" c0ae2e)
		case $cc_got in
		EILSEQ) cc_ref=$((cc_ref + 1)) ;;
		ok)
			cc_aud=$((cc_aud + 1))
			"$fsop" rmdir "$cc_d" c0ae2e >/dev/null
			;;
		*) cc_why="$cc_why mkdir in $cc_d gave $cc_got;" ;;
		esac
	done
	cc_has="$(cat $fs/stats/mkdir/checked) $(cat $fs/stats/mkdir/rejected) $(cat $fs/stats/mkdir/audited)"
	cc_want="$((cc_ref + cc_aud)) $cc_ref $cc_aud"
	[ "$cc_has" = "$cc_want" ] ||
		cc_why="$cc_why mkdir checked/rejected/audited: $cc_has, not $cc_want;"
	cc_un=$(cat $fs/unhooked)
	[ "$cc_un" = 0 ] || cc_why="$cc_why unhooked $cc_un;"
	[ -z "$cc_why" ]
}
ncycles=${FS_CYCLES:-50}
cycles=0
refusals=0
audits=0
i=0
t0=$(cut -d. -f1 /proc/uptime)
# centiseconds: the uptime in hundredths of a second
centiseconds() { tr -d . </proc/uptime | cut -d' ' -f1; }
rmmod_cs=0
rmmod_max=0
while [ $i -lt "$ncycles" ]; do
	i=$((i + 1))
	rm_t=$(centiseconds)
	if ! rmmod utf8guard_fs; then
		echo "# cycle $i: rmmod failed"
		continue
	fi
	rm_t=$(($(centiseconds) - rm_t))
	rmmod_cs=$((rmmod_cs + rm_t))
	[ $rm_t -le $rmmod_max ] || rmmod_max=$rm_t
	if ! insmod "$mods/utf8guard_fs.ko"; then
		echo "# cycle $i: insmod failed"
		continue
	fi
	if ! cycle_check; then
		echo "# cycle $i: after insmod:$cc_why"
		continue
	fi
	refusals=$((refusals + cc_ref))
	audits=$((audits + cc_aud))
	cycles=$((cycles + 1))
done
echo "# $i unload/load cycles under load took $(($(cut -d. -f1 /proc/uptime) - t0)) s; their bad mkdirs: $refusals refused (enforce), $audits audited (audit)"
# Most of an rmmod under load is synchronize_rcu_tasks() (fs_probes_exit()):
# a busy task ends its grace period only when it sleeps or is caught in
# user mode (Documentation/testing.rst, "Why an unload cycle is slow").
echo "# their rmmods took $((rmmod_cs / 100)).$(printf %02d $((rmmod_cs % 100))) s in all, the longest $((rmmod_max / 100)).$(printf %02d $((rmmod_max % 100))) s"
expect_eq "$ncycles unload/load cycles under load, each judging again" "$ncycles" "$cycles"
expect_match "the mode flipped during the cycles: refusals" '^[1-9]' "$refusals"
expect_match "the mode flipped during the cycles: audits" '^[1-9]' "$audits"
for lp in $lps; do
	lf=${lp%%:*}
	if kill -0 "${lp#*:}" 2>/dev/null; then
		pass "the load on $lf ran through all cycles"
	else
		fail "the load on $lf ran through all cycles"
	fi
	kill "${lp#*:}"
	wait "${lp#*:}"
	out=$(cat /tmp/load-$lf.out)
	echo "# load on $lf: $out"
	expect_match "load on $lf: valid creates worked" '^[1-9]' "$(field good_ok "$out")"
	expect_eq "load on $lf: no valid create failed" 0 "$(field good_failed "$out")"
	expect_eq "load on $lf: no other errors" 0 "$(field other_errors "$out")"
	expect_eq "load on $lf: no unexpected error" "" "$(cat /tmp/load-$lf.err)"
	if [ "$lf" = tmpfs ]; then
		expect_eq "load: mode flips all worked" 0 "$(field flip_errors "$out")"
		expect_match "load: the mode flipped" '^[1-9]' "$(field flips "$out")"
		echo "# load: $(field flips "$out") flips in $(field ms "$out") ms"
	fi
done
echo "$printk" >/proc/sys/kernel/printk
setmode enforce
expect_eq "after the load: refused on tmpfs" EILSEQ "$("$fsop" create /mnt/tmpfs/t/cycles c0af)"
if [ -d /mnt/ext4/t ]; then
	expect_eq "after the load: refused on ext4" EILSEQ "$("$fsop" mkdir /mnt/ext4/t c0af)"
fi
expect_eq "after the load: missed 0" 0 "$(cat $fs/missed)"
expect_eq "after the load: unhooked 0" 0 "$(cat $fs/unhooked)"

# --- a miss is counted, shown and logged -----------------------------------------
# utf8guard_miss_trigger.ko calls security_inode_create() from a kprobe
# handler of its own, N times, with ftrace's recursion lock taken: each hit
# of our hook there is skipped (by kprobes, in its nmissed, or by our
# ftrace callback) and counted (tests/fs/kmod/).
mark
expect_status "insmod utf8guard_miss_trigger.ko calls=3" 0 \
	insmod "$mods/utf8guard_miss_trigger.ko" calls=3
expect_eq "3 forced misses: fs/missed 3" 3 "$(cat $fs/missed)"
# Reading fs/unhooked runs the health check, which logs new misses (as
# does the periodic one: the lines since the mark must add up to 3).
expect_eq "after the misses: unhooked 0" 0 "$(cat $fs/unhooked)"
mlog=$(log_since)
msum=0
for mn in $(printf '%s\n' "$mlog" | sed -n 's/^.*\] utf8guard_fs: \([0-9][0-9]*\) probe hits missed (another probe was running on that CPU, too many overlayfs operations at once, an overlayfs copy-up begun while the probes were disarmed, or an unmount fs\/mounts did not see): hooked operations refused (EAGAIN) or not checked, overlayfs copy-ups checked as new names, or an fs\/mounts entry kept$/\1/p'); do
	msum=$((msum + mn))
done
expect_eq "the misses logged: 3" 3 "$msum"
expect_match "the trigger's own report" \
	'utf8guard_miss_trigger: 3 calls, 3 handler runs, security_inode_create\(\) returned 0 3 times' \
	"$mlog"
expect_status "rmmod utf8guard_miss_trigger" 0 rmmod utf8guard_miss_trigger
expect_eq "after the misses: refused" EILSEQ "$("$fsop" mkdir /mnt/tmpfs/t/cycles c0af)"
expect_eq "fs/missed still 3" 3 "$(cat $fs/missed)"

# --- unload (integration_test.sh runs next), kmemleak ------------------------------
expect_status "rmmod utf8guard_fs" 0 rmmod utf8guard_fs
expect_status "rmmod utf8guard" 0 rmmod utf8guard
expect_eq "sysfs gone after unload" "" "$(ls -d $sys 2>/dev/null)"
kmemleak_check

finish_tests
