#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fs-create-unlink.sh - `make bench-fs`: the overhead of utf8guard_fs.ko on
# a create/unlink loop.  A benchmark, not a test: it reports, it does not
# judge (exit status 0 whenever the measurement ran).
#
# Boots Debian's STOCK kernel under qemu (TCG) once, and inside it times
# ITERATIONS x (open(O_CREAT|O_EXCL) + close + unlink) of a well-formed name
# on tmpfs (bench/create_unlink.c), without the modules and with
# utf8guard.ko (mode enforce) + utf8guard_fs.ko loaded, in ROUNDS rounds of
# alternating order, A B, B A, ... (bench/fs-create-unlink-guest.sh).  Prints
# the median time per iteration of each, their ratio, and the target
# (<= 3 %); and, as a cross-check, the median and spread of the per-round
# ratios.
# The CPU is emulated: only the ratio means anything.
# Usage: fs-create-unlink.sh [--iterations N (5000)] [--rounds R (21)]
#          [--smp N (1)] [--timeout SECS (900)]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
vm=$top/tests/vm
out=$top/build/bench-fs
TARGET_PERCENT=3

usage() {
	sed -n '/^# Usage: /,/^set /{/^set /d; s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}
iterations=5000 rounds=21 smp=1 timeout=900
while (($#)); do
	(($# >= 2)) || usage
	case "$1" in
	--iterations) iterations=$2 ;;
	--rounds) rounds=$2 ;;
	--smp) smp=$2 ;;
	--timeout) timeout=$2 ;;
	*) usage ;;
	esac
	shift 2
done
for v in "$iterations" "$rounds" "$smp" "$timeout"; do
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || usage
done

mkdir -p "$out"
"$top/scripts/install-deps.sh"
echo "bench-fs: building the loop (static) and the modules for the stock kernel..."
gcc -static -O2 -Wall -Wextra -Werror -o "$out/create_unlink" "$top/bench/create_unlink.c"
tree=$("$vm/stock-kernel.sh" --build)
image=$("$vm/stock-kernel.sh" --image)
"$top/tests/harness/build-modules.sh" "$tree" "$out/modules"
for ko in utf8guard.ko utf8guard_fs.ko; do
	[[ -f "$out/modules/$ko" ]] || {
		echo "bench-fs: $out/modules/$ko was not built (see $out/modules/build.log)" >&2
		exit 1
	}
done
printf 'ITERATIONS=%s\nROUNDS=%s\n' "$iterations" "$rounds" >"$out/bench.conf"

"$vm/make-initramfs.sh" "$out/initrd.cpio.gz" --run "$top/bench/fs-create-unlink-guest.sh" \
	--file "$out/modules/utf8guard.ko:/utf8guard/modules/" \
	--file "$out/modules/utf8guard_fs.ko:/utf8guard/modules/" \
	--file "$out/create_unlink:/utf8guard/tools/" \
	--file "$out/bench.conf:/utf8guard/"

echo "bench-fs: booting $(basename "$image") under qemu (TCG, $smp CPU)," \
	"$rounds rounds of $iterations iterations with and without the modules..."
status=0
"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd.cpio.gz" \
	--log "$out/console.log" --append "quiet loglevel=4" \
	--smp "$smp" --timeout "$timeout" >"$out/run-vm.log" 2>&1 || status=$?
log=$(tr -d '\r' <"$out/console.log")
if [ $status -ne 0 ]; then
	grep -a '^bench' <<<"$log" >&2 || true
	tail -n 20 "$out/run-vm.log" >&2
	echo "bench-fs: the VM run failed (console log: $out/console.log)" >&2
	exit 1
fi
results=$(grep -a '^bench-result: ' <<<"$log" || true)
grep -a '^bench: ' <<<"$log" | sed 's/^bench: /  guest: /'

# Per round: ns per iteration of A and B; then medians and ratios.
awk -v rounds="$rounds" -v target="$TARGET_PERCENT" -v kernel="$(basename "$image")" '
function sort(v, n, w,    i, j, t) {	# w[1..n] = v[1..n], ascending
	for (i = 1; i <= n; i++)
		w[i] = v[i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && w[j - 1] > w[j]; j--) {
			t = w[j]; w[j] = w[j - 1]; w[j - 1] = t
		}
}
function quantile(v, n, q,    w, p, k) {	# linear interpolation
	sort(v, n, w)
	p = 1 + (n - 1) * q
	k = int(p)
	return k >= n ? w[n] : w[k] + (p - k) * (w[k + 1] - w[k])
}
{
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	per = f["elapsed_ns"] / f["iterations"]
	iters = f["iterations"]
	if (f["config"] == "A") a[f["round"]] = per
	else b[f["round"]] = per
	order[f["round"]] = order[f["round"]] f["config"]
}
END {
	for (r = 1; r <= rounds; r++)
		if (!(r in a) || !(r in b)) {
			printf "bench-fs: round %d has no result\n", r > "/dev/stderr"
			exit 1
		}
	printf "\nbench-fs: %d x (open(O_CREAT|O_EXCL) + close + unlink) of a well-formed name on tmpfs,\n", iters
	printf "          Debian stock kernel (%s), %d rounds, order alternating\n\n", kernel, rounds
	printf "  %-7s %-5s %21s %21s %9s\n", "round", "order", "without modules", "utf8guard_fs enforce", "B/A"
	for (r = 1; r <= rounds; r++) {
		ratio[r] = b[r] / a[r]
		printf "  %-7d %-5s %15.0f ns/it %15.0f ns/it %9.4f\n", r, order[r], a[r], b[r], ratio[r]
	}
	ma = quantile(a, rounds, 0.5); mb = quantile(b, rounds, 0.5)
	printf "  %-13s %15.0f ns/it %15.0f ns/it %9.4f\n", "median", ma, mb, mb / ma
	over = (mb / ma - 1) * 100
	paired = (quantile(ratio, rounds, 0.5) - 1) * 100
	iqr = (quantile(ratio, rounds, 0.75) - quantile(ratio, rounds, 0.25)) * 100
	printf "\n  overhead of utf8guard_fs.ko in enforce: %+.1f %% (ratio of the medians %.4f)\n", over, mb / ma
	printf "  target <= %d %%: %s\n", target, over <= target ? "met" : "NOT met"
	printf "  cross-check: median of the per-round ratios %+.1f %%, their interquartile range %.1f %%\n", paired, iqr
	if (iqr > target)
		printf "  (noisy run: the rounds disagree by more than the target; try --rounds %d)\n", 2 * rounds + 1
	printf "\n  NOTE: these figures come from an emulated CPU (qemu TCG, software emulation):\n"
	printf "  the times per iteration say nothing about real hardware; only the ratio,\n"
	printf "  measured in the same VM run, means anything.\n"
}
' <<<"$results"
echo
echo "bench-fs: done (console log: $out/console.log)"
