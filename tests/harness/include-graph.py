#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""include-graph.py - the quoted-include graph of the kernel and core
sources, and its circles.

Resolves each `#include "x"` the way the Kbuild include paths do (the
including file's folder, then core/, kernel/), prints one line per file,
"FILE: INCLUDED ...", with --list, and exits 1 naming every circle.

Usage: include-graph.py [--list] TOP
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top):
    for folder in ("core", "kernel"):
        for root, _, files in os.walk(os.path.join(top, folder)):
            for name in files:
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(root, name), top)


def resolve(top, src, inc):
    for base in (os.path.dirname(src), "core", "kernel"):
        path = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(os.path.join(top, path)):
            return path
    return None


def main(argv):
    listing = "--list" in argv
    top = [a for a in argv if a != "--list"][0]
    graph = {}
    for src in sorted(sources(top)):
        with open(os.path.join(top, src), encoding="utf-8") as f:
            text = f.read()
        graph[src] = sorted({p for p in (resolve(top, src, i)
                                         for i in INCLUDE.findall(text)) if p})
    if listing:
        for src, incs in graph.items():
            print(f"{src}: {' '.join(incs)}")
    circles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])
    for c in circles:
        print("include circle: " + " -> ".join(c))
    print(f"include-graph: {len(graph)} files, "
          f"{sum(len(v) for v in graph.values())} includes, "
          f"{len(circles)} circles", file=sys.stderr)
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
