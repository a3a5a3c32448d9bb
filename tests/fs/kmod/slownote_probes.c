// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_slownote.ko: kernel/fs/probes.c unchanged. */
#include "fs/probes.c"
