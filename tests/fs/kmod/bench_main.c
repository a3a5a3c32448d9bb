// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/main.c, and where a check stops (bench.h). */
#include <linux/moduleparam.h>

#include "bench.h"

unsigned int fs_bench_stop;
module_param_named(stop, fs_bench_stop, uint, 0644);
MODULE_PARM_DESC(stop, "Benchmark only: where a create/mkdir/mknod check stops: 0 nowhere, 1 at the pre-handler's entry, 2 before the scan, 3 before the counters");

#include "fs/main.c"
