#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of utf8guardctl's admin commands on the host: option parsing;
# set, status, stats and apply against a fake sysfs tree
# (UTF8GUARD_SYSFS, tests/cli/fake-sysfs.sh); 30+ malformed config files,
# each refused with its line number and nothing written; JSON parsed by
# python3's json, Prometheus text by prometheus_client's parser; scan on
# planted trees: refused names and symlink targets, an unreadable
# directory (as nobody), 2000 levels deep, and 1,000,000 entries within a
# memory bound.  Usage: admin_test.sh PATH_TO_CLI
set -u
cli=$(realpath "${1:?usage: admin_test.sh PATH_TO_UTF8GUARDCTL}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/assert.sh
. "$here/../lib/assert.sh"
# Debian's python3, whatever python3 is first in PATH: it has
# python3-prometheus-client.
py=/usr/bin/python3
work=$(mktemp -d)
chmod 0755 "$work"
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
fake=$work/sys
export UTF8GUARD_SYSFS=$fake
"$here/fake-sysfs.sh" "$fake" fs net
# The whole fake tree, file by file, to tell whether anything was written.
snapshot() { (cd "$fake" && find . -type f | LC_ALL=C sort | while read -r f; do printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null)"; done); }
json_ok() { printf '%s' "$1" | "$py" -c 'import json,sys; [json.loads(l) for l in sys.stdin.read().splitlines() if l]' 2>&1; }

# --- option parsing -----------------------------------------------------
for c in load unload status set apply stats check scan; do
	out=$("$cli" "$c" --help)
	expect_eq "$c --help exits 0" 0 "$?"
	expect_match "$c --help shows its usage" "^usage: utf8guardctl $c" "$out"
	out=$("$cli" "$c" --bogus 2>&1)
	expect_eq "$c --bogus exits 2" 2 "$?"
	expect_match "$c --bogus says which option" "unknown option '--bogus'" "$out"
done
for c in "load --mode" "load --policy" "load --module-dir" "scan --policy"; do
	# shellcheck disable=SC2086
	out=$("$cli" $c 2>&1)
	expect_eq "$c without its argument exits 2" 2 "$?"
	expect_match "$c: missing argument named" "missing argument for option '--${c#* --}'" "$out"
done
out=$("$cli" frobnicate 2>&1)
expect_eq "unknown command exits 2" 2 "$?"
expect_match "unknown command named" "unknown command 'frobnicate'" "$out"
out=$("$cli" --help)
for c in load unload status set apply stats check scan; do
	expect_match "main help lists $c" "^  $c " "$(grep "^  $c " <<<"$out")"
done
out=$("$cli" load --mode enforc 2>&1)
expect_eq "load --mode enforc exits 2" 2 "$?"
expect_match "load --mode enforc: why" "invalid --mode: unknown mode .*'enforc'" "$out"
out=$("$cli" load --policy 'strict bogus' 2>&1)
expect_match "load --policy with an unknown class: why" "invalid --policy: unknown class: 'bogus' at character 8" "$out"
out=$("$cli" load --module-dir "$work/nothing-here" 2>&1)
expect_eq "load --module-dir without modules exits 2" 2 "$?"
expect_match "load --module-dir: names the file" "cannot load utf8guard \\($work/nothing-here/utf8guard.ko\\)" "$out"
out=$("$cli" stats --json --prometheus 2>&1)
expect_match "stats: one format only" "choose one of --json and --prometheus" "$out"
expect_status "set with one argument" 2 "$cli" set mode
expect_status "set with three arguments" 2 "$cli" set mode audit x
expect_status "scan without DIR" 2 "$cli" scan
expect_status "check --name --path" 2 "$cli" check --name --path x
expect_status "check --name --file" 2 "$cli" check --name --file /dev/null

# --- set ------------------------------------------------------------------
before=$(snapshot)
out=$("$cli" set mode audit)
expect_eq "set mode audit" "mode = audit" "$out"
expect_eq "set mode wrote the file" audit "$(cat "$fake/mode")"
out=$("$cli" set policy 'strict path-tricks')
expect_eq "set policy" "policy = strict path-tricks" "$out"
out=$("$cli" set validator scalar)
expect_eq "set validator scalar" "validator = scalar" "$out"
expect_eq "set validator wrote the file" scalar "$(cat "$fake/validator")"
out=$("$cli" set net.ports 'tcp:80 udp:514')
expect_eq "set net.ports" "net.ports = tcp:80 udp:514" "$out"
out=$("$cli" set net.ports '')
expect_eq "set net.ports to nothing" "net.ports = " "$out"
for kv in "fs.enabled 0" "fs.fstypes ext4" "fs.check_symlink_target 0" \
	"net.enabled 0" "net.forward 1" "net.action reset"; do
	# shellcheck disable=SC2086
	expect_eq "set $kv" "${kv% *} = ${kv#* }" "$("$cli" set $kv)"
	f=${kv% *}
	expect_eq "set $kv wrote ${f/.//}" "${kv#* }" "$(cat "$fake/${f/.//}")"
done
"$here/fake-sysfs.sh" "$fake" fs net
before=$(snapshot)
while IFS='|' read -r key value want; do
	out=$("$cli" set "$key" "$value" 2>&1)
	status=$?
	expect_eq "set $key '$value' refused (exit 2)" 2 "$status"
	expect_match "set $key '$value': says why" "$want" "$out"
done <<'ROWS'
mode|enforc|invalid value for mode: unknown mode \(off, audit, enforce\): 'enforc' at character 1
mode|audit enforce|invalid value for mode: takes one word: 'enforce' at character 7
mode||invalid value for mode: is empty
policy|strict nope|unknown class: 'nope' at character 8
policy|strict +bidi|mixes a class list with \+/- edits
fs.enabled|yes|must be 0 or 1: 'yes'
net.forward|2|must be 0 or 1: '2'
net.action|Reset|must be drop or reset: 'Reset'
mode|enforce!|unknown mode
validator|avx1024|invalid value for validator: unknown validator \(auto, scalar, sse4\.1, avx2, avx512\): 'avx1024' at character 1
validator|avx2 scalar|invalid value for validator: takes one word: 'scalar' at character 6
fs.fstypes|ext4	tmpfs|byte 0x09 at character 5: values are printable ASCII
nosuch|1|unknown key 'nosuch' \(keys: mode, policy,
ROWS
expect_eq "refused sets wrote nothing" "$before" "$(snapshot)"
# fs.mount PATH VALUE: checked here first (path, mount point, classes).
while IFS='|' read -r path value want; do
	out=$("$cli" set fs.mount "$path" "$value" 2>&1)
	expect_eq "set fs.mount '$path' '$value' exits 2" 2 "$?"
	expect_match "set fs.mount '$path' '$value' says why" "$want" "$out"
done <<'ROWS'
/nonexistent-utf8guard|strict|invalid fs.mount: '/nonexistent-utf8guard': No such file or directory
/etc|strict|invalid fs.mount: '/etc' is not a mount point
/|strict nope|invalid fs.mount: unknown class: 'nope' at character 8
relative|strict|invalid fs.mount: 'relative' is not an absolute path
/||invalid fs.mount: no value
ROWS
out=$("$cli" set fs.mount / 2>&1)
expect_eq "set fs.mount PATH alone exits 2" 2 "$?"
expect_match "set fs.mount PATH alone: usage" "expected fs.mount PATH POLICY" "$out"
expect_eq "refused fs.mount sets wrote nothing" "$before" "$(snapshot)"
out=$("$cli" set fs.mount / "strict bidi" 2>&1)
expect_eq "set fs.mount / exits 0" 0 "$?"
expect_eq "set fs.mount / wrote the line" "/ strict bidi" "$(cat "$fake/fs/mounts")"
expect_eq "set fs.mount / reads it back" "fs.mount / = strict bidi" "$out"
out=$("$cli" set fs.mount / - 2>&1)
expect_eq "set fs.mount / - wrote the removal" "/ -" "$(cat "$fake/fs/mounts")"
printf '' >"$fake/fs/mounts"
# fs.exempt CGROUP [-]...: checked against the cgroup v2 mount
# (UTF8GUARD_CGROUP2 here), written in one go.
export UTF8GUARD_CGROUP2=$work/cgroup2
mkdir -p "$UTF8GUARD_CGROUP2/system.slice/restore.service" "$UTF8GUARD_CGROUP2/sp ace"
touch "$UTF8GUARD_CGROUP2/cgroup.procs"
before=$(snapshot)
sixteen=()
for k in $(seq 1 17); do sixteen+=("/c$k" -); done
while IFS='|' read -r value want; do
	# shellcheck disable=SC2086
	out=$("$cli" set fs.exempt $value 2>&1)
	expect_eq "set fs.exempt '$value' exits 2" 2 "$?"
	expect_match "set fs.exempt '$value' says why" "$want" "$out"
done <<'ROWS'
/nonexistent-utf8guard|invalid fs.exempt: no cgroup '/nonexistent-utf8guard' \(.*/cgroup2/nonexistent-utf8guard: No such file or directory\)
relative|invalid fs.exempt: 'relative' is not an absolute path
/|invalid fs.exempt: '/' is the root cgroup: it would exempt every task
//|invalid fs.exempt: '//' is the root cgroup
/cgroup.procs|invalid fs.exempt: '/cgroup.procs' is not a cgroup \(.*/cgroup2/cgroup.procs is a file\)
/system.slice /nonexistent-utf8guard|no cgroup '/nonexistent-utf8guard'
|expected fs.exempt CGROUP
ROWS
out=$("$cli" set fs.exempt "/$(printf '%0300d' 0)" 2>&1)
expect_match "set fs.exempt: a path too long" "path longer than 255 bytes" "$out"
out=$("$cli" set fs.exempt "${sixteen[@]}" 2>&1)
expect_match "set fs.exempt: 17 cgroups" "more than 16 fs.exempt cgroups" "$out"
expect_eq "refused fs.exempt sets wrote nothing" "$before" "$(snapshot)"
out=$("$cli" set fs.exempt /system.slice/restore.service 2>&1)
expect_eq "set fs.exempt CGROUP exits 0" 0 "$?"
expect_eq "set fs.exempt wrote the line" /system.slice/restore.service "$(cat "$fake/fs/exempt")"
expect_eq "set fs.exempt reads the list back" "fs.exempt = /system.slice/restore.service" "$out"
out=$("$cli" set fs.exempt /system.slice/restore.service - "/sp ace" /gone-already - 2>&1)
expect_eq "set fs.exempt with removals exits 0" 0 "$?"
expect_eq "set fs.exempt: one write, removals, an escaped blank" '/system.slice/restore.service -
/sp\040ace
/gone-already -' "$(cat "$fake/fs/exempt")"
printf '/a\n/b\n' >"$fake/fs/exempt"
expect_match "status: the exemptions" "^  exempt: /a, /b$" "$("$cli" status)"
expect_eq "status --json: the exemptions" "['/a', '/b']" \
	"$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["fs"]["exempt"])' "$("$cli" status --json)")"
printf '' >"$fake/fs/exempt"
expect_match "status: no exemption" "^  exempt: \(none\)$" "$("$cli" status)"
before=$(snapshot)
# errno -> sentence
echo 1 >"$fake/locked"
chmod 0444 "$fake/mode"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$cli" set mode off 2>&1)
expect_match "EACCES: run as root" "cannot set mode: permission denied writing $fake/mode \\(run as root\\)" "$out"
chmod 0644 "$fake/mode"
out=$("$cli" unload 2>&1)
expect_eq "unload while locked exits 2" 2 "$?"
expect_match "unload while locked: says so" "utf8guard is locked \\($fake/locked is 1\\): it stays loaded until reboot; nothing unloaded" "$out"
echo 0 >"$fake/locked"
rm -r "$fake/net"
out=$("$cli" set net.ports tcp:80 2>&1)
expect_match "ENOENT: hook not loaded" "cannot set net.ports: utf8guard_nf is not loaded \\(no $fake/net/ports\\); run 'utf8guardctl load --net'" "$out"
out=$(UTF8GUARD_SYSFS=$work/absent "$cli" set mode audit 2>&1)
expect_match "ENOENT: module not loaded" "cannot set mode: utf8guard is not loaded" "$out"

# --- status -----------------------------------------------------------------
"$here/fake-sysfs.sh" "$fake" fs net
out=$("$cli" status)
expect_eq "status exits 0 when healthy" 0 "$?"
expect_match "status: version, mode, policy" "^utf8guard 0.1.0: loaded, mode enforce, policy strict path-tricks, unlocked" "$out"
expect_match "status: validator and Unicode version" "^  validator avx2 \\(of: scalar sse4\\.1 \\[avx2\\]\\), Unicode 15\\.0\\.0$" "$out"
expect_match "status: fs hook settings" "settings: enabled 1, fstypes \\*, check_symlink_target 1" "$out"
expect_match "status: fs counters, exempted too" "^  counters: checked [0-9]+, rejected [0-9]+, audited [0-9]+, exempted [0-9]+$" "$(sed -n '/^filesystem hook/,/^[^ ]/p' <<<"$out" | grep counters)"
expect_match "status: net hook settings" "settings: enabled 1, ports \\(empty\\), forward 0" "$out"
json=$("$cli" status --json)
expect_eq "status --json parses" "" "$(json_ok "$json")"
got=$("$py" -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["loaded"], j["mode"], j["policy"], j["locked"], j["validator"], j["unicode_version"], j["fs"]["fstypes"], j["fs"]["degraded"], j["net"]["ports"], j["counters"]["checked"])' "$json")
expect_eq "status --json fields" "{'utf8guard': True, 'utf8guard_fs': True, 'utf8guard_nf': True} enforce strict path-tricks False avx2 15.0.0 * False  1" "$got"
chmod 0644 "$fake/fs/unhooked"
echo 6 >"$fake/fs/unhooked"
out=$("$cli" status)
expect_eq "status exits 1 when a hook is degraded" 1 "$?"
expect_match "status: degraded named" "filesystem hook \\(utf8guard_fs\\): loaded, DEGRADED" "$out"
expect_eq "status --json: degraded" True "$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["fs"]["degraded"])' "$("$cli" status --json)")"
out=$(UTF8GUARD_SYSFS=$work/absent "$cli" status)
expect_eq "status exits 1 when not loaded" 1 "$?"
expect_match "status: not loaded" "utf8guard: not loaded" "$out"
expect_eq "status --json when not loaded" '{"loaded":{"utf8guard":false,"utf8guard_fs":false,"utf8guard_nf":false}}' \
	"$(UTF8GUARD_SYSFS=$work/absent "$cli" status --json)"

# --- stats ------------------------------------------------------------------
"$here/fake-sysfs.sh" "$fake" fs net
# A reason the kernel may add later, and an operation: listed from the files.
echo 77 >"$fake/stats/from-the-future"
mkdir -p "$fake/fs/stats/fallocate"
echo 5 >"$fake/fs/stats/fallocate/checked"
out=$("$cli" stats)
expect_match "stats text: global overlong" "^stats/overlong +[0-9]+$" "$(grep '^stats/overlong' <<<"$out")"
expect_match "stats text: fs mkdir" "^fs/stats/mkdir/checked +[0-9]+$" "$(grep '^fs/stats/mkdir/checked' <<<"$out")"
expect_no_match "stats text: no reset file" "stats/reset " "$out"
expect_match "stats text: the connections_reset counter" "^net/stats/connections_reset +[0-9]+$" "$(grep "^net/stats/connections_reset" <<<"$out")"
json=$("$cli" stats --json)
expect_eq "stats --json parses" "" "$(json_ok "$json")"
want=$(cat "$fake/fs/stats/mkdir/rejected")
expect_eq "stats --json fs.mkdir.rejected" "$want" "$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["fs"]["mkdir"]["rejected"])' "$json")"
expect_eq "stats --json net.dropped" "$(cat "$fake/net/stats/dropped")" "$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["net"]["dropped"])' "$json")"
expect_eq "stats --json: a new file is listed" 77 "$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["utf8guard"]["from-the-future"])' "$json")"
# Every counter file appears exactly once with its value.
files=$(cd "$fake" && find . -path '*stats/*' -type f ! -name reset | wc -l)
count=$("$py" -c '
import json, sys
def n(o): return sum(n(v) if isinstance(v, dict) else 1 for v in o.values())
print(n(json.loads(sys.argv[1])))' "$json")
expect_eq "stats --json: every counter file" "$files" "$count"
prom=$("$cli" stats --prometheus)
expect_eq "stats --prometheus exits 0" 0 "$?"
parsed=$(printf '%s\n' "$prom" | "$py" -c '
import sys
from prometheus_client.parser import text_string_to_metric_families
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        labels = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
        print("%s %s {%s} %d" % (family.type, s.name, labels, s.value))
' 2>&1)
expect_eq "prometheus_client parses the output" 0 "$?"
expect_match "prometheus: reason label" "^counter utf8guard_violations_total \\{reason=overlong\\} $(cat "$fake/stats/overlong")$" "$(grep 'utf8guard_violations_total {reason=overlong}' <<<"$parsed")"
expect_match "prometheus: per hook and operation" "^counter utf8guard_fs_operation_rejected_total \\{operation=mkdir\\} $(cat "$fake/fs/stats/mkdir/rejected")$" "$(grep 'utf8guard_fs_operation_rejected_total {operation=mkdir}' <<<"$parsed")"
expect_match "prometheus: net dropped" "^counter utf8guard_net_dropped_total \\{\\} $(cat "$fake/net/stats/dropped")$" "$(grep 'utf8guard_net_dropped_total ' <<<"$parsed")"
expect_match "prometheus: mode gauge" "^gauge utf8guard_mode \\{mode=enforce\\} 1$" "$(grep 'utf8guard_mode {mode=enforce}' <<<"$parsed")"
expect_match "prometheus: new counter file listed" "utf8guard_from_the_future_total \\{\\} 77" "$parsed"
expect_match "prometheus: new operation listed" "utf8guard_fs_operation_checked_total \\{operation=fallocate\\} 5" "$parsed"
prom_samples=$(grep -vc '^#' <<<"$prom")
expect_eq "prometheus: every sample parsed" "$prom_samples" "$(wc -l <<<"$parsed")"
# Each family's HELP and TYPE once, before its samples (the format's rule).
expect_eq "prometheus: each TYPE once" "" "$(grep '^# TYPE' <<<"$prom" | sort | uniq -d)"

# --output: the same text, written beside and renamed over (utf8guard-textfile.service)
textdir=$work/textfile
mkdir -p "$textdir"
expect_status "stats --prometheus --output FILE" 0 "$cli" stats --prometheus --output "$textdir/utf8guard.prom"
expect_eq "--output: the text stdout gets" "$prom" "$(cat "$textdir/utf8guard.prom")"
expect_eq "--output: mode 0644 whatever the umask" 644 "$(stat -c %a "$textdir/utf8guard.prom")"
inode=$(stat -c %i "$textdir/utf8guard.prom")
(umask 077 && "$cli" stats --prometheus -o "$textdir/utf8guard.prom")
expect_eq "--output again: 0644 under umask 077" 644 "$(stat -c %a "$textdir/utf8guard.prom")"
expect_eq "--output again: a new file renamed over the old, not written in place" 1 \
	"$([ "$(stat -c %i "$textdir/utf8guard.prom")" != "$inode" ] && echo 1)"
expect_eq "--output: no temporary file left" "utf8guard.prom" "$(ls -A "$textdir")"
out=$("$cli" stats --json --output "$textdir/x.prom" 2>&1)
expect_eq "--output without --prometheus: exit 2" 2 "$?"
expect_match "--output without --prometheus: says so" "--output needs --prometheus" "$out"
chmod 0555 "$textdir"
before=$(cat "$textdir/utf8guard.prom")
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$cli" stats --prometheus \
	--output "$textdir/utf8guard.prom" 2>&1)
expect_eq "--output into a directory it cannot write: exit 2" 2 "$?"
expect_match "--output: the error names the file and why" \
	"cannot write .*textfile/utf8guard.prom: Permission denied" "$out"
expect_eq "--output failed: the old file unchanged" "$before" "$(cat "$textdir/utf8guard.prom")"
expect_eq "--output failed: no temporary file left" "utf8guard.prom" "$(ls -A "$textdir")"
chmod 0755 "$textdir"
# A symbolic link in the directory's place is not followed (round 14, F4).
mkdir -p "$work/elsewhere"
ln -s "$work/elsewhere" "$work/textlink"
out=$("$cli" stats --prometheus --output "$work/textlink/utf8guard.prom" 2>&1)
expect_eq "--output through a symlinked directory: exit 2" 2 "$?"
expect_match "--output: says the directory is a symbolic link" \
	"cannot write .*textlink/utf8guard.prom: its directory is a symbolic link" "$out"
expect_eq "--output: nothing written where the link points" "" "$(ls -A "$work/elsewhere")"
out=$("$cli" stats --prometheus --output "$textdir/" 2>&1)
expect_eq "--output DIR/: exit 2, not a file name" "2 not a file name" "$? ${out##*: }"
expect_eq "prometheus: families contiguous" "" "$(grep -v '^#' <<<"$prom" | sed 's/[{ ].*//' | uniq | sort | uniq -d)"
out=$(UTF8GUARD_SYSFS=$work/absent "$cli" stats --prometheus)
expect_match "prometheus when not loaded: loaded 0" '^utf8guard_loaded\{module="utf8guard"\} 0$' "$(grep 'module="utf8guard"' <<<"$out")"
expect_status "stats text when not loaded" 2 env UTF8GUARD_SYSFS="$work/absent" "$cli" stats

# --- apply ------------------------------------------------------------------
"$here/fake-sysfs.sh" "$fake" fs net
conf=$work/conf
mkdir -p "$conf"
printf '# rollout\n\nmode = enforce\n  policy=strict path-tricks  \nfs.fstypes = ext4 tmpfs\nnet.ports =\nnet.forward = 1\n' >"$conf/good"
# Order of the writes: watch the files' change times? Simpler: strace-free,
# the output lists them in the order written.
out=$("$cli" apply "$conf/good")
expect_eq "apply a good file exits 0" 0 "$?"
expect_eq "apply: hooks' settings, then policy, then mode" \
	"fs.fstypes net.ports net.forward policy mode" "$(cut -d' ' -f1 <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "apply wrote mode" enforce "$(cat "$fake/mode")"
expect_eq "apply wrote fs/fstypes" "ext4 tmpfs" "$(cat "$fake/fs/fstypes")"
expect_eq "apply --check writes nothing" "1 setting, all valid" "$(printf 'mode = off\n' | "$cli" apply --check -)"
expect_eq "apply --check wrote nothing" enforce "$(cat "$fake/mode")"
expect_eq "apply of an empty file" "" "$("$cli" apply /dev/null)"
# fs.mount lines: one write of fs/mounts, all of them.
printf 'fs.mount = / strict path-tricks\nfs.mount = /proc off\n' >"$conf/mounts"
"$cli" apply "$conf/mounts" >/dev/null
expect_eq "apply fs.mount: one write of every line" "/ strict path-tricks
/proc off" "$(cat "$fake/fs/mounts")"
printf '' >"$fake/fs/mounts"
# fs.exempt lines: one write of fs/exempt, all of them.
printf 'fs.exempt = /system.slice/restore.service\nfs.exempt = /sp ace\n' >"$conf/exempt"
"$cli" apply "$conf/exempt" >/dev/null
expect_eq "apply fs.exempt: one write of every line" '/system.slice/restore.service
/sp\040ace' "$(cat "$fake/fs/exempt")"
printf '' >"$fake/fs/exempt"

"$here/fake-sysfs.sh" "$fake" fs net
before=$(snapshot)
n=0
# bad LINE FILE-TEXT MESSAGE-REGEX: refused, error on LINE, nothing written.
bad() {
	n=$((n + 1))
	printf '%b' "$2" >"$conf/bad$n"
	out=$("$cli" apply "$conf/bad$n" 2>&1)
	status=$?
	expect_eq "bad config $n refused (exit 2)" 2 "$status"
	expect_match "bad config $n: line $1: $3" "^$conf/bad$n:$1: .*$3" "$(grep -a "^$conf/bad$n:$1: " <<<"$out")"
	expect_match "bad config $n: nothing applied" "nothing applied" "$out"
	after=$(snapshot)
	[ "$after" = "$before" ] || fail "bad config $n wrote something" "$(diff <(echo "$before") <(echo "$after"))"
}
bad 1 'mode enforce\n' "missing '='"
bad 2 '# c\nmode enforce\n' "missing '='"
bad 3 'mode = audit\n\n= enforce\n' "missing key before '='"
bad 1 'mode = enforc\n' "unknown mode"
bad 1 'mode = ENFORCE\n' "unknown mode"
bad 1 'mode =\n' "bad value for mode: is empty"
bad 1 'mode = audit enforce\n' "takes one word"
bad 2 'policy = strict\nmode = [enforce]\n' "unknown mode"
bad 1 'policy = bogus\n' "unknown class: 'bogus'"
bad 1 'policy = strict nope\n' "unknown class: 'nope' at character 8"
bad 1 'policy = +strict\n' "policy edits"
bad 1 'policy = -path-tricks\n' "policy edits"
bad 1 'policy = none strict\n' "\"none\" must stand alone"
bad 1 'policy = strict +bidi\n' "mixes a class list"
bad 1 'policy =\n' "is empty"
bad 1 'fs.enabled = yes\n' "must be 0 or 1"
bad 1 'fs.enabled = 01\n' "must be 0 or 1"
bad 1 'fs.check_symlink_target = true\n' "must be 0 or 1"
bad 1 'net.enabled = 1 1\n' "takes one word"
bad 1 'net.forward = -1\n' "must be 0 or 1"
bad 3 'mode = audit\npolicy = strict\nmode = enforce\n' "duplicate key 'mode' \\(already set on line 1\\)"
bad 4 'mode = enforc\n\n\nmode = audit\n' "duplicate key 'mode' \\(already set on line 1\\)"
bad 2 'mode = audit\nmodes = enforce\n' "unknown key 'modes'"
bad 1 'fs.fstype = ext4\n' "unknown key 'fs.fstype'"
bad 1 'FS.ENABLED = 1\n' "unknown key 'FS.ENABLED'"
bad 1 'fs enabled = 1\n' "unknown key 'fs enabled'"
bad 1 'mode = audit\r\n' "carriage return"
bad 2 'mode = audit\npolicy = strict\0\n' "NUL byte"
bad 1 'mode = audit # comment\n' "takes one word"
bad 1 'fs.fstypes = ext4\ttmpfs\n' "byte 0x09 at character 5"
bad 1 'net.ports = tcp:80 \xc0\xae\n' "byte 0xc0"
bad 1 'mode\xc0\xae = audit\n' "unknown key 'mode\\\\xc0\\\\xae'"
bad 5 'mode = audit\npolicy = strict\nfs.enabled = 1\nnet.ports = tcp:80\nfs.enabled = 0\n' "duplicate key 'fs.enabled'"
bad 1 "mode = $(head -c 5000 /dev/zero | tr '\0' a)\n" "line longer than 4096 bytes"
bad 7 '# a good file\nmode = audit\npolicy = path-tricks\nfs.enabled = 1\nfs.fstypes = *\nnet.ports = udp:514\nnet.forward = maybe\n' "must be 0 or 1"
bad 2 'fs.mount = / strict\nfs.mount = / bidi\n' "duplicate fs.mount for '/' \\(already on line 1\\)"
bad 1 'fs.mount = /etc strict\n' "'/etc' is not a mount point"
bad 1 'fs.mount = / strict nope\n' "unknown class: 'nope'"
bad 1 'fs.mount = /\n' "bad value for fs.mount: no value"
bad 2 'fs.exempt = /sp ace\nfs.exempt = /sp ace\n' "duplicate fs.exempt for '/sp ace' \\(already on line 1\\)"
bad 1 'fs.exempt = /nonexistent-utf8guard\n' "bad value for fs.exempt: no cgroup '/nonexistent-utf8guard'"
bad 1 'fs.exempt = /\n' "the root cgroup"
bad 1 'fs.exempt = system.slice\n' "is not an absolute path"
expect_match "at least 30 malformed config files" '^([3-9][0-9]|[1-9][0-9][0-9])$' "$n"
# Several wrong lines: every one reported.
printf 'mode = x\npolicy = y\nfs.enabled = z\n' >"$conf/three"
out=$("$cli" apply "$conf/three" 2>&1)
expect_eq "three wrong lines, three errors" "1 2 3" "$(grep -o '^[^ ]*three:[0-9]*' <<<"$out" | cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')"
expect_match "three wrong lines: count" "3 errors; nothing applied" "$out"
# Pre-flight: a hook not loaded, or locked: nothing written.
rm -r "$fake/net"
before=$(snapshot)
printf 'mode = audit\nnet.ports = tcp:80\n' >"$conf/nonet"
out=$("$cli" apply "$conf/nonet" 2>&1)
expect_match "apply: hook not loaded, with line" "nonet:2: net.ports: utf8guard_nf is not loaded" "$out"
expect_eq "apply: hook not loaded, nothing written" "$before" "$(snapshot)"
echo 1 >"$fake/locked"
before=$(snapshot)
out=$("$cli" apply "$conf/bad1" 2>&1)
printf 'mode = audit\n' >"$conf/locked"
out=$("$cli" apply "$conf/locked" 2>&1)
expect_match "apply while locked refused" "utf8guard is locked" "$out"
expect_eq "apply while locked: nothing written" "$before" "$(snapshot)"
out=$("$cli" apply "$conf/does-not-exist" 2>&1)
expect_match "apply: missing file" "cannot open $conf/does-not-exist: No such file or directory" "$out"

# --- check --policy / --name / --path -----------------------------------------
expect_eq "check --name '..'" '{"valid":false,"offset":0,"length":2,"reason":"dot-name","codepoint":null,"shadow_length":0,"path_trick":false}' "$("$cli" check --name --json ..)"
expect_eq "check --path 'a/b' is fine" '{"valid":true}' "$("$cli" check --path --json a/b)"
expect_eq "check --name 'a/b': slash" slash "$("$cli" check --name --json a/b | "$py" -c 'import json,sys; print(json.load(sys.stdin)["reason"])')"
expect_status "check --policy path-tricks lets Latin-1 through" 0 "$cli" check --policy path-tricks --hex 636166e9
expect_status "check --policy path-tricks refuses C0 AE" 1 "$cli" check --policy path-tricks --hex 2fc0ae2e2f
expect_status "check --policy none refuses nothing" 0 "$cli" check --policy none --hex c0ae
expect_status "check --name: 256 bytes" 1 "$cli" check --name "$(head -c 256 /dev/zero | tr '\0' a)"
expect_status "check --name: 255 bytes" 0 "$cli" check --name "$(head -c 255 /dev/zero | tr '\0' a)"

# --- scan -----------------------------------------------------------------------
t=$work/tree
mkdir -p "$t/ok/sub" "$t/locked"
touch "$t/ok/good" "$t/ok/caf$(printf '\303\251')" "$t/$(printf 'a\300\256')" \
	"$t/$(printf 'caf\351')" "$t/ok/sub/$(printf '\355\240\200')" "$t/locked/hidden$(printf '\300\257')"
ln -s "$(printf '..\300\257etc')" "$t/ok/badlink"
ln -s good "$t/ok/goodlink"
ln -s "$(printf '/tmp/\303\251')" "$t/ok/utf8link"
chmod 0755 "$t" "$t/ok" "$t/ok/sub"
chmod 0000 "$t/locked"
out=$("$cli" scan "$t" 2>"$work/err")
expect_eq "scan exits 1 on findings" 1 "$?"
expect_match "scan: C0 AE name, escaped, bytes in hex" "^$t/a\\\\xc0\\\\xae: name: overlong at byte 1: c0 ae \\(a lenient decoder reads U\\+002E: path trick\\)$" "$out"
expect_match "scan: Latin-1 name" "^$t/caf\\\\xe9: name: truncated at byte 3: e9$" "$out"
expect_match "scan: surrogate name in a subdirectory" "^$t/ok/sub/\\\\xed\\\\xa0\\\\x80: name: surrogate" "$out"
expect_match "scan: bad symlink target" "^$t/ok/badlink: symlink target '..\\\\xc0\\\\xafetc': overlong at byte 2: c0 af" "$out"
expect_no_match "scan: good names not reported" "good|caf\\\\xc3|utf8link" "$out"
expect_eq "scan: 5 findings as root (it reads the 000 directory)" 5 "$(wc -l <<<"$out")"
expect_no_match "scan: no raw bytes on the terminal" "$(printf '[\200-\377]')" "$out"
out=$("$cli" scan --policy path-tricks "$t")
expect_eq "scan --policy path-tricks: only the tricks" 3 "$(wc -l <<<"$out")"
out=$("$cli" scan --json "$t")
expect_eq "scan --json parses" "" "$(json_ok "$out")"
expect_eq "scan --json summary" '{"entries": 12, "findings": 5, "warnings": 0, "mounts_skipped": 0, "entries_off": 0, "mounts_off": [], "entries_unwatched": 0, "policy": "strict path-tricks"}' \
	"$(tail -n 1 <<<"$out" | "$py" -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["summary"]))')"
expect_eq "scan --json: path bytes exact" "$(printf '%s/a' "$t" | od -An -tx1 | tr -d ' \n')c0ae" \
	"$(grep '"kind":"name","bytes":"c0ae"' <<<"$out" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["path_hex"])')"
# The unreadable directory, as a user that cannot read it: a warning, the
# rest of the tree still scanned.
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$cli" scan "$t" 2>"$work/err")
expect_eq "scan as nobody: exit 1 (findings), despite the warning" 1 "$?"
expect_match "scan as nobody: warns on the unreadable directory" "warning: cannot open directory $t/locked: Permission denied; skipped" "$(cat "$work/err")"
expect_eq "scan as nobody: the other findings" 4 "$(wc -l <<<"$out")"
mkdir -p "$work/clean/closed" && chmod 0755 "$work/clean" && chmod 0000 "$work/clean/closed"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$cli" scan "$work/clean" >/dev/null 2>&1
expect_eq "scan: nothing found but a directory unreadable: exit 2" 2 "$?"
expect_status "scan of a clean tree exits 0" 0 "$cli" scan "$t/ok/sub/.." --policy none
expect_status "scan: options after DIR" 0 "$cli" scan "$t/ok/sub" --json --policy none
expect_status "scan of a missing directory exits 2" 2 "$cli" scan "$work/missing"
# Symlinks are not followed: a link to the planted tree adds nothing.
mkdir "$work/links" && ln -s "$t" "$work/links/to-tree"
expect_status "scan does not follow symlinks" 0 "$cli" scan "$work/links"
# Mount points: a tmpfs inside the tree is not crossed unless --no-xdev.
mkdir -p "$work/mnt/inner"
if mount -t tmpfs none "$work/mnt/inner" 2>/dev/null; then
	touch "$work/mnt/inner/$(printf 'x\300\256')"
	expect_status "scan stays on its mount (xdev)" 0 "$cli" scan "$work/mnt"
	expect_status "scan --no-xdev crosses it" 1 "$cli" scan --no-xdev "$work/mnt"
	# Each directory's own filesystem: the mount below, entry off.
	printf '%s off\n' "$work/mnt/inner" >"$fake/fs/mounts"
	expect_status "scan --no-xdev: the mount below has an entry off" 0 "$cli" scan --no-xdev "$work/mnt"
	: >"$fake/fs/mounts"
	umount "$work/mnt/inner"
else
	fail "mount a tmpfs for the xdev test (needs root)"
fi

# --- scan and status under fs/mounts entries ----------------------------------
# Two filesystems the host has without mounting anything: the work
# directory's and /dev/shm's.  The fake fs/mounts names their mount
# points; scan matches a directory to an entry by st_dev.
shm=$(mktemp -d /dev/shm/utf8guard-cli.XXXXXX)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work" "$shm"' EXIT
chmod 0755 "$shm"
mp_work=$(stat -c %m "$work")
mp_shm=$(stat -c %m "$shm")
dev_work=$(stat -c '%Hd:%Ld' "$work")
dev_shm=$(stat -c '%Hd:%Ld' "$shm")
if [ "$dev_work" = "$dev_shm" ] || [ "$mp_work" = "$mp_shm" ]; then
	fail "$work and /dev/shm on different filesystems" "both $dev_work ($mp_work, $mp_shm)"
else
	pass "$work ($dev_work on $mp_work) and /dev/shm ($dev_shm on $mp_shm): two filesystems"
fi
sw=$work/scope
mkdir -p "$sw" "$shm/t/with space"
for d in "$sw" "$shm/t"; do
	touch "$d/$(printf 'a\300\256')" "$d/$(printf 'caf\351')"
	ln -s "$(printf '..\300\257x')" "$d/link"
done
printf '%s path-tricks\n' "$mp_shm" >"$fake/fs/mounts"
out=$("$cli" scan "$sw" "$shm/t" 2>"$work/err")
expect_eq "scan, an entry for /dev/shm: exit 1" 1 "$?"
expect_eq "scan, an entry for /dev/shm: 3 + 2 findings" 5 "$(wc -l <<<"$out")"
expect_match "scan: no entry, the default policy (Latin-1 refused)" "^$sw/caf\\\\xe9: name: truncated at byte 3: e9$" "$out"
expect_no_match "scan: /dev/shm's entry path-tricks lets Latin-1 through" "^$shm/t/caf" "$out"
expect_match "scan: /dev/shm's entry named on its findings" "^$shm/t/a\\\\xc0\\\\xae: name: overlong at byte 1: c0 ae \\(a lenient decoder reads U\\+002E: path trick\\) \\[fs/mounts $mp_shm: path-tricks\\]$" "$out"
expect_match "scan: /dev/shm's entry on a symlink target" "^$shm/t/link: symlink target .* \\[fs/mounts $mp_shm: path-tricks\\]$" "$out"
out=$("$cli" scan --json "$sw" "$shm/t")
expect_eq "scan --json with an entry parses" "" "$(json_ok "$out")"
expect_eq "scan --json: the policy and entry of each finding" \
	"$(LC_ALL=C sort <<<"$sw/a\\xc0\\xae name strict path-tricks None
$sw/caf\\xe9 name strict path-tricks None
$sw/link symlink-target strict path-tricks None
$shm/t/a\\xc0\\xae name path-tricks $mp_shm
$shm/t/link symlink-target path-tricks $mp_shm")" \
	"$(grep -v '"summary"' <<<"$out" | "$py" -c 'import json,sys
for l in sys.stdin: f = json.loads(l); print(f["path"], f["kind"], f["policy"], f["fs_mount"])' | LC_ALL=C sort)"
out=$("$cli" scan --policy 'strict path-tricks' "$sw" "$shm/t" 2>&1)
expect_eq "scan --policy: the entries ignored, 6 findings" 6 "$(grep -c ': name: \|: symlink target' <<<"$out")"
expect_no_match "scan --policy: no entry named" "fs/mounts" "$out"
# An entry off: nothing judged there, and said so.
printf '%s off\n%s strict\n' "$mp_work" "$mp_shm" >"$fake/fs/mounts"
out=$("$cli" scan "$sw" "$shm/t" 2>"$work/err")
expect_eq "scan, the work filesystem off: exit 1 (/dev/shm's findings)" 1 "$?"
expect_no_match "scan, off: nothing reported there" "^$sw/" "$out"
expect_eq "scan, /dev/shm strict: the overlong, Latin-1 and the symlink target" \
	"$shm/t/a\\xc0\\xae: name: overlong at byte 1: c0 ae (a lenient decoder reads U+002E: path trick) [fs/mounts $mp_shm: strict]
$shm/t/caf\\xe9: name: truncated at byte 3: e9 [fs/mounts $mp_shm: strict]
$shm/t/link: symlink target '..\\xc0\\xafx': overlong at byte 2: c0 af (a lenient decoder reads U+002F: path trick) [fs/mounts $mp_shm: strict]" \
	"$(LC_ALL=C sort <<<"$out")"
expect_match "scan, off: said on stderr" "^utf8guardctl scan: 3 entries not judged: their filesystem's fs/mounts entry is off: $mp_work$" "$(cat "$work/err")"
out=$("$cli" scan --json "$sw")
expect_eq "scan --json, off: the summary" '{"entries": 3, "findings": 0, "warnings": 0, "mounts_skipped": 0, "entries_off": 3, "mounts_off": ["'"$mp_work"'"], "entries_unwatched": 0, "policy": "strict path-tricks"}' \
	"$(tail -n 1 <<<"$out" | "$py" -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["summary"]))')"
expect_status "scan of an off filesystem only: exit 0" 0 "$cli" scan "$sw"
# An escaped entry path (\040) is matched by its filesystem.
printf '%s strict\n' "${shm// /\\040}/t/with\\040space" >"$fake/fs/mounts"
out=$("$cli" scan "$shm/t" 2>&1)
expect_match "scan: an escaped entry path" "caf\\\\xe9: name: truncated at byte 3: e9 \\[fs/mounts $shm/t/with space: strict\\]" "$out"
# An entry whose path is not here: a warning, exit 2 on a clean tree.
printf '/nonexistent-utf8guard off\n' >"$fake/fs/mounts"
out=$("$cli" scan "$work/clean" 2>&1)
expect_eq "scan, an entry not found here: exit 2" 2 "$?"
expect_match "scan, an entry not found here: warned" "warning: fs/mounts entry /nonexistent-utf8guard: No such file or directory; its filesystem's names are judged under \"strict path-tricks\"" "$out"
# Without the fs hook, or any module: the default policy, as before.
printf '%s off\n' "$mp_work" >"$fake/fs/mounts"
out=$(UTF8GUARD_SYSFS=$work/absent "$cli" scan "$sw")
expect_eq "scan, not loaded: the default policy" 3 "$(wc -l <<<"$out")"
"$here/fake-sysfs.sh" "$work/nofs"
out=$(UTF8GUARD_SYSFS=$work/nofs "$cli" scan "$sw")
expect_eq "scan, no fs hook: the default policy" 3 "$(wc -l <<<"$out")"
: >"$fake/fs/mounts"
# No entry: the kernel's global policy, on the types of fs/fstypes only.
type_work=$(findmnt -n -o FSTYPE --target "$mp_work" | head -n 1)
printf 'path-tricks\n' >"$fake/policy"
out=$("$cli" scan "$sw" 2>"$work/err")
expect_eq "scan, global policy path-tricks: the overlong and the symlink" \
	"$sw/a\\xc0\\xae: name: overlong at byte 1: c0 ae (a lenient decoder reads U+002E: path trick)
$sw/link: symlink target '..\\xc0\\xafx': overlong at byte 2: c0 af (a lenient decoder reads U+002F: path trick)" \
	"$(LC_ALL=C sort <<<"$out")"
expect_eq "scan --json: the global policy in the summary" "path-tricks" \
	"$("$cli" scan --json "$sw" | tail -n 1 | "$py" -c 'import json,sys; print(json.load(sys.stdin)["summary"]["policy"])')"
printf 'strict path-tricks\n' >"$fake/policy"
if [ "$type_work" = tmpfs ]; then
	fail "the work directory not on tmpfs (for fs/fstypes tmpfs)" "$mp_work is tmpfs"
else
	printf 'tmpfs\n' >"$fake/fs/fstypes"
	out=$("$cli" scan "$sw" "$shm/t" 2>"$work/err")
	expect_eq "scan, fstypes tmpfs: /dev/shm's 3 findings only" \
		"$shm/t/a\\xc0\\xae
$shm/t/caf\\xe9
$shm/t/link" "$(sed 's/: .*//' <<<"$out" | LC_ALL=C sort)"
	expect_match "scan, fstypes tmpfs: the rest said on stderr" \
		"^utf8guardctl scan: 3 entries not judged: their filesystem type is not in fs/fstypes: $type_work$" \
		"$(cat "$work/err")"
	expect_eq "scan --json, fstypes tmpfs: entries_unwatched" 3 \
		"$("$cli" scan --json "$sw" | tail -n 1 | "$py" -c 'import json,sys; print(json.load(sys.stdin)["summary"]["entries_unwatched"])')"
	printf '%s strict\n' "$mp_work" >"$fake/fs/mounts"
	expect_eq "scan, fstypes tmpfs: an entry wins over fs/fstypes" 3 \
		"$("$cli" scan "$sw" 2>/dev/null | wc -l)"
	: >"$fake/fs/mounts"
	printf '*\n' >"$fake/fs/fstypes"
fi
# The types not in fs/fstypes are named by word: tmpfs after devtmpfs is a
# type of its own, not a part of "devtmpfs" (a devtmpfs mounted in a mount
# namespace of the scan's own, scanned first).
printf 'ext4\n' >"$fake/fs/fstypes"
mkdir -p "$work/devtmp"
out=$(unshare -m --propagation private sh -c '
	mount -t devtmpfs devtmpfs "$1" || exit 100
	"$2" scan "$1" "$3" 2>&1 >/dev/null' sh "$work/devtmp" "$cli" "$shm/t")
status=$?
if [ "$status" = 100 ]; then
	fail "mount a devtmpfs for the fs/fstypes word test (needs root and CONFIG_DEVTMPFS)"
else
	expect_eq "scan, devtmpfs and tmpfs not in fs/fstypes: exit 0 (not judged)" 0 "$status"
	expect_match "scan: tmpfs named apart from devtmpfs" \
		"^utf8guardctl scan: [0-9]+ entries not judged: their filesystem type is not in fs/fstypes: devtmpfs tmpfs$" \
		"$out"
fi
# The mount went with its namespace (else the exit trap's rm -rf of $work
# would reach into /dev).
if mountpoint -q "$work/devtmp"; then
	fail "the devtmpfs mount stays in the scan's mount namespace"
	umount "$work/devtmp"
fi
rmdir "$work/devtmp"
printf '*\n' >"$fake/fs/fstypes"
# status lists the entries: policy, type, source, device.
printf '%s path-tricks\n%s off\n/nonexistent-utf8guard strict\n' "$mp_shm" "$mp_work" >"$fake/fs/mounts"
out=$("$cli" status)
expect_match "status: fs/mounts count" "^  fs/mounts: 3 entries \\([0-9]+ gone since load\\)$" "$out"
expect_match "status: /dev/shm's entry" "^    $mp_shm: path-tricks \\(tmpfs, [^,]*, device $dev_shm\\)$" "$out"
expect_match "status: the work filesystem off" "^    $mp_work: off \\([a-z0-9]+, [^,]*, device $dev_work\\)$" "$out"
expect_match "status: an entry not found here" "^    /nonexistent-utf8guard: strict \\(not found here: No such file or directory\\)$" "$out"
got=$("$cli" status --json | "$py" -c 'import json,sys
fs = json.load(sys.stdin)["fs"]
for m in fs["mounts"]: print(m["path"], m["policy"], m["off"], m["fstype"], m["device"])
print(fs["mounts_gone"] == int(open(sys.argv[1]).read()))' "$fake/fs/mounts_gone")
expect_eq "status --json: fs.mounts and mounts_gone" "$mp_shm path-tricks False tmpfs $dev_shm
$mp_work off True $(findmnt -n -o FSTYPE --target "$mp_work" | head -n 1) $dev_work
/nonexistent-utf8guard strict False None None
True" "$got"
: >"$fake/fs/mounts"
expect_match "status: no entry" "^  fs/mounts: no entry \\([0-9]+ gone since load\\)$" "$("$cli" status)"
expect_eq "status --json: no entry" "[]" "$("$cli" status --json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["fs"]["mounts"])')"
expect_no_match "status, no fs hook: no fs/mounts line" "fs/mounts" "$(UTF8GUARD_SYSFS=$work/nofs "$cli" status)"

# 2000 levels: paths far beyond PATH_MAX, the name at the bottom found.
"$here/trees.py" deep "$work/deep" 2000
out=$("$cli" scan "$work/deep")
expect_eq "scan 2000 deep: exit 1" 1 "$?"
expect_eq "scan 2000 deep: the bottom name, full path" \
	"$work/deep$(printf '/d%.0s' $(seq 2000))/bottom\\xc0\\xae: name: overlong at byte 6: c0 ae (a lenient decoder reads U+002E: path trick)" "$out"

# 1,000,000 entries: memory stays that of an empty scan (streamed, bounded
# by depth).  The tree is kept in build/ between runs (hard links: no
# inode per entry).
big=${UTF8GUARD_BIG_TREE:-$here/../../build/scan-1m}
if [ ! -f "$big.done" ]; then
	rm -rf "$big"
	"$here/trees.py" wide "$big" 1000000 >"$big.count" && touch "$big.done"
fi
mkdir -p "$work/empty"
read -r _ rss_empty < <("$here/trees.py" rss "$cli" scan "$work/empty" 2>/dev/null)
start=$(date +%s.%N)
read -r status rss_big < <("$here/trees.py" rss "$cli" scan --json "$big" 2>/dev/null)
secs=$(echo "$(date +%s.%N) - $start" | bc)
expect_eq "scan of 1,000,000 entries: 3 found (exit 1)" 1 "$status"
summary=$("$cli" scan --json "$big" | tail -n 1)
expect_eq "scan of 1,000,000 entries: every entry seen" "$(cat "$big.count")" \
	"$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])["summary"]["entries"])' "$summary")"
echo "# scan of $(cat "$big.count") entries: max RSS ${rss_big} KiB (empty tree: ${rss_empty} KiB), ${secs}s"
if [ "$rss_big" -le $((rss_empty + 1024)) ]; then
	pass "scan of 1,000,000 entries within 1 MiB of an empty scan's memory (${rss_big} vs ${rss_empty} KiB)"
else
	fail "scan of 1,000,000 entries within 1 MiB of an empty scan's memory" "${rss_big} vs ${rss_empty} KiB"
fi

finish_tests
