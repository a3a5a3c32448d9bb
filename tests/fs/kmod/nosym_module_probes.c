// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_nosym.ko: kernel/fs/module_probes.c unchanged (see nosym_probes.c). */
#include "fs/module_probes.c"
