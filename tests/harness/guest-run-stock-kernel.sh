#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /utf8guard/run.sh on Debian's STOCK kernel: the integration suite.
set -u
exec sh /utf8guard/tools/integration_test.sh /utf8guard/modules /utf8guard/tools
