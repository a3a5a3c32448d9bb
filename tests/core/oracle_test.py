#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Python's strict UTF-8 codec as an independent oracle for the core.

Generates seeded random structured byte strings (valid characters of every
length, boundary characters, lone continuation bytes, lone and truncated
leads, overlongs, surrogates and CESU-8 pairs, values above U+10FFFF, RFC
2279 5- and 6-byte forms, FE/FF, ASCII), sends them to oracle_driver
(records on a pipe, see oracle_driver.c) and checks, for each string:

- well-formed or not, as bytes.decode('utf-8') says;
- the first error's offset and length: e.start and e.end - e.start;
- the number of errors utf8guard_scan() returns: the number of U+FFFD that
  errors='replace' produces for errors (not counting genuine EF BF BD);
- every error's offset and length, as Python's error handler sees them.

Usage: oracle_test.py --driver PATH [--seed N] [--count N]
"""

import argparse
import codecs
import random
import struct
import subprocess
import sys
import threading

DEFAULT_SEED = 3629
DEFAULT_COUNT = 1_000_000
MAX_PIECES = 12
MAX_SHOWN = 10

# Code points at the edges of each UTF-8 length and around the surrogates.
BOUNDARY_CHARACTERS = [
    0x00, 0x2E, 0x2F, 0x5C, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000,
    0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF,
]
# Lenient lengths and the smallest value that needs them (RFC 2279).
LENIENT_MINIMUM = {1: 0, 2: 0x80, 3: 0x800, 4: 0x10000, 5: 0x200000,
                   6: 0x4000000}
LENIENT_MAXIMUM = {1: 0x7F, 2: 0x7FF, 3: 0xFFFF, 4: 0x1FFFFF,
                   5: 0x3FFFFFF, 6: 0x7FFFFFFF}
# Second bytes just outside the ranges RFC 3629 allows after E0, ED, F0,
# F4, and just inside.
EDGE_PAIRS = [
    (0xE0, 0x9F), (0xE0, 0xA0), (0xED, 0x9F), (0xED, 0xA0),
    (0xF0, 0x8F), (0xF0, 0x90), (0xF4, 0x8F), (0xF4, 0x90),
    (0xC1, 0xBF), (0xC2, 0x80), (0xF4, 0xBF), (0xF5, 0x80),
]


def lenient_encode(value, length):
    """RFC 2279 encoding of value in exactly length bytes."""
    if length == 1:
        return bytes([value])
    tail = []
    for _ in range(length - 1):
        tail.append(0x80 | (value & 0x3F))
        value >>= 6
    lead = ((0xFF << (8 - length)) & 0xFF) | value
    return bytes([lead] + tail[::-1])


class Generator:
    """Random structured strings, the same for the same seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        valid_kinds = [
            (8, self.ascii),
            (6, self.valid_character),
            (3, self.boundary_character),
        ]
        bad_kinds = [
            (3, self.lone_continuation),
            (2, self.lone_lead),
            (4, self.truncated_character),
            (3, self.overlong),
            (2, self.surrogate),
            (1, self.cesu_pair),
            (2, self.out_of_range),
            (2, self.long_form),
            (2, self.truncated_long_form),
            (1, self.fe_ff),
            (2, self.edge_pair),
            (2, self.random_bytes),
        ]
        self.valid = self.kinds(valid_kinds)
        self.bad = self.kinds(bad_kinds)
        self.mixed = self.kinds(valid_kinds + bad_kinds)

    @staticmethod
    def kinds(weighted):
        return [m for _, m in weighted], [w for w, _ in weighted]

    def pieces(self, kinds, count):
        makers, weights = kinds
        return [make() for make in self.rng.choices(makers, weights,
                                                    k=count)]

    def string(self):
        """A quarter all valid, a third with one bad piece, the rest mixed."""
        count = self.rng.randint(0, MAX_PIECES)
        mode = self.rng.random()
        if mode < 0.25:
            return b''.join(self.pieces(self.valid, count))
        if mode < 0.6:
            pieces = self.pieces(self.valid, count)
            pieces.insert(self.rng.randint(0, count),
                          self.pieces(self.bad, 1)[0])
            return b''.join(pieces)
        return b''.join(self.pieces(self.mixed, count))

    def ascii(self):
        return bytes([self.rng.choice(
            (0x2F, 0x2E, 0x00, self.rng.randrange(0x80)))])

    def valid_character(self):
        length = self.rng.randint(1, 4)
        while True:
            value = self.rng.randint(LENIENT_MINIMUM[length],
                                     min(LENIENT_MAXIMUM[length], 0x10FFFF))
            if not 0xD800 <= value <= 0xDFFF:
                return chr(value).encode('utf-8')

    def boundary_character(self):
        return chr(self.rng.choice(BOUNDARY_CHARACTERS)).encode('utf-8')

    def lone_continuation(self):
        return bytes([self.rng.randint(0x80, 0xBF)])

    def lone_lead(self):
        return bytes([self.rng.randint(0xC0, 0xFF)])

    def truncated_character(self):
        whole = chr(self.rng.randint(0x80, 0x10FFFF)).encode(
            'utf-8', 'surrogatepass')
        return whole[:self.rng.randint(1, len(whole) - 1)]

    def overlong(self):
        length = self.rng.randint(2, 6)
        value = self.rng.choice((
            self.rng.randrange(0x80),
            self.rng.randrange(LENIENT_MINIMUM[length]),
            LENIENT_MINIMUM[length] - 1))
        return lenient_encode(value, length)

    def surrogate(self):
        return lenient_encode(self.rng.randint(0xD800, 0xDFFF), 3)

    def cesu_pair(self):
        value = self.rng.randint(0x10000, 0x10FFFF) - 0x10000
        return (lenient_encode(0xD800 | (value >> 10), 3) +
                lenient_encode(0xDC00 | (value & 0x3FF), 3))

    def out_of_range(self):
        return lenient_encode(self.rng.choice((
            0x110000, 0x1FFFFF, self.rng.randint(0x110000, 0x1FFFFF))), 4)

    def long_form(self):
        length = self.rng.randint(5, 6)
        return lenient_encode(self.rng.randint(
            0, LENIENT_MAXIMUM[length]), length)

    def truncated_long_form(self):
        whole = self.long_form()
        return whole[:self.rng.randint(1, len(whole) - 1)]

    def fe_ff(self):
        return bytes([self.rng.choice((0xFE, 0xFF))])

    def edge_pair(self):
        lead, second = self.rng.choice(EDGE_PAIRS)
        tail = bytes(self.rng.randint(0x80, 0xBF)
                     for _ in range(self.rng.randint(0, 4)))
        return bytes([lead, second]) + tail

    def random_bytes(self):
        return self.rng.randbytes(self.rng.randint(1, 4))


