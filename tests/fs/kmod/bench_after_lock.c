// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/after_lock.c unchanged (see bench.h). */
#include "fs/after_lock.c"
