#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh of the race VM on a Debian kernel of the matrix, which
# vm-suite.sh boots under multi-threaded TCG beside the suites' VM: the
# netfilter hook's races (nf_race_test.sh), with two CPUs that really run
# at once.  "utf8guard-suite: race exit STATUS" follows its counts.
set -u
. /utf8guard/vm-lib.sh
echo "utf8guard-kernel: $(uname -r) $(uname -v)"
sh /utf8guard/tools/nf_race_test.sh /utf8guard/modules /utf8guard/tools
rc=$?
timed race
echo "utf8guard-suite: race exit $rc"
exit $rc
