#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Compare the policy's NFC check with Python's unicodedata on random text.

    random_nfc.py UNICODE_TEST [--count N] [--seed S] [--data DIR]

Draws N strings (default 100000) of 1 to 8 characters assigned both in
Python's Unicode version and in the data files' (UnicodeData.txt), half of
the characters from those that take part in normalization (combining
marks, canonical decompositions, Hangul jamo, their bases), half from all
assigned ones; asks `UNICODE_TEST nfc` about each, and compares with
unicodedata.is_normalized('NFC', s).  Prints "N passed, N failed".
"""
import argparse
import random
import subprocess
import sys
import unicodedata


def assigned_in_data(path):
    assigned = set()
    first = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cp = int(fields[0], 16)
            if fields[1].endswith(", First>"):
                first = cp
            elif fields[1].endswith(", Last>"):
                assigned.update(range(first, cp + 1))
            else:
                assigned.add(cp)
    return assigned


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("unicode_test")
    parser.add_argument("--count", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--data", default="/usr/share/unicode")
    args = parser.parse_args()

    data = assigned_in_data(args.data + "/UnicodeData.txt")
    both = [cp for cp in range(0x110000)
            if cp in data and unicodedata.category(chr(cp)) not in
            ("Cn", "Cs")]
    involved = [cp for cp in both
                if unicodedata.combining(chr(cp)) or
                (unicodedata.decomposition(chr(cp)) and
                 not unicodedata.decomposition(chr(cp)).startswith("<")) or
                0x1100 <= cp <= 0x11FF or 0xAC00 <= cp <= 0xD7A3 or
                not unicodedata.is_normalized("NFC", chr(cp))]
    bases = [ord(c) for c in "aeiouAEIOUcnszCNSZ"] + \
        [0x3B1, 0x3B5, 0x3B7, 0x3B9, 0x3BF, 0x3C5, 0x3C9, 0x413, 0x41A]
    rng = random.Random(args.seed)
    strings = []
    for _ in range(args.count):
        length = rng.randint(1, 8)
        s = []
        for _ in range(length):
            pool = rng.choice((both, involved, involved, bases))
            s.append(rng.choice(pool))
        strings.append(s)

    text = "".join(" ".join(f"{cp:X}" for cp in s) + "\n" for s in strings)
    result = subprocess.run([args.unicode_test, "nfc"], input=text,
                            capture_output=True, text=True, check=True)
    answers = result.stdout.split()
    if len(answers) != len(strings):
        print(f"random_nfc: {len(answers)} answers for {len(strings)} "
              "strings", file=sys.stderr)
        return 1
    passed = failed = nfc = 0
    for s, answer in zip(strings, answers):
        want = unicodedata.is_normalized("NFC", "".join(map(chr, s)))
        nfc += want
        if (answer == "1") == want:
            passed += 1
            continue
        failed += 1
        if failed <= 20:
            print("FAIL " + " ".join(f"U+{cp:04X}" for cp in s) +
                  f": utf8guard says {'NFC' if answer == '1' else 'not NFC'}"
                  f", Python {unicodedata.unidata_version} says "
                  f"{'NFC' if want else 'not NFC'}")
    print(f"random_nfc: seed {args.seed}, {len(both)} characters assigned "
          f"in both versions, {len(involved)} taking part in "
          f"normalization; {nfc} of {len(strings)} strings are NFC")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or nfc in (0, len(strings)) else 0


if __name__ == "__main__":
    sys.exit(main())
