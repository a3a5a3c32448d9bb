// SPDX-License-Identifier: GPL-2.0
/* utf8guard_nf_bench.ko: kernel/net/main.c, and where a check stops (bench.h). */
#include <linux/moduleparam.h>

#include "bench.h"

unsigned int net_bench_stop;
module_param_named(stop, net_bench_stop, uint, 0644);
MODULE_PARM_DESC(stop, "Benchmark only: where the check of a packet to a watched port stops: 0 nowhere, 1 at its entry, 2 before the payload, 3 before the verdict");

#include "net/main.c"
