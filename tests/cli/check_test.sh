#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of `utf8guardctl check`: outputs, exit statuses, JSON ABI, terminal
# safety, and large or streamed files.  Usage: check_test.sh PATH_TO_CLI
set -u
cli=${1:?usage: check_test.sh PATH_TO_UTF8GUARDCTL}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/assert.sh
. "$here/../lib/assert.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The attack from the README, exactly as the issue specifies the ABI.
out=$("$cli" check --json --hex 2fc0ae2e2f)
status=$?
expect_eq "json for 2f c0 ae 2e 2f" \
	'{"valid":false,"offset":1,"length":1,"reason":"overlong","codepoint":46,"shadow_length":2,"path_trick":true}' "$out"
expect_eq "invalid input exits 1" 1 "$status"

out=$("$cli" check --json --hex 'e2 82 ac')
expect_eq "json for valid input" '{"valid":true}' "$out"
expect_status "valid input exits 0" 0 "$cli" check --hex e282ac

# One row per reason, through the JSON ABI.
while read -r hex want; do
	out=$("$cli" check --json --hex "$hex")
	expect_eq "json for $hex" "$want" "$out"
done <<'ROWS'
e282 {"valid":false,"offset":0,"length":2,"reason":"truncated","codepoint":null,"shadow_length":0,"path_trick":false}
41bf {"valid":false,"offset":1,"length":1,"reason":"unexpected-continuation","codepoint":null,"shadow_length":0,"path_trick":false}
fe {"valid":false,"offset":0,"length":1,"reason":"invalid-byte","codepoint":null,"shadow_length":0,"path_trick":false}
e08080 {"valid":false,"offset":0,"length":1,"reason":"overlong","codepoint":0,"shadow_length":3,"path_trick":true}
eda18cedbeb4 {"valid":false,"offset":0,"length":1,"reason":"surrogate","codepoint":55372,"shadow_length":3,"path_trick":false}
f888808080 {"valid":false,"offset":0,"length":1,"reason":"out-of-range","codepoint":2097152,"shadow_length":5,"path_trick":false}
ROWS

# --all lists every maximal subpart; the top level keeps the first error.
out=$("$cli" check --all --json --hex 'c0ae 41 80')
expect_eq "json --all" \
	'{"valid":false,"offset":0,"length":1,"reason":"overlong","codepoint":46,"shadow_length":2,"path_trick":true,"errors":[{"offset":0,"length":1,"reason":"overlong","codepoint":46,"shadow_length":2,"path_trick":true},{"offset":1,"length":1,"reason":"unexpected-continuation","codepoint":null,"shadow_length":0,"path_trick":false},{"offset":3,"length":1,"reason":"unexpected-continuation","codepoint":null,"shadow_length":0,"path_trick":false}]}' "$out"
out=$("$cli" check --all --json --hex 41)
expect_eq "json --all, valid" '{"valid":true,"errors":[]}' "$out"

# Several inputs: one line each, in command-line order; worst status wins.
out=$("$cli" check --json --hex 41 $'\xc0\xaf' --hex 42)
expect_eq "one object per input, in order" \
	'{"valid":true}
{"valid":false,"offset":0,"length":1,"reason":"overlong","codepoint":47,"shadow_length":2,"path_trick":true}
{"valid":true}' "$out"

# Human output: the span in brackets, the lenient reading named.
out=$("$cli" check --hex 2fc0ae2e2f)
expect_match "human output marks the span" '2f \[c0\] ae 2e 2f' "$out"
expect_match "human output names the trick" "path trick: '\\.'" "$out"

# Never echo raw invalid bytes or control characters to the terminal.
out=$("$cli" check --all $'a\x1b[31m\xc0\xae\x07' --file $'/nonexistent/\x1b]0;x\x07' 2>&1)
expect_no_match "no ESC, BEL or raw high bytes in output" \
	"$(printf '[\033\007\200-\377]')" "$out"
expect_match "escaped file name in the error" '\\x1b\]0;x\\x07' "$out"

# Usage and I/O errors exit 2 with a message that says what was wrong.
for args in "--hex 2g" "--hex 123" "--hex" "--bogus" "" "--file /nonexistent" "--file /"; do
	# shellcheck disable=SC2086
	msg=$("$cli" check $args 2>&1 >/dev/null)
	status=$?
	expect_eq "check $args exits 2" 2 "$status"
	expect_match "check $args explains" '^utf8guardctl check: .+' "$msg"
done
expect_status "--help exits 0" 0 "$cli" check --help
expect_status "unknown command exits 2" 2 "$cli" frobnicate

# Files: mapped (regular) and streamed (pipe) give identical reports, with
# errors placed across the streaming chunk boundary (256 KiB).
python3 - "$work/mixed.bin" <<'PY'
import random, sys
rng = random.Random(20261122)
pieces = [b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
	  b"\xc0\xae", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
	  b"\xfe", b"\x80", b"\xf8\x88\x80\x80\x80"]
out = bytearray()
chunk = 256 * 1024
for boundary in (chunk, 2 * chunk, 3 * chunk):
	while len(out) < boundary - 3:
		out += rng.choice(pieces[:4]) * rng.randint(1, 50)
	out = out[:boundary - 3]
	out += rng.choice(pieces[4:]) + b"\xe2\x82"
open(sys.argv[1], "wb").write(out)
PY
mapped=$("$cli" check --all --json --file "$work/mixed.bin")
streamed=$(cat "$work/mixed.bin" | "$cli" check --all --json --file -)
expect_eq "mapped and streamed reports agree" "$mapped" "$streamed"
count=$(printf '%s' "$mapped" | grep -o '"reason"' | wc -l)
expect_match "errors found across chunk boundaries" '^([7-9]|[1-9][0-9]+)$' "$count"

# A file much larger than the memory the process may allocate is checked
# without being read into memory; the error at its very end is found.
truncate -s 300M "$work/big.bin"
printf '\xc0\xaf' | dd of="$work/big.bin" bs=1 seek=$((300 * 1024 * 1024 - 2)) conv=notrunc status=none
out=$(ulimit -d 65536; "$cli" check --json --file "$work/big.bin")
expect_eq "300 MiB file under a 64 MiB data limit" \
	"{\"valid\":false,\"offset\":$((300 * 1024 * 1024 - 2)),\"length\":1,\"reason\":\"overlong\",\"codepoint\":47,\"shadow_length\":2,\"path_trick\":true}" "$out"
out=$(ulimit -d 65536; head -c 50M "$work/big.bin" | "$cli" check --json --file -)
expect_eq "50 MiB pipe under a 64 MiB data limit" '{"valid":true}' "$out"

: > "$work/empty"
out=$("$cli" check --file "$work/empty")
expect_match "empty file is valid" 'valid UTF-8 \(0 bytes\)' "$out"

finish_tests
