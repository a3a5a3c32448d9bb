#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot.sh - copied into the host share of a Debian guest run
# (tests/guest/guest-suite.sh) and run by the image's boot stub at every
# boot: runs stage N of the share's suite script (the stage is kept on
# the guest's disk, so that it survives the reboots), keeps the stage's
# log in the share (logs/stage-N.log), and reports on the second serial
# port, which a crash cannot write:
#   utf8guard-guest: stage N ...        the stage's "N passed, N failed"
#   utf8guard-guest: next N | done      what the host boots next
#   utf8guard-vm: success               this boot's stage passed
# The suite script exits 0 (passed, last stage), 100 (passed, reboot for
# the next stage) or anything else (failed).
share=/run/utf8guard-host
state=/var/lib/utf8guard-test
mkdir -p "$state" "$share/logs"
stage=$(cat "$state/stage" 2>/dev/null || echo 1)
suite=$(cat "$share/suite")
echo "utf8guard-guest: stage $stage of $suite, $(cut -d' ' -f1 /proc/uptime) s after boot" >/dev/ttyS1
log=$share/logs/stage-$stage.log
bash "$share/$suite" "$stage" "$share" >"$log" 2>&1
rc=$?
tr -d '\r' <"$log" >/dev/console
echo "utf8guard-guest: stage $stage: $(tail -n 1 "$log"), exit $rc at $(cut -d' ' -f1 /proc/uptime) s" >/dev/ttyS1
case $rc in
0)
	echo "utf8guard-guest: done" >/dev/ttyS1
	echo "utf8guard-vm: success" >/dev/ttyS1
	;;
100)
	echo $((stage + 1)) >"$state/stage"
	sync
	echo "utf8guard-guest: next $((stage + 1))" >/dev/ttyS1
	echo "utf8guard-vm: success" >/dev/ttyS1
	;;
esac
exit "$rc"
