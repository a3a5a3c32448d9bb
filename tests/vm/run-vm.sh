#!/usr/bin/env bash
# run-vm.sh - boot a kernel + initramfs under qemu (TCG) and judge the run.
#
# Console (ttyS0) goes to LOGFILE, the second serial port (ttyS1) to
# LOGFILE.result. Exit status 0 only if qemu exited in time, the result file
# holds the line "utf8guard-vm: success" (written by /init when the test
# script exits 0) and the console log shows no kernel splat (see
# BAD_PATTERNS). On failure prints which check failed and the log's tail.
# Always TCG: KVM guests hang on this infrastructure.  Single-threaded TCG
# (all vCPUs on one host thread): with multi-threaded TCG, a vCPU was seen
# to loop on an int3 the other vCPU had already patched away (stale
# translated code), hanging kprobe unregistration under load in 2 of ~10
# runs of the fs hook suite; with thread=single, never.  --mttcg asks for
# multi-threaded TCG, whose vCPUs really run at once: only for the race
# VM (tests/net/nf_race_test.sh), which loads no kprobes and patches no
# code while its CPUs race.
# Usage: run-vm.sh --kernel BZIMAGE --initrd CPIO --log LOGFILE
#          [--append "CMDLINE ARGS"] [--timeout SECS (300)] [--mem MB (1024)]
#          [--smp N (2)] [--allow REGEX]... [--virtfs DIR] [--mttcg yes]
#          [--drive QCOW2] [--icount yes]
#   --allow REGEX   ignore console lines matching REGEX in the splat check
#   --virtfs DIR    share host DIR over virtio-9p, mount tag "utf8guard":
#                   mount -t 9p -o trans=virtio,version=9p2000.L utf8guard /mnt
#   --drive QCOW2   a virtio disk, /dev/vda in the guest (the Debian guest's
#                   root filesystem: tests/guest/)
#   --icount yes    deterministic guest time: -icount shift=0,sleep=off,
#                   one nanosecond of guest clock per guest instruction
#                   (the hook benchmarks: bench/); single-threaded TCG only
set -euo pipefail

# ERE, case-sensitive; each was checked not to match a clean boot of the
# test kernel nor of Debian's stock kernel (incl. its taint messages).
BAD_PATTERNS=(
	'BUG:'                         # BUG(), KASAN/KCSAN/sleep-in-atomic reports
	'WARNING:'                     # WARN*(), lockdep reports
	'\[ cut here \]'               # start of every WARN/BUG splat
	'Call Trace:'                  # any backtrace
	'KASAN'                        # KASAN report
	'UBSAN'                        # UBSAN report
	'possible (circular|recursive) locking'
	'inconsistent lock state'
	'lockdep is turned off'        # lockdep gave up (plain 'lockdep' would
	'locking correctness validator' # match "RCU lockdep checking is enabled")
	'INFO:'                        # hung task, RCU stall, lockdep info
	'unreferenced object'          # kmemleak report (vm-lib prints it)
	'suspected memory leak'        # kmemleak scan summary
	'kmemleak: .*(disabled|pool empty)' # leak detection lost
	'Kernel panic'
	'Oops'
	'general protection fault'
	'invalid opcode:'
	'Unable to handle kernel'
)
SUCCESS_LINE='utf8guard-vm: success'
# A soft lockup or an RCU stall panics at once (then qemu exits: -no-reboot)
# instead of running into --timeout.  RCU stalls are reported after 120 s,
# not 21 s: single-threaded TCG runs the debug kernel's boot on CPU 0 for
# more than 21 s at a stretch (a false stall report at boot).
BASE_APPEND='console=ttyS0 panic_on_warn=1 oops=panic panic=-1 printk.time=1 softlockup_panic=1 sysctl.kernel.panic_on_rcu_stall=1 rcupdate.rcu_cpu_stall_timeout=120'

usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

kernel='' initrd='' log='' append='' timeout=300 mem=1024 smp=2 thread=single
icount=no
allow=()
extra=()
while (($#)); do
	(($# >= 2)) || usage
	case "$1" in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--log) log=$2 ;;
	--append) append=$2 ;;
	--timeout) timeout=$2 ;;
	--mem) mem=$2 ;;
	--smp) smp=$2 ;;
	--mttcg)
		[[ "$2" = yes ]] || usage
		thread=multi
		;;
	--icount)
		[[ "$2" = yes ]] || usage
		icount=yes
		extra+=(-icount shift=0,sleep=off)
		;;
	--allow) allow+=("$2") ;;
	--virtfs)
		[[ -d "$2" ]] || { echo "run-vm: --virtfs: no such directory: $2" >&2; exit 1; }
		extra+=(-virtfs "local,path=$2,mount_tag=utf8guard,security_model=none,id=utf8guard")
		;;
	--drive)
		[[ -f "$2" ]] || { echo "run-vm: --drive: no such file: $2" >&2; exit 1; }
		extra+=(-drive "file=$2,if=virtio,format=qcow2,cache=writeback")
		;;
	*) usage ;;
	esac
	shift 2
