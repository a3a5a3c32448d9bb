# SPDX-License-Identifier: GPL-2.0 OR MIT
# validate-table.awk - the table of `make bench` (bench/validate.sh).
# Input files: results ("impl corpus unit valid ns-per-unit" lines, one
# per round), and instructions from callgrind and from single-stepping
# ("impl corpus unit count-of-0-passes count-of-N-passes units N").
# Each figure shown is the median of the rounds.
# Variables: cpu (model name), samples, rounds.  Needs bench/stats.awk.
# Exit status 1 when the implementations disagree on a corpus's validity.
BEGIN {
	nimpl = split("simdutf utf8guard scalar scalar-plain sse4.1 avx2 avx512 utf8guard-policy all-classes table-dfa glib icu cpython", impls, " ")
	nkind = split("ascii latin cjk emoji ill-formed", kinds, " ")
	nsize = split("16 20 60 255", sizes, " ")
}
FNR == 1 { file++ }
file == 1 {
	n = ++count[$1, $2]
	times[$1, $2, n] = $5
	unit[$2] = $3
	# all-classes judges more than UTF-8: not part of the agreement
	if ($1 == "all-classes")
		next
	if (!(($2) in first_valid))
		first_valid[$2] = $4
	else if (first_valid[$2] != $4)
		disagree[$2] = 1
	next
}
file == 2 && $6 > 0 {
	# per byte for the text corpora, per name for the names
	per[$1, $2] = ($5 - $4) / ($7 * $6 * ($2 ~ /-text$/ ? $3 : 1))
	have_ir = 1
}
file == 3 && $6 > 0 {
	stepped[$1, $2] = ($5 - $4) / ($7 * $6 * ($2 ~ /-text$/ ? $3 : 1))
	have_steps = 1
}
function cell(impl, corpus, text,    t, s, r) {
	if (!((impl, corpus) in ns))
		return sprintf("%14s", "-")
	t = ns[impl, corpus]
	s = ns["simdutf", corpus]
	r = s > 0 ? s / t : 0
	if (text)
		return sprintf("%7.2f (%4.2f)", unit[corpus] / t, r)
	return sprintf("%7.1f (%4.2f)", t, r)
}
function header(title,    i) {
	printf "\n%s\n%-15s", title, "corpus"
	for (i = 1; i <= nimpl; i++)
		printf " %14s", impls[i]
	printf "\n"
}
function row(corpus, label, text,    i) {
	printf "%-15s", label
	for (i = 1; i <= nimpl; i++)
		printf " %s", cell(impls[i], corpus, text)
	printf "%s\n", corpus in disagree ? "  <- implementations DISAGREE" : ""
}
function ratio_line(what, num, den, corpora, target, higher_better,    n, c, i, r, worst, text, ok) {
	n = split(corpora, c, " ")
	ok = 1
	text = ""
	for (i = 1; i <= n; i++) {
		if (!((num, c[i]) in ns) || !((den, c[i]) in ns))
			continue
		r = ns[den, c[i]] / ns[num, c[i]]
		text = text sprintf(" %s %.2fx", c[i], r)
		if (r < target)
			ok = 0
	}
	printf "  %-52s%s: %s\n", what, text, ok ? "met" : "NOT met"
}
function instruction_table(how, count, rows,    nir, irc, nrow, names, m, i) {
	printf "\nInstructions (%s): per byte of 64 KiB text, per name\n%-17s", how, "implementation"
	nir = split("ascii-text latin-text cjk-text emoji-text ascii-name20 cjk-name60", irc, " ")
	for (i = 1; i <= nir; i++)
		printf " %12s", irc[i]
	printf "\n"
	nrow = split(rows, names, " ")
	for (m = 1; m <= nrow; m++) {
		if (!((names[m], irc[1]) in count))
			continue	# a path this CPU lacks
		printf "%-17s", names[m]
		for (i = 1; i <= nir; i++)
			printf " %12.2f", count[names[m], irc[i]]
		printf "\n"
	}
}
function median(key, n,    i, v) {
	for (i = 1; i <= n; i++)
		v[i] = times[key, i]
	return quantile(v, n, 0.5)
}
END {
	for (key in count)
		ns[key] = median(key, count[key])
	printf "utf8guard validator benchmark (make bench)\n"
	printf "CPU: %s, real (not emulated); every figure the median of %s rounds,\n", cpu, rounds
	printf "each the median of %s samples of >= 20 ms\n", samples
	printf "simdutf is Node's buffer.isUtf8; utf8guard is utf8guard_first_error() as shipped (the best vector path\n"
	printf "from %d bytes, scalar below); scalar, sse4.1, avx2 and avx512 the same forced onto one path for every length;\n", minlen
	printf "scalar takes its BMI2 build where the CPU has BMI2 (as shipped), scalar-plain its build for plain x86-64;\n"
	printf "utf8guard-policy is utf8guard_first_violation() with the default classes;\n"
	printf "all-classes the name check (utf8guard_name_violation()) with every class on, names only;\n"
	printf "table-dfa the core's DFA table walked a byte at a time; glib g_utf8_validate_len; icu u_strFromUTF8 (preflight);\n"
	printf "cpython bytes.decode(\"utf-8\").  (x) = speed relative to simdutf: 1.00 as fast, 2.00 twice as fast.\n"
	printf "Per name, simdutf and cpython include the call from JavaScript or Python (some 30 ns for node).\n"
	header("64 KiB text: GB/s (ratio to simdutf)")
	for (k = 1; k <= nkind; k++)
		row(kinds[k] "-text", kinds[k], 1)
	header("Names: ns per name (ratio to simdutf)")
	for (k = 1; k <= nkind; k++)
		for (s = 1; s <= nsize; s++)
			row(kinds[k] "-name" sizes[s], kinds[k] " " sizes[s] " B", 0)
	if (have_ir)
		instruction_table("callgrind, the paths valgrind runs", per, "scalar scalar-plain avx2 table-dfa")
	if (have_steps)
		instruction_table("single-stepped, the paths as this CPU runs them", stepped, "utf8guard avx2 avx512 utf8guard-policy")
	printf "\nTargets of issue 8 (ratios from this run):\n"
	ratio_line("64 KiB utf8guard >= 1.0x simdutf, every corpus", "utf8guard", "simdutf", "ascii-text latin-text cjk-text emoji-text ill-formed-text", 1.0)
	ratio_line("64 KiB scalar path >= 2x table DFA, non-ASCII text", "scalar", "table-dfa", "latin-text cjk-text emoji-text", 2.0)
	ratio_line("  the same, its plain build (no BMI2)", "scalar-plain", "table-dfa", "latin-text cjk-text emoji-text", 2.0)
	if (have_steps) {
		ok = 1
		text = ""
		split("latin-text cjk-text emoji-text", real, " ")
		for (i = 1; i <= 3; i++) {
			text = text sprintf(" %s %.3f", real[i], stepped["utf8guard", real[i]])
			if (stepped["utf8guard", real[i]] > 0.5)
				ok = 0
		}
		printf "  %-52s%s: %s\n", "<= 0.5 instructions per byte on real text", text, ok ? "met" : "NOT met"
	}
	t = ns["utf8guard-policy", "ascii-name20"]
	printf "  %-52s %.1f ns: %s\n", "policy check of a 20-byte ASCII name <= 15 ns", t, t <= 15 ? "met" : "NOT met"
	t = ns["utf8guard-policy", "cjk-name60"]
	printf "  %-52s %.1f ns: %s\n", "policy check of a 60-byte CJK name <= 60 ns", t, t <= 60 ? "met" : "NOT met"
	printf "\nTarget of issue 7:\n"
	t = ns["all-classes", "cjk-name60"]
	printf "  %-52s %.1f ns: %s\n", "name check, every class, 60-byte CJK name <= 60 ns", t, t <= 60 ? "met" : "NOT met"
	bad = 0
	for (c in disagree)
		bad++
	if (bad) {
		printf "\nERROR: the implementations disagree on the validity of %d corpora (marked above)\n", bad
		exit 1
	}
	printf "\nAll implementations agree on which corpora are valid.\n"
}
