# vm-lib.sh - VM-only shell helpers for test scripts inside the test VM.
#
# Copied to /utf8guard/vm-lib.sh by make-initramfs.sh, next to
# /utf8guard/assert.sh (tests/lib/assert.sh: pass, fail, expect_*,
# finish_tests), which it needs:
#   . /utf8guard/assert.sh
#   . /utf8guard/vm-lib.sh
#   ktap_header 2              # before insmod-ing 2 KUnit test modules
#   kmemleak_check             # counts a pass or a failure
#   finish_tests               # prints "N passed, N failed", exit status
# Busybox ash / POSIX sh. Messages avoid the words run-vm.sh greps for.
# shellcheck shell=sh

# timed NAME: "utf8guard-time: NAME took N s", N the guest's seconds since
# the last timed line (or since this file was sourced).
t_last=$(cut -d. -f1 /proc/uptime)
timed() {
	t_now=$(cut -d. -f1 /proc/uptime)
	echo "utf8guard-time: $1 took $((t_now - t_last)) s"
	t_last=$t_now
}

# kmsg MESSAGE: write a line to the kernel log (and so to the console)
kmsg() {
	echo "$*" >/dev/kmsg
}

# ktap_header N: announce N KUnit suites before loading KUnit test modules.
# The built-in KUnit executor prints its own "KTAP version 1 / 1..0" at boot;
# kunit-parse.sh starts parsing at the marker written here instead.
ktap_header() {
	kmsg "utf8guard-vm: ktap start"
	kmsg "KTAP version 1"
	kmsg "1..$1"
}

# kmemleak_reset: forget the leaks reported so far, so that a later
# kmemleak_check only reports new ones. Cheap: it does not scan. A clean boot
# of the test kernel has no leak (checked with repeated scans), so nothing
# needs to be hidden at the start of a test.
kmemleak_reset() {
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	echo clear >/sys/kernel/debug/kmemleak
}

# kmemleak_check: scan for leaks; counts a failure and prints the reports
# (run-vm.sh then rejects the log too) if there are any. kmemleak reports an
# object only if it was unreferenced and unchanged in two scans and is older
# than 5 s, so this needs two scans. Each takes about 10 s under TCG.
kmemleak_check() {
	if [ ! -w /sys/kernel/debug/kmemleak ]; then
		echo "kmemleak_check: no kmemleak in this kernel, skipped"
		return 0
	fi
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(cat /sys/kernel/debug/kmemleak)
	if [ -n "$leaks" ]; then
		echo "$leaks"
		fail "kmemleak found leaks"
	else
		pass "kmemleak: no leaks"
	fi
}

# Helpers of the hook suites (tests/fs, tests/net); w and set_file need
# $gw, the path of guest_write.
# w FILE HEX: one write() of the given bytes; prints ok or the errno name.
w() { "$gw" "$1" "$2" 2>&1; }
# hex TEXT: the hex of a text, for w.
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }
# set_file FILE VALUE: a write that must work (counts a failure if not).
set_file() {
	sf_got=$(w "$1" "$(hex "$2")")
	[ "$sf_got" = ok ] || fail "write '$2' to $1" "got: $sf_got"
}
# mark: a unique line in the kernel log; log_since prints the log after it.
marks=0
mark() {
	marks=$((marks + 1))
	logmark="utf8guard-test mark $marks"
	kmsg "$logmark"
}
log_since() { dmesg | sed -n "/$logmark\$/,\$p"; }

# fs_probes: the hooks of utf8guard_fs.ko on the 6 security_inode_*()
# functions, as "N disabled M": how many of them are hooked (6 while a
# utf8guard_fs build is loaded), and how many of those are not armed.
# A hook is its ftrace_ops (armed: the function is in tracefs's
# enabled_functions; disarmed: the ops is unregistered, the function is
# nowhere) or, where ftrace cannot hook, its int3 kprobe in debugfs
# kprobes/list (DISABLED when disarmed; the offset is 0x4 where IBT moves
# a probe past the ENDBR, 6.12).
fs_probes() {
	fp_six='security_inode_(create|mkdir|mknod|symlink|link|rename)'
	fp_lines=$(grep -E " $fp_six\+0x[0-9a-f]+ " /sys/kernel/debug/kprobes/list)
	fp_k=$(printf '%s\n' "$fp_lines" | grep -c .)
	fp_kd=$(printf '%s\n' "$fp_lines" | grep -c 'DISABLED')
	# (initramfs-init.sh mounts tracefs; a kernel without ftrace has no file)
	fp_f=$({ grep -E "^$fp_six " /sys/kernel/tracing/enabled_functions ||
		:; } 2>/dev/null | grep -c .)
	fp_n=$fp_k
	[ ! -d /sys/kernel/utf8guard/fs ] || fp_n=6
	echo "$fp_n disabled $((fp_n - (fp_k - fp_kd) - fp_f))"
}
# fs_probes_on_kprobes: "yes" if the six are hooked by kprobes (a kernel
# without ftrace with regs), else "no".
fs_probes_on_kprobes() {
	if grep -qE ' security_inode_(create|mkdir|mknod|symlink|link|rename)\+0x[0-9a-f]+ ' \
		/sys/kernel/debug/kprobes/list; then
		echo yes
	else
		echo no
	fi
}
# kprobe_state FUNCTION [KIND]: FUNCTION's lines of debugfs kprobes/list
# (of KIND only: k a kprobe, r a kretprobe), as "absent", "armed" or
# "disabled" (any of them disabled).
kprobe_state() {
	ks_line=$(grep " ${2:-[kr]}  $1+0x[0-9a-f]* " /sys/kernel/debug/kprobes/list)
	case $ks_line in
	'') echo absent ;;
	*DISABLED*) echo disabled ;;
	*) echo armed ;;
	esac
}
# task_state PID: the one-letter state of a task (D: waiting on a lock).
task_state() { sed 's/.*) \([A-Z]\).*/\1/' "/proc/$1/stat" 2>/dev/null; }
# wait_blocked PID: up to 10 s for the task to wait uninterruptibly (D);
# prints its state then.
wait_blocked() {
	wb_n=0
	while [ "$(task_state "$1")" != D ] && [ $wb_n -lt 100 ]; do
		sleep 0.1
		wb_n=$((wb_n + 1))
	done
	task_state "$1"
}
# listing DIR: the entries of DIR as hex, one line (the test sets $fsop).
listing() { "$fsop" readdir "$1" | tr '\n' ' '; }
# wait_output WANT CMD...: up to 20 s for CMD to print WANT; prints what
# it printed last.
wait_output() {
	wo_want=$1
	shift
	wo_n=0
	while [ "$("$@")" != "$wo_want" ] && [ $wo_n -lt 40 ]; do
		sleep 0.5
		wo_n=$((wo_n + 1))
	done
	"$@"
}
# wait_fs_probes STATE: up to 20 s for fs_probes to say STATE; prints it.
wait_fs_probes() { wait_output "$1" fs_probes; }