done
[[ -n "$kernel" && -n "$initrd" && -n "$log" ]] || usage
if [[ $icount = yes && $thread = multi ]]; then
	echo "run-vm: --icount needs single-threaded TCG (not --mttcg)" >&2
	exit 2
fi
for f in "$kernel" "$initrd"; do
	[[ -r "$f" ]] || { echo "run-vm: cannot read $f" >&2; exit 1; }
done

result=$log.result
mkdir -p "$(dirname "$log")"
rm -f "$log" "$result"

echo "run-vm: booting $(basename "$kernel") with $(basename "$initrd")" \
	"(TCG thread=$thread$([[ $icount = no ]] || echo ", icount"), ${mem} MiB, ${smp} CPU, timeout ${timeout} s)" >&2
start=$SECONDS
# boot: one run of the VM.  A kernel that panics before /init runs
# (nothing of the project's is loaded yet) is booted once more: the debug
# kernel once hit a KASAN report in identify_cpu() at 0.003 s on a loaded
# host.  The first log is kept as LOG.early-panic.
boot() {
	qemu_rc=0
	timeout --kill-after=10 "$timeout" \
		qemu-system-x86_64 -accel "tcg,thread=$thread" -cpu max -m "$mem" -smp "$smp" \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-serial "file:$log" -serial "file:$result" \
		-kernel "$kernel" -initrd "$initrd" "${extra[@]}" \
		-append "$BASE_APPEND${append:+ $append}" </dev/null || qemu_rc=$?
}
boot
if ! grep -qa '^utf8guard-vm: kernel ' "$log" && grep -qa 'Kernel panic' "$log"; then
	echo "run-vm: the kernel panicked before /init ran (log: $log.early-panic); booting once more" >&2
	mv "$log" "$log.early-panic"
	rm -f "$result"
	boot
fi
elapsed=$((SECONDS - start))
touch "$log" "$result"
# The host CPU time qemu used (user + system of this script's children):
# below the elapsed time when the guest sat idle (sleeps, timeouts).
# (times runs in this shell: in a pipe or $(...) it would see a fresh
# subshell's zeros.)
times >"$result.times"
cpu=$(tail -n 1 "$result.times" | awk '{
	n = split($1 " " $2, t, " ")
	for (i = 1; i <= n; i++) { split(t[i], ms, "m"); s += ms[1] * 60 + ms[2] }
	printf "%d", s }')

failures=()
if ((qemu_rc == 124 || qemu_rc == 137)); then
	failures+=("timeout: VM still running after $timeout s")
elif ((qemu_rc != 0)); then
	failures+=("qemu exited with status $qemu_rc")
fi

# Kernel splats anywhere in the console log (minus --allow'ed lines).
filtered=$(tr -d '\r' <"$log")
for re in "${allow[@]}"; do
	filtered=$(grep -v -E -e "$re" <<<"$filtered" || true)
done
for re in "${BAD_PATTERNS[@]}"; do
	if hits=$(grep -n -E -m 3 -e "$re" <<<"$filtered"); then
		failures+=("console log matches /$re/:"$'\n'"$hits")
	fi
done

if ! tr -d '\r' <"$result" | grep -qxF "$SUCCESS_LINE"; then
	failures+=("no '$SUCCESS_LINE' on ttyS1 (test script failed, or the kernel panicked/rebooted)")
fi

if ((${#failures[@]} == 0)); then
	echo "run-vm: PASS in $elapsed s, $cpu s of host CPU (log: $log)" >&2
	exit 0
fi
echo "run-vm: ---- last 60 console lines ($log) ----" >&2
tail -n 60 "$log" | tr -d '\r' >&2
echo "run-vm: ---- end of console log ----" >&2
for f in "${failures[@]}"; do
	echo "run-vm: FAIL: $f" >&2
done
echo "run-vm: FAILED after $elapsed s, $cpu s of host CPU" >&2
exit 1
