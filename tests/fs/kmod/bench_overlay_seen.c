// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/overlay_seen.c unchanged (see bench.h). */
#include "fs/overlay_seen.c"
