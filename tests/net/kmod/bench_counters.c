// SPDX-License-Identifier: GPL-2.0
/* utf8guard_nf_bench.ko: kernel/net/counters.c, its check stopped where bench.h says. */
#include "bench.h"
#include "net/counters.c"
