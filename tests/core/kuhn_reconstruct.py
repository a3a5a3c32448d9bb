#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kuhn_reconstruct.py DAMAGED REBUILT - undo a lossy copy of Kuhn's test.

The copy of Markus Kuhn's UTF-8 decoder stress test in
../shared/testdata/UTF-8-test.txt (copied to tests/core/data/) was passed through a lossy decoder at
some point: every malformed sequence in it became U+FFFD (EF BF BD), so it
no longer tests anything.  This rebuilds the malformed bytes from what the
file itself says about each test (the hex spelled out on the line, or the
test's description), then proves the rebuild right: decoding it the way the
damaging decoder did must give back the damaged copy byte for byte (and
every block test must use exactly its bytes).  Exits non-zero otherwise.

Assumption, checked by that round trip: the damaging decoder replaced each
maximal subpart with one U+FFFD, except that it read a surrogate
(ED A0..BF 80..BF) whole, as one U+FFFD.
"""
import re, sys
damaged = open(sys.argv[1], 'rb').read()
lines = damaged.split(b'\n')
FFFD = b'\xef\xbf\xbd'
h = bytes.fromhex
s33 = [h('c0'), h('e080'), h('f08080'), h('f8808080'), h('fc80808080'),
       h('df'), h('efbf'), h('f7bfbf'), h('fbbfbfbf'), h('fdbfbfbfbf')]
single = {
 '2.1.5': h('f888808080'), '2.1.6': h('fc8480808080'),
 '2.2.4': h('f7bfbfbf'), '2.2.5': h('fbbfbfbfbf'), '2.2.6': h('fdbfbfbfbfbf'),
 '2.3.5': h('f4908080'),
 '3.5.1': h('fe'), '3.5.2': h('ff'), '3.5.3': h('fefeffff'),
}
single['3.1.1'] = h('80'); single['3.1.2'] = h('bf')
for k in range(3, 9):
    single['3.1.%d' % k] = bytes([0x80, 0xbf] * 4)[:k - 1]
for k, b in enumerate(s33):
    single['3.3.%d' % (k + 1)] = b
out = []
block = None   # iterator of replacement bytes for block tests
blocks = {'3.1.9': iter(range(0x80, 0xc0)), '3.2.1': iter(range(0xc0, 0xe0)),
          '3.2.2': iter(range(0xe0, 0xf0)), '3.2.3': iter(range(0xf0, 0xf8)),
          '3.2.4': iter(range(0xf8, 0xfc)), '3.2.5': iter(range(0xfc, 0xfe))}
heading = None
for n, line in enumerate(lines):
    m = re.match(rb'(\d+(?:\.\d+)*) ', line)
    if m:
        heading = m.group(1).decode()
    if FFFD not in line:
        out.append(line); continue
    spelled = re.search(rb'= ((?:[0-9a-f]{2} ?)+) *= "', line)
    if m and spelled:
        a = line.index(b'"'); b = line.index(b'"', a + 1)
        line = line[:a + 1] + h(spelled.group(1).decode().replace(' ', '')) + line[b:]
    elif m and heading in single and line.count(b'"') == 2:
        a = line.index(b'"'); b = line.index(b'"', a + 1)
        line = line[:a + 1] + single[heading] + line[b:]
    elif m and heading.startswith(('4.', '5.1', '5.2')):
        hexes = re.search(rb'= ((?:[0-9a-f]{2} ?)+) *= "', line).group(1)
        a = line.index(b'"'); b = line.index(b'"', a + 1)
        line = line[:a + 1] + h(hexes.decode().replace(' ', '')) + line[b:]
    elif heading in blocks:
        it = blocks[heading]
        line = re.sub(FFFD, lambda _: bytes([next(it)]), line)
    elif heading == '3.4':
        a = line.index(b'"'); b = line.index(b'"', a + 1)
        line = line[:a + 1] + b''.join(s33) + line[b:]
    else:
        sys.exit('unhandled line %d %r' % (n + 1, line[:40]))
    out.append(line)
rebuilt = b'\n'.join(out)
# The damaging decoder replaced each maximal subpart by one U+FFFD, except
# that it read a surrogate (ED A0..BF 80..BF) whole, as one U+FFFD.
import codecs
def damage(e):
    b = e.object[e.start:e.start + 3]
    if len(b) == 3 and b[0] == 0xED and 0xA0 <= b[1] <= 0xBF and 0x80 <= b[2] <= 0xBF:
        return ('\ufffd', e.start + 3)
    return ('\ufffd', e.end)
codecs.register_error('damage', damage)
again = rebuilt.decode('utf-8', 'damage').encode('utf-8')
assert again == damaged, 'rebuilt file does not decode back to the damaged copy'
for it in blocks.values():
    assert next(it, None) is None, 'block not fully used'
open(sys.argv[2], 'wb').write(rebuilt)

print('rebuilt', len(rebuilt), 'bytes; decodes back to the damaged copy exactly')
