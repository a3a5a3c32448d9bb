// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_bench.ko: kernel/fs/ocfs2.c unchanged (see bench.h). */
#include "fs/ocfs2.c"
