// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_nosym.ko: kernel/fs/exempt.c unchanged (see nosym_probes.c). */
#include "fs/exempt.c"
