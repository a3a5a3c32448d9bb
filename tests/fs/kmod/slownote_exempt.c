// SPDX-License-Identifier: GPL-2.0
/* utf8guard_fs_slownote.ko: kernel/fs/exempt.c unchanged (see slownote_after_lock.c). */
#include "fs/exempt.c"
