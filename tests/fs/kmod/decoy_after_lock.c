// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_decoy.ko: kernel/fs/after_lock.c unchanged. */
#include "fs/after_lock.c"
