// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/check.c, its check stopped where bench.h says. */
#include "bench.h"
#include "fs/check.c"
