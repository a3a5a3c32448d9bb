#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""call-graph.py - which source file calls which, and the circles.

For the .c files of core/, kernel/, kernel/fs/ and kernel/net/: finds each
file's non-static function definitions, then every use of those names in
another file (a call, or a function pointer in an initialiser), with
comments, strings and preprocessor lines stripped.  Prints one line per
edge, "FILE -> FILE: FUNCTION ...", with --list, and exits 1 naming every
circle (files that reach each other through such calls): the design docs'
"one direction" (issue 27) as a check.  Text, not a compiler: a name used
in two files' definitions counts for both.

Usage: call-graph.py [--list] TOP
"""
import os
import re
import sys

FOLDERS = ("core", "kernel", "kernel/fs", "kernel/net")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}
TOKEN = re.compile(r"[{};]|\b([A-Za-z_]\w*)\s*\(")
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
POINTER = re.compile(r"[=,(&{]\s*([A-Za-z_]\w*)\s*[,;)}]")


def strip(text):
    """Comments, string and character literals, preprocessor lines out."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2) + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = j if j >= 0 else n
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while text[j] != quote:
                j += 2 if text[j] == "\\" else 1
            out.append(quote * 2)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", "".join(out),
                  flags=re.M)


def definitions(text):
    """Names of the non-static functions @text defines."""
    depth, last = 0, 0
    for m in TOKEN.finditer(text):
        token = m.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                last = m.end()
        elif token == ";":
            if depth == 0:
                last = m.end()
        elif depth == 0 and m.group(1) not in KEYWORDS:
            j, parens = m.end(), 1
            while parens:
                parens += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            rest = text[j:j + 200].lstrip()
            if re.match(r"^(__\w+\s*)*\{", rest) and \
               "static" not in text[last:m.start()].split():
                yield m.group(1)


def graph(top):
    files = sorted(os.path.join(folder, name)
                   for folder in FOLDERS
                   for name in os.listdir(os.path.join(top, folder))
                   if name.endswith(".c"))
    bodies = {f: strip(open(os.path.join(top, f)).read()) for f in files}
    defined = {}
    for f in files:
        for name in definitions(bodies[f]):
            defined.setdefault(name, set()).add(f)
    edges = {}
    for f in files:
        used = set(CALL.findall(bodies[f])) | set(POINTER.findall(bodies[f]))
        for name in used:
            for g in defined.get(name, ()):
                if g != f:
                    edges.setdefault(f, {}).setdefault(g, set()).add(name)
    return files, edges


def circles(files, edges):
    """Strongly connected sets of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for f in files:
        if f not in index:
            visit(f)
    return found


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    files, edges = graph(args[0])
    if listing:
        for f in files:
            for g, names in sorted(edges.get(f, {}).items()):
                print(f"{f} -> {g}: {' '.join(sorted(names))}")
    found = circles(files, edges)
    for group in found:
        print("call-graph: circle: " + " <-> ".join(group), file=sys.stderr)
    print(f"call-graph: {len(files)} files, "
          f"{sum(len(v) for v in edges.values())} edges, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
