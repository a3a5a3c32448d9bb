#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh on Debian's STOCK kernel: the filesystem hook suite,
# the netfilter hook suite, then the integration suite (which ends by locking, pinning utf8guard.ko
# until reboot), then the fs hook's checks under that lock.
set -u
mods=/utf8guard/modules
tools=/utf8guard/tools
status=0
sh $tools/fs_hook_test.sh $mods $tools || status=1
sh $tools/nf_hook_test.sh $mods $tools || status=1
sh $tools/integration_test.sh $mods $tools || status=1
sh $tools/fs_hook_test.sh --after-lock $mods $tools || status=1
exit $status
