# SPDX-License-Identifier: GPL-2.0
# fs-breakdown.awk - the summary of `make bench-fs --breakdown` and
# `--mechanisms` (bench/fs-create-unlink.sh).  Input: one line per
# measurement,
#   bench-result: round=R config=C iterations=N elapsed_ns=T
# and one per function the modules probe,
#   bench-hits: iterations=N function=F hits=H
# Prints the median cost per iteration (T / N) of each configuration, what
# it adds to the one above it (H to S: the layers of the check) and to A,
# the per-round ratios' spread, and the probed functions' entries per
# iteration.  Variables: bench, what, kernel, rounds, target (per cent),
# mode, unit, clock, configs (the configurations, e.g. "A H W S F B"),
# mounts (M's number of fs/mounts entries).
# Needs bench/stats.awk (awk -f stats.awk -f this).
BEGIN {
	n = split(configs, config, " ")
	label["A"] = "no modules"
	label["H"] = "probes armed, handler returns at once"
	label["W"] = "+ settings, overlay marks (no scan)"
	label["S"] = "+ the name's scan (nothing counted)"
	label["F"] = "+ counters: the whole check (bench build)"
	label["B"] = "the whole check (utf8guard_fs.ko)"
	label["K"] = "prototype: kprobe, pre+post_handler"
	label["N"] = "prototype: kprobe, no post_handler"
	label["O"] = "prototype: ftrace_ops SAVE_REGS|IPMODIFY"
	label["D"] = "prototype: ftrace direct call"
	label["X"] = "prototype K + utf8guard_check_name()"
	label["Y"] = "prototype O + utf8guard_check_name()"
	label["Z"] = "prototype D + utf8guard_check_name()"
	label["E"] = "B + 1 fs/mounts entry, its own"
	label["M"] = sprintf("B + %d fs/mounts entries, its own last", mounts)
	# The step of each layer is over the one below it.
	below["W"] = "H"; below["S"] = "W"; below["F"] = "S"; below["B"] = "S"
	below["H"] = "A"; below["E"] = "B"; below["M"] = "E"
}
{
	delete f
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
}
/^bench-result: / {
	cost[f["config"], f["round"]] = f["elapsed_ns"] / f["iterations"]
	seen[f["config"]] = 1
}
/^bench-hits: / {
	hits[++nhits] = f["function"]
	per_it[f["function"]] = f["hits"] / f["iterations"]
}
END {
	for (k = 1; k <= n; k++)
		for (r = 1; r <= rounds; r++)
			if (!((config[k], r) in cost)) {
				printf "%s: round %d has no result for %s\n", bench, r, config[k] > "/dev/stderr"
				exit 1
			}
	printf "\n%s: %s, breakdown in mode %s,\n", bench, what, mode
	printf "%*s  Debian stock kernel (%s), %d rounds, order rotating, %s\n\n", length(bench), "", kernel, rounds, clock == "icount" ? "guest clock -icount (instructions)" : "guest clock from the host (wall)"
	printf "  %-2s %-42s %10s %9s %9s %9s %8s\n", "", "configuration", "median", "step", "over A", "over A", "IQR"
	for (k = 1; k <= n; k++) {
		c = config[k]
		delete v
		delete q
		for (r = 1; r <= rounds; r++) {
			v[r] = cost[c, r]
			q[r] = cost[c, r] / cost["A", r]
		}
		m[c] = quantile(v, rounds, 0.5)
		iqr = (quantile(q, rounds, 0.75) - quantile(q, rounds, 0.25)) * 100
		# F's step is over S; B's over S too (F and B are the same check).
		prev = (c in below) && (below[c] in m) ? below[c] : ""
		printf "  %-2s %-42s %10.0f %9s %9s %8.2f%% %7.2f%%\n", c, label[c], m[c],
			prev == "" ? "" : sprintf("%+.0f", m[c] - m[prev]),
			k == 1 ? "" : sprintf("%+.0f", m[c] - m["A"]),
			(m[c] / m["A"] - 1) * 100, iqr
	}
	printf "  (%s per iteration; step: over the layer below (W over H, ..., B over S,\n  E over B, M over E); IQR: of the", unit
	printf " per-round ratios to A, in %% of A.  Target for B: <= %d %% over A: %s)\n", target, (m["B"] / m["A"] - 1) * 100 <= target ? "met" : "NOT met"
	if (nhits) {
		printf "\n  entries per iteration into the functions the modules probe (function tracer):\n"
		for (k = 1; k <= nhits; k++)
			if (per_it[hits[k]] > 0)
				printf "    %-40s %8.3f\n", hits[k], per_it[hits[k]]
		none = ""
		for (k = 1; k <= nhits; k++)
			if (per_it[hits[k]] == 0)
				none = none " " hits[k]
		if (none != "")
			printf "    never entered:%s\n", none
	}
	if (clock == "icount") {
		printf "\n  NOTE: guest time under qemu -icount shift=0: one guest nanosecond per guest\n"
		printf "  instruction, so these are guest instructions (in), the same run after run.\n"
	} else {
		printf "\n  NOTE: these figures come from an emulated CPU (qemu TCG): only the ratios,\n"
		printf "  measured in the same VM run, mean anything.\n"
	}
}
