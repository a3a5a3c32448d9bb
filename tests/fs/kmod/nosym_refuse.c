// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_nosym.ko: kernel/fs/refuse.c unchanged (see nosym_probes.c). */
#include "fs/refuse.c"