class ErrorRecorder:
    """A codec error handler that records (start, end) and replaces."""

    NAME = 'utf8guard-oracle-record'

    def __init__(self):
        self.spans = []
        codecs.register_error(self.NAME, self.handle)

    def handle(self, error):
        self.spans.append((error.start, error.end))
        return ('\ufffd', error.end)

    def decode(self, data):
        self.spans = []
        data.decode('utf-8', self.NAME)
        return self.spans


def python_verdict(data, recorder):
    """(first (offset, length) or None, replace count, error spans)."""
    try:
        data.decode('utf-8')
        first = None
    except UnicodeDecodeError as error:
        first = (error.start, error.end - error.start)
    replaced = data.decode('utf-8', 'replace').count('\ufffd')
    replaced -= data.count(b'\xef\xbf\xbd')
    spans = [(start, end - start) for start, end in recorder.decode(data)]
    return first, replaced, spans


def run_driver(driver, strings):
    """Send every string to the driver; return its whole answer."""
    process = subprocess.Popen([driver], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)

    def feed():
        chunk = []
        for data in strings:
            chunk.append(struct.pack('<I', len(data)))
            chunk.append(data)
            if len(chunk) >= 8192:
                process.stdin.write(b''.join(chunk))
                chunk = []
        process.stdin.write(b''.join(chunk))
        process.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    answer = process.stdout.read()
    writer.join()
    if process.wait() != 0:
        sys.exit(f'oracle: driver exited with {process.returncode}')
    return answer


def parse_answers(answer, count):
    """Yield (first or None, count, spans) per record."""
    header = struct.Struct('<BIII')
    item = struct.Struct('<IB')
    pos = 0
    for _ in range(count):
        bad, offset, length, errors = header.unpack_from(answer, pos)
        pos += header.size
        spans = []
        for _ in range(errors):
            spans.append(item.unpack_from(answer, pos))
            pos += item.size
        yield ((offset, length) if bad else None), errors, spans
    if pos != len(answer):
        sys.exit('oracle: driver answered more than asked')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--driver', required=True)
    parser.add_argument('--seed', type=int, default=DEFAULT_SEED)
    parser.add_argument('--count', type=int, default=DEFAULT_COUNT)
    args = parser.parse_args()

    print(f'oracle: seed {args.seed}, {args.count} strings', flush=True)
    generator = Generator(args.seed)
    strings = [generator.string() for _ in range(args.count)]
    answer = run_driver(args.driver, strings)

    recorder = ErrorRecorder()
    valid = errors = mismatches = 0
    answers = parse_answers(answer, len(strings))
    for index, (data, core) in enumerate(zip(strings, answers)):
        first, replaced, spans = python_verdict(data, recorder)
        if len(spans) != replaced:
            sys.exit('oracle: Python disagrees with itself on '
                     + data.hex(' '))
        valid += first is None
        errors += replaced
        core_first, core_count, core_spans = core
        if (core_first, core_count, core_spans) == (first, replaced, spans):
            continue
        mismatches += 1
        if mismatches <= MAX_SHOWN:
            print(f'MISMATCH #{index}: {data.hex(" ")}\n'
                  f'  core:   first {core_first}, {core_count} errors '
                  f'{core_spans}\n'
                  f'  python: first {first}, {replaced} errors {spans}',
                  file=sys.stderr)

    total_bytes = sum(len(data) for data in strings)
    print(f'oracle: {len(strings)} strings ({total_bytes} bytes) checked, '
          f'{valid} valid, {len(strings) - valid} ill-formed, {errors} '
          f'errors, {mismatches} mismatches (seed {args.seed})')
    return 1 if mismatches else 0


if __name__ == '__main__':
    sys.exit(main())
