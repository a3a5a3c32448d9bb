// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_decoy.ko: kernel/fs/exempt.c unchanged (see decoy_probes.c). */
#include "fs/exempt.c"
