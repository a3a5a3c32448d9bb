// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/exempt.c unchanged. */
#include "bench.h"
#include "fs/exempt.c"
