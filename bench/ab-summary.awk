# SPDX-License-Identifier: GPL-2.0
# ab-summary.awk - the summary of an A/B benchmark run in one VM (make
# bench-fs, make bench-nf).  Input: one line per measurement,
#   bench-result: round=R config=A|B iterations=N elapsed_ns=T
# (A without the modules, B with them; the cost is T / N, lower is
# better).  Prints each round, the medians, their ratio against the
# target overhead, and the median and spread of the per-round ratios.
# Variables: bench (name), what (the measured operation), kernel, rounds,
# target (per cent), label_a, label_b (column titles), unit (of T / N),
# subject (what B adds).  Needs bench/stats.awk (awk -f stats.awk -f this).
# Other lines (bench-hits: ...) are skipped.
!/^bench-result: / { next }
{
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	per = f["elapsed_ns"] / f["iterations"]
	if (f["config"] == "A") a[f["round"]] = per
	else b[f["round"]] = per
	order[f["round"]] = order[f["round"]] f["config"]
}
END {
	for (r = 1; r <= rounds; r++)
		if (!(r in a) || !(r in b)) {
			printf "%s: round %d has no result\n", bench, r > "/dev/stderr"
			exit 1
		}
	printf "\n%s: %s,\n", bench, what
	printf "%*s  Debian stock kernel (%s), %d rounds, order alternating, %s\n\n", length(bench), "", kernel, rounds, clock == "icount" ? "guest clock -icount (instructions)" : "guest clock from the host (wall)"
	printf "  %-7s %-5s %21s %21s %9s\n", "round", "order", label_a, label_b, "B/A"
	for (r = 1; r <= rounds; r++) {
		ratio[r] = b[r] / a[r]
		printf "  %-7d %-5s %15.0f %-5s %15.0f %-5s %9.4f\n", r, order[r], a[r], unit, b[r], unit, ratio[r]
	}
	ma = quantile(a, rounds, 0.5); mb = quantile(b, rounds, 0.5)
	printf "  %-13s %15.0f %-5s %15.0f %-5s %9.4f\n", "median", ma, unit, mb, unit, mb / ma
	over = (mb / ma - 1) * 100
	paired = (quantile(ratio, rounds, 0.5) - 1) * 100
	iqr = (quantile(ratio, rounds, 0.75) - quantile(ratio, rounds, 0.25)) * 100
	printf "\n  overhead of %s: %+.1f %% (ratio of the medians %.4f)\n", subject, over, mb / ma
	printf "  target <= %d %%: %s\n", target, over <= target ? "met" : "NOT met"
	printf "  cross-check: median of the per-round ratios %+.1f %%, their interquartile range %.1f %%\n", paired, iqr
	if (iqr > target)
		printf "  (noisy run: the rounds disagree by more than the target; try --rounds %d)\n", 2 * rounds + 1
	if (clock == "icount") {
		printf "\n  NOTE: guest time under qemu -icount shift=0: one guest nanosecond per guest\n"
		printf "  instruction, so these are guest instructions (in), the same run after run;\n"
		printf "  the ratio compares instruction counts, not the time on real hardware.\n"
	} else {
		printf "\n  NOTE: these figures come from an emulated CPU (qemu TCG, software emulation):\n"
		printf "  the times per iteration say nothing about real hardware; only the ratio,\n"
		printf "  measured in the same VM run, means anything (and it moves with the host's load).\n"
	}
}
