# SPDX-License-Identifier: GPL-2.0 OR MIT
# stats.awk - order statistics for the benchmark summaries (ab-summary.awk,
# validate-table.awk); load it first: awk -f stats.awk -f summary.awk.
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
