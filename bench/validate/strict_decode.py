# SPDX-License-Identifier: GPL-2.0 OR MIT
"""strict_decode.py - CPython's strict UTF-8 codec (bytes.decode), timed on
the corpora of `validate_bench write DIR` like the other implementations
(samples of 20 ms or more, median per unit).

Usage: python3 strict_decode.py DIR SAMPLES
Prints "cpython <corpus> <unit> <valid 0|1> <median ns per unit>".
"""
import os
import sys
import time

KINDS = ["ascii", "latin", "cjk", "emoji", "ill-formed"]
NAME_SIZES = [16, 20, 60, 255]
SAMPLE_NS = 20_000_000


def valid(unit):
    try:
        unit.decode("utf-8")
        return 1
    except UnicodeDecodeError:
        return 0


def one_pass(units):
    return sum(valid(u) for u in units)


def time_units(units, samples):
    passes = 1
    while True:
        start = time.perf_counter_ns()
        for _ in range(passes):
            one_pass(units)
        elapsed = time.perf_counter_ns() - start
        if elapsed >= SAMPLE_NS:
            break
        passes *= 8 if elapsed < SAMPLE_NS // 16 else 2
    times = []
    for _ in range(samples):
        start = time.perf_counter_ns()
        for _ in range(passes):
            one_pass(units)
        times.append(time.perf_counter_ns() - start)
    times.sort()
    return times[samples // 2] / passes / len(units)


def main():
    directory, samples = sys.argv[1], int(sys.argv[2])
    for kind in KINDS:
        corpora = [(f"{kind}-text", 65536)]
        corpora += [(f"{kind}-name{size}", size) for size in NAME_SIZES]
        for corpus, unit in corpora:
            with open(os.path.join(directory, corpus + ".bin"), "rb") as f:
                data = f.read()
            units = [data[at:at + unit]
                     for at in range(0, len(data) - unit + 1, unit)]
            ok = 1 if one_pass(units) == len(units) else 0
            print(f"cpython {corpus} {unit} {ok} "
                  f"{time_units(units, samples):.3f}", flush=True)


if __name__ == "__main__":
    main()
