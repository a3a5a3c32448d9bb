# SPDX-License-Identifier: GPL-2.0
# ab-vm-lib.sh - sourced by the A/B benchmarks (bench/*.sh): boot the
# stock kernel with a benchmark initramfs and collect its results.
#
# ab_run_vm NAME OUT IMAGE SMP TIMEOUT [CLOCK]: boots IMAGE with
# OUT/initrd.cpio.gz under qemu (run-vm.sh), console log in
# OUT/console-CLOCK.log; CLOCK icount (the default: guest time counts guest
# instructions, -icount shift=0, so a guest-timed ratio is the same run
# after run) or wall (guest time follows the host's clock); on failure prints
# the guest's bench lines and the end of the run and exits 1.  Otherwise
# prints the guest's "bench: " lines and sets $results to its
# "bench-result: " lines (see ab-summary.awk) and "bench-hits: " lines.
ab_run_vm() {
	local name=$1 out=$2 image=$3 smp=$4 timeout=$5 clock=${6:-icount}
	local status=0 log vm clock_args=()
	vm=$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/vm" && pwd)
	[ "$clock" = wall ] || clock_args=(--icount yes)
	"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd.cpio.gz" \
		--log "$out/console-$clock.log" --append "quiet loglevel=4" \
		--smp "$smp" --timeout "$timeout" "${clock_args[@]}" \
		>"$out/run-vm-$clock.log" 2>&1 || status=$?
	log=$(tr -d '\r' <"$out/console-$clock.log")
	if [ $status -ne 0 ]; then
		grep -a '^bench' <<<"$log" >&2 || true
		tail -n 20 "$out/run-vm-$clock.log" >&2
		echo "$name: the VM run failed (console log: $out/console-$clock.log)" >&2
		exit 1
	fi
	results=$(grep -aE '^bench-(result|hits): ' <<<"$log" || true)
	grep -a '^bench: ' <<<"$log" | sed 's/^bench: /  guest: /'
}

# ab_measure NAME OUT IMAGE SMP TIMEOUT CLOCK PER AWK_ARGS...: ab_run_vm
# under each clock of CLOCK (icount, wall, or both: icount first), then
# ab-summary.awk (or $AB_SUMMARY, a file in bench/) on its results with
# AWK_ARGS (-v rounds=... what=... label_a=... label_b=... target=...
# subject=...), the unit in/PER under
# icount (guest instructions: one guest nanosecond each) or ns/PER on
# the host's clock.
ab_measure() {
	local name=$1 out=$2 image=$3 smp=$4 timeout=$5 clock=$6 per=$7
	local bench c unit clocks=(icount wall)
	shift 7
	bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	[ "$clock" = both ] || clocks=("$clock")
	for c in "${clocks[@]}"; do
		ab_run_vm "$name" "$out" "$image" "$smp" "$timeout" "$c"
		unit=in/$per
		[ "$c" != wall ] || unit=ns/$per
		awk -f "$bench/stats.awk" -f "$bench/${AB_SUMMARY:-ab-summary.awk}" -v bench="$name" \
			-v clock="$c" -v unit="$unit" -v kernel="$(basename "$image")" \
			"$@" <<<"$results"
	done
}
