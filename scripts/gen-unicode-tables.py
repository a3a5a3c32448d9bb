#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Generate core/utf8guard_unicode_tables.h from the Unicode data files.

    scripts/gen-unicode-tables.py [--data DIR] [--output FILE]
    scripts/gen-unicode-tables.py --check [--data DIR] [--output FILE]

DIR defaults to /usr/share/unicode (Debian's unicode-data package).  The
first form writes FILE (default core/utf8guard_unicode_tables.h); --check
regenerates it in memory and exits 1, with a diff, if FILE differs.

Everything the normalize-reject classes need comes from the data files:

  UnicodeData.txt                 canonical combining classes, canonical
                                  and compatibility decompositions
  DerivedCoreProperties.txt       Default_Ignorable_Code_Point
  DerivedNormalizationProps.txt   NFC_QC, Full_Composition_Exclusion

plus two short lists kept here, with their reasons: the bidi controls the
issue names, and the characters that visibly stand in for '/', '\\' or '.'
without a compatibility decomposition saying so.

The tables (see core/utf8guard_unicode.c for how they are read):

  props       one byte per code point below PROPS_LIMIT: class flags and
              the NFC quick-check answer; two-stage (block index, blocks)
  ccc         canonical combining class, same two-stage layout
  decomp      canonical decompositions, one level (UnicodeData field 5),
              sorted by code point, packed cp:21 | first:21 | second:21
  compose     indices into decomp of the primary composites, sorted by
              (first, second), for canonical composition

Above PROPS_LIMIT every code point is NFC_QC=Yes with combining class 0;
the only class there is Default_Ignorable_Code_Point on U+E0000..U+E0FFF,
which the lookup tests directly.  The generator checks both facts against
the data and fails if a new Unicode version breaks them.
"""
import argparse
import difflib
import os
import re
import sys

PROPS_LIMIT = 0x30000
BLOCK_SHIFT = 6
BLOCK = 1 << BLOCK_SHIFT
IGNORABLE_PLANE14 = (0xE0000, 0xE0FFF)

# Bit numbers of the props byte; core/utf8guard_unicode.h has the same.
FLAG_CONTROL = 0x01
FLAG_BIDI = 0x02
FLAG_IGNORABLE = 0x04
FLAG_BOM = 0x08
FLAG_CONFUSABLE_PATH = 0x10
FLAG_COMBINING = 0x20
QC_SHIFT = 6
QC_YES, QC_MAYBE, QC_NO = 0, 1, 2

# The bidi formatting characters of the issue (Trojan Source,
# CVE-2021-42574): ALM, LRM, RLM, LRE..RLO, LRI..PDI.
BIDI = [0x061C, 0x200E, 0x200F] + list(range(0x202A, 0x202F)) + \
    list(range(0x2066, 0x206A))

# Characters drawn as a slash, backslash or full stop that NFKC leaves
# alone (so the data cannot find them).  Symbols only: letters and digits
# that happen to look alike (KATAKANA NO, ARABIC-INDIC DIGIT ZERO) are
# ordinary text in their scripts and are not refused.
CONFUSABLE_PATH_EXTRA = {
    0x1735: "PHILIPPINE SINGLE PUNCTUATION, drawn as '/'",
    0x2044: "FRACTION SLASH",
    0x2215: "DIVISION SLASH",
    0x2216: "SET MINUS, drawn as '\\'",
    0x2571: "BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT",
    0x2572: "BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT",
    0x27CB: "MATHEMATICAL RISING DIAGONAL",
    0x27CD: "MATHEMATICAL FALLING DIAGONAL",
    0x29F5: "REVERSE SOLIDUS OPERATOR",
    0x29F8: "BIG SOLIDUS",
    0x29F9: "BIG REVERSE SOLIDUS",
    0x0701: "SYRIAC SUPRALINEAR FULL STOP",
    0x0702: "SYRIAC SUBLINEAR FULL STOP",
    0xA4F8: "LISU LETTER TONE MYA TI, drawn as '.'",
    0x10A50: "KHAROSHTHI PUNCTUATION DOT",
}
PATH_CHARACTERS = (0x2E, 0x2F, 0x5C)


def data_lines(path):
    """(fields, comment-free) of each data line of a UCD file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def code_range(text):
    if ".." in text:
        first, last = text.split("..")
        return range(int(first, 16), int(last, 16) + 1)
    return range(int(text, 16), int(text, 16) + 1)


def version_of(path):
    with open(path, encoding="utf-8") as f:
        match = re.match(r"# \S+-(\d+\.\d+\.\d+)\.txt", f.readline())
    if not match:
        sys.exit(f"gen-unicode-tables: no version line in {path}")
    return match.group(1)


def read_unicode_data(path):
    """ccc and decomposition mappings (tag or None, code points)."""
    ccc = {}
    decomposition = {}
    for fields in data_lines(path):
        cp = int(fields[0], 16)
        if fields[3] != "0":
            ccc[cp] = int(fields[3])
        if fields[5]:
            parts = fields[5].split()
            tag = parts[0] if parts[0].startswith("<") else None
            mapping = [int(p, 16) for p in (parts[1:] if tag else parts)]
            decomposition[cp] = (tag, mapping)
    return ccc, decomposition


def read_property(path, name, value=None):
    result = {}
    for fields in data_lines(path):
        if fields[1] != name:
            continue
        if value is not None and (len(fields) < 3 or fields[2] != value):
            continue
        for cp in code_range(fields[0]):
            result[cp] = True
    return set(result)


def full_decomposition(cp, decomposition, compatibility):
    tag, mapping = decomposition.get(cp, (None, None))
    if mapping is None or (tag and not compatibility):
        return [cp]
    out = []
    for part in mapping:
        out.extend(full_decomposition(part, decomposition, compatibility))
    return out


def two_stage(values, name, limit):
    """Stage 1 (block numbers) and the distinct blocks of @values."""
    blocks = []
    index = {}
    stage1 = []
    for start in range(0, limit, BLOCK):
        block = tuple(values[start:start + BLOCK])
        if block not in index:
            index[block] = len(blocks)
            blocks.append(block)
        stage1.append(index[block])
    if len(blocks) > 256:
        sys.exit(f"gen-unicode-tables: {name}: {len(blocks)} blocks, "
                 "more than a u8 stage 1 can name")
    return stage1, blocks


def c_array(ctype, name, values, per_line, width):
    lines = [f"static const {ctype} {name}[{len(values)}] = {{"]
    for k in range(0, len(values), per_line):
        chunk = values[k:k + per_line]
        lines.append("\t" + " ".join(f"0x{v:0{width}x}," for v in chunk))
    lines.append("};")
    return "\n".join(lines)


def generate(data):
    version = version_of(os.path.join(data, "DerivedCoreProperties.txt"))
    ccc, decomposition = read_unicode_data(
        os.path.join(data, "UnicodeData.txt"))
    normalization = os.path.join(data, "DerivedNormalizationProps.txt")
    qc_no = read_property(normalization, "NFC_QC", "N")
    qc_maybe = read_property(normalization, "NFC_QC", "M")
    exclusions = read_property(normalization, "Full_Composition_Exclusion")
    ignorable = read_property(
        os.path.join(data, "DerivedCoreProperties.txt"),
        "Default_Ignorable_Code_Point")

    confusable = {}
    for cp in decomposition:
        if cp in PATH_CHARACTERS:
            continue
        nfkd = full_decomposition(cp, decomposition, True)
        if any(c in PATH_CHARACTERS for c in nfkd):
            confusable[cp] = "NFKC contains " + "".join(
                chr(c) for c in nfkd if c < 0x80)
    for cp, why in CONFUSABLE_PATH_EXTRA.items():
        if cp in confusable:
            sys.exit(f"gen-unicode-tables: U+{cp:04X} is in the data "
                     "already; drop it from CONFUSABLE_PATH_EXTRA")
        confusable[cp] = why

    # Above PROPS_LIMIT, only the plane-14 ignorables the code tests.
    for name, cps in (("NFC_QC", qc_no | qc_maybe), ("ccc", set(ccc)),
                      ("confusable-path", set(confusable))):
        high = [cp for cp in cps if cp >= PROPS_LIMIT]
        if high:
            sys.exit(f"gen-unicode-tables: {name} above U+{PROPS_LIMIT:X}:"
                     f" U+{high[0]:X}; raise PROPS_LIMIT")
    high_ignorable = {cp for cp in ignorable if cp >= PROPS_LIMIT}
    if high_ignorable != set(range(IGNORABLE_PLANE14[0],
                                   IGNORABLE_PLANE14[1] + 1)):
        sys.exit("gen-unicode-tables: Default_Ignorable_Code_Point above "
                 f"U+{PROPS_LIMIT:X} is no longer U+E0000..U+E0FFF")
    bad_bidi = [cp for cp in BIDI if cp not in ignorable]
    if bad_bidi:
        sys.exit(f"gen-unicode-tables: U+{bad_bidi[0]:04X} (bidi) is not "
                 "Default_Ignorable_Code_Point any more")

    props = [0] * PROPS_LIMIT
    for cp in list(range(0x20)) + [0x7F] + list(range(0x80, 0xA0)):
        props[cp] |= FLAG_CONTROL
    for cp in BIDI:
        props[cp] |= FLAG_BIDI
    for cp in ignorable:
        if cp < PROPS_LIMIT:
            props[cp] |= FLAG_IGNORABLE
    props[0xFEFF] |= FLAG_BOM
    for cp in confusable:
        props[cp] |= FLAG_CONFUSABLE_PATH
    for cp in ccc:
        props[cp] |= FLAG_COMBINING
    for cp in qc_maybe:
        props[cp] |= QC_MAYBE << QC_SHIFT
    for cp in qc_no:
        props[cp] |= QC_NO << QC_SHIFT
    ccc_values = [ccc.get(cp, 0) for cp in range(PROPS_LIMIT)]

    props_stage1, props_blocks = two_stage(props, "props", PROPS_LIMIT)
    ccc_stage1, ccc_blocks = two_stage(ccc_values, "ccc", PROPS_LIMIT)

    decomp = []
    for cp in sorted(decomposition):
        tag, mapping = decomposition[cp]
        if tag:
            continue
        if len(mapping) > 2:
            sys.exit(f"gen-unicode-tables: U+{cp:04X} decomposes into "
                     f"{len(mapping)} code points in one step")
        first = mapping[0]
        second = mapping[1] if len(mapping) == 2 else 0
        decomp.append((cp, first, second))
    decomp_packed = [cp << 42 | first << 21 | second
                     for cp, first, second in decomp]
    compose = sorted(
        (k for k, (cp, first, second) in enumerate(decomp)
         if second and cp not in exclusions),
        key=lambda k: (decomp[k][1], decomp[k][2]))
    if len(decomp) > 0xFFFF:
        sys.exit("gen-unicode-tables: decomp too long for u16 indices")
    longest = max(len(full_decomposition(cp, decomposition, False))
                  for cp in decomposition)
    if longest > 4:
        sys.exit(f"gen-unicode-tables: a full canonical decomposition of "
                 f"{longest} code points; raise UTF8GUARD_DECOMPOSITION_MAX")

    # Lead bytes all of whose characters no class refuses and that are NFC
    # starters with quick check Yes: the scan skips them whole.
    def lead_range(b):
        if b < 0x80:
            return range(b, b + 1)
        if 0xC2 <= b <= 0xDF:
            return range((b & 0x1F) << 6, ((b & 0x1F) << 6) + 64)
        if b == 0xE0:
            return range(0x800, 0x1000)
        if b == 0xED:
            return range(0xD000, 0xD800)
        if 0xE1 <= b <= 0xEF:
            return range((b & 0xF) << 12, ((b & 0xF) << 12) + 0x1000)
        if b == 0xF0:
            return range(0x10000, 0x40000)
        if 0xF1 <= b <= 0xF3:
            return range((b & 7) << 18, ((b & 7) << 18) + 0x40000)
        if b == 0xF4:
            return range(0x100000, 0x110000)
        return None

    def plain(cp):
        if cp >= PROPS_LIMIT:
            return not (IGNORABLE_PLANE14[0] <= cp <= IGNORABLE_PLANE14[1])\
                and (cp & 0xFFFE) != 0xFFFE
        return props[cp] == 0 and not 0xFDD0 <= cp <= 0xFDEF and \
            (cp & 0xFFFE) != 0xFFFE

    # Continuation bytes are plain too: in well-formed text, a run of
    # bytes all plain is a run of plain characters, whatever the lead.
    byte_plain = []
    for b in range(256):
        cps = lead_range(b)
        ok = 0x80 <= b <= 0xBF or \
            (cps is not None and all(plain(cp) for cp in cps))
        byte_plain.append(1 if ok else 0)

    sizes = {
        "props": len(props_stage1) + len(props_blocks) * BLOCK,
        "ccc": len(ccc_stage1) + len(ccc_blocks) * BLOCK,
        "decomp": len(decomp_packed) * 8,
        "compose": len(compose) * 2,
        "byte_plain": 256,
    }
    total = sum(sizes.values())
    out = [
        "/* SPDX-License-Identifier: GPL-2.0 OR MIT */",
        "/*",
        " * Generated by scripts/gen-unicode-tables.py from the Unicode "
        f"{version}",
        " * data files (Debian's unicode-data).  Do not edit: change the "
        "generator",
        " * and run it; the `unicode` test suite fails when this file and "
        "the",
        " * generator's output differ.",
        " *",
        f" * .rodata: {total} bytes (props {sizes['props']}, "
        f"ccc {sizes['ccc']},",
        f" * decomp {sizes['decomp']}, compose {sizes['compose']}).",
        " */",
        "#ifndef UTF8GUARD_UNICODE_TABLES_H",
        "#define UTF8GUARD_UNICODE_TABLES_H",
        "",
        f'#define UTF8GUARD_UNICODE_VERSION "{version}"',
        f"#define UNICODE_PROPS_LIMIT 0x{PROPS_LIMIT:x}",
        f"#define UNICODE_BLOCK_SHIFT {BLOCK_SHIFT}",
        f"#define UNICODE_IGNORABLE_HIGH_FIRST 0x{IGNORABLE_PLANE14[0]:x}",
        f"#define UNICODE_IGNORABLE_HIGH_LAST 0x{IGNORABLE_PLANE14[1]:x}",
        f"#define UNICODE_DECOMP_COUNT {len(decomp_packed)}",
        f"#define UNICODE_COMPOSE_COUNT {len(compose)}",
        "",
        c_array("u8", "props_stage1", props_stage1, 12, 2),
        "",
        c_array("u8", "props_blocks",
                [v for block in props_blocks for v in block], 12, 2),
        "",
        c_array("u8", "ccc_stage1", ccc_stage1, 12, 2),
        "",
        c_array("u8", "ccc_blocks",
                [v for block in ccc_blocks for v in block], 12, 2),
        "",
        "/* cp << 42 | first << 21 | second (0: a singleton). */",
        c_array("u64", "decomp", decomp_packed, 3, 16),
        "",
        "/*",
        " * 1 for a byte of well-formed UTF-8 that is a continuation byte, "
        "or leads",
        " * only characters no class refuses that are NFC starters with "
        "quick check",
        " * Yes: a run of such bytes is skipped whole.",
        " */",
        c_array("u8", "byte_plain", byte_plain, 12, 2),
        "",
        "/* Indices into decomp of the primary composites, by (first, "
        "second). */",
        c_array("u16", "compose", compose, 8, 4),
        "",
        "#endif /* UTF8GUARD_UNICODE_TABLES_H */",
        "",
    ]
    return "\n".join(out), total, sorted(confusable.items())


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/usr/share/unicode")
    parser.add_argument("--output", default=os.path.join(
        top, "core", "utf8guard_unicode_tables.h"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--list-confusable-path", action="store_true",
                        help="print the confusable-path characters and why")
    args = parser.parse_args()
    text, total, confusable = generate(args.data)
    if args.list_confusable_path:
        for cp, why in confusable:
            print(f"U+{cp:04X}\t{why}")
        return 0
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                committed = f.read()
        except OSError as error:
            print(f"gen-unicode-tables: {error}", file=sys.stderr)
            return 1
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True),
                args.output, "generated"))
            print(f"gen-unicode-tables: {args.output} differs from what "
                  "the generator makes of the data", file=sys.stderr)
            return 1
        print(f"gen-unicode-tables: {args.output} matches ({total} bytes)")
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"gen-unicode-tables: wrote {args.output} ({total} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
