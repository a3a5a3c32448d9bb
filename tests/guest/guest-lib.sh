# SPDX-License-Identifier: GPL-2.0
# guest-lib.sh - helpers of the Debian guest's suites (deploy_test.sh,
# servers_test.sh), sourced after assert.sh; copied into the share by
# guest-suite.sh.
# shellcheck shell=bash

# bytes HEX: the bytes a hex string spells
bytes() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"; }

# now_ms: the guest's uptime in ms, for timings
now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# expect_apt NAME APT-GET-ARGS...: apt-get exits 0; shows what DKMS said
# and how long it took.
expect_apt() {
	local name=$1 start rc
	shift
	start=$(now_ms)
	DEBIAN_FRONTEND=noninteractive apt-get -y "$@" >/tmp/apt.log 2>&1
	rc=$?
	grep -E 'DKMS|dkms|Building|Installing|Removing|Purging|^E:|rror' /tmp/apt.log | sed -n '1,40s/^/# /p'
	echo "# apt-get $1 took $((($(now_ms) - start) / 1000)) s"
	[ "$rc" = 0 ] || tail -n 20 /tmp/apt.log | sed 's/^/# /'
	expect_eq "$name (exit status)" 0 "$rc"
}
