/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8guard_nf_bench.ko: utf8guard_nf.ko whose check of a packet to a
 * watched port stops where /sys/module/utf8guard_nf_bench/parameters/stop
 * says (enum net_bench_stop in net_hook.h), for `bench/nf-udp.sh --stop`:
 * 0 the whole check, 1 at its entry (the hook call and the port lookup),
 * 2 before the payload (headers parsed, settings and policy read), 3
 * before the verdict (payload validated, nothing counted or dropped).
 * A benchmark build: with stop 1 to 3 payloads are NOT refused.
 */
#ifndef UTF8GUARD_NET_BENCH_H
#define UTF8GUARD_NET_BENCH_H

#include <linux/compiler.h>

extern unsigned int net_bench_stop;
#define NET_BENCH_STOP(where) (READ_ONCE(net_bench_stop) == (where))

#endif /* UTF8GUARD_NET_BENCH_H */
