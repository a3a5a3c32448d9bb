/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard_fs_bench.ko: utf8guard_fs.ko whose create/mkdir/mknod check
 * stops where /sys/module/utf8guard_fs_bench/parameters/stop says
 * (enum fs_bench_stop in fs_hook.h), for `make bench-fs --breakdown`:
 * 0 the whole check, 1 the pre-handler returns at once (the hook
 * mechanism alone), 2 before the name is scanned, 3 before it is counted.
 * A benchmark build: with stop 1 or 2 names are NOT checked, and the
 * self-test (run before the pre-handler stops) still passes.
 */
#ifndef UTF8GUARD_FS_BENCH_H
#define UTF8GUARD_FS_BENCH_H

#include <linux/compiler.h>

extern unsigned int fs_bench_stop;
#define FS_BENCH_STOP(where) (READ_ONCE(fs_bench_stop) == (where))

#endif /* UTF8GUARD_FS_BENCH_H */
