#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# utf8guardctl against the real modules, inside the VM (busybox sh, as
# root): load by name (installed with make install DESTDIR=... + depmod),
# status, set (each key; the kernel's canonical read-back; refusals in a
# sentence), stats (text, JSON, Prometheus) with real counts, apply (all
# or nothing, rolled back when the kernel refuses a value), load
# --module-dir, unload.  Leaves nothing loaded and nothing locked (the
# integration suite runs next).
#
# usage: cli_admin_test.sh MODULE_DIR
set -u
mods=${1:?module dir}
# shellcheck source=../lib/assert.sh
. /utf8guard/assert.sh
cli=$(ls /usr/local/sbin/utf8guardctl /usr/sbin/utf8guardctl 2>/dev/null | head -n 1)
sys=/sys/kernel/utf8guard
work=/tmp/cli-admin
mkdir -p $work

expect_eq "utf8guardctl installed and runs" 0 "$($cli --version >/dev/null 2>&1; echo $?)"
out=$($cli status)
expect_eq "status before load exits 1" 1 "$?"
expect_match "status before load: not loaded" "utf8guard: not loaded" "$out"

# --- load by name ------------------------------------------------------
out=$($cli load --fs --net --mode audit --policy path-tricks 2>&1)
expect_eq "load --fs --net --mode audit --policy path-tricks exits 0" 0 "$?"
expect_match "load: the three modules" "utf8guard: loaded.*utf8guard_fs: loaded.*utf8guard_nf: loaded" "$(echo $out)"
for m in utf8guard utf8guard_fs utf8guard_nf; do
	expect_match "$m in lsmod" "^$m " "$(lsmod | grep "^$m ")"
done
expect_eq "load --mode reached the module" "off [audit] enforce" "$(cat $sys/mode)"
expect_eq "load --policy reached the module" "path-tricks" "$(cat $sys/policy)"
out=$($cli load --mode enforce 2>&1)
expect_eq "load when loaded exits 0" 0 "$?"
expect_match "load when loaded: sets --mode through sysfs" "already loaded.*mode = enforce" "$(echo $out)"
expect_eq "mode now enforce" "off audit [enforce]" "$(cat $sys/mode)"

# --- status ----------------------------------------------------------------
out=$($cli status)
expect_eq "status exits 0" 0 "$?"
expect_match "status: version, mode, policy" "^utf8guard $(cat $sys/version): loaded, mode enforce, policy path-tricks, unlocked" "$out"
expect_match "status: fs hook and health" "filesystem hook \(utf8guard_fs\): loaded" "$out"
expect_match "status: fs state" "state: missed 0, unhooked 0" "$out"
expect_match "status: net hook" "network hook \(utf8guard_nf\): loaded" "$out"
out=$($cli status --json)
expect_match "status --json" '^\{"loaded":\{"utf8guard":true,"utf8guard_fs":true,"utf8guard_nf":true\},"version":"[0-9.]+","mode":"enforce","policy":"path-tricks","locked":false,"validator":"(scalar|sse4\.1|avx2)","unicode_version":"[0-9.]+","counters":\{"checked":[0-9]+,' "$out"
expect_eq "set validator scalar" "validator = scalar" "$($cli set validator scalar 2>&1)"
expect_match "status shows the validator" '^  validator scalar \(of: [a-z0-9. ]*\[scalar\][a-z0-9. ]*\), Unicode [0-9.]+$' "$($cli status)"
expect_match "set validator auto: the best path" '^validator = (sse4\.1|avx2|avx512)$' "$($cli set validator auto 2>&1)"
expect_match "status --json fs" '"fs":\{"degraded":false,"enabled":1,"fstypes":"\*","check_symlink_target":1,"missed":0,"unhooked":0,' "$out"

# --- set -------------------------------------------------------------------
expect_eq "set policy +strict: canonical read-back" "policy = strict path-tricks" "$($cli set policy +strict)"
expect_eq "set policy strict,path-tricks" "policy = strict path-tricks" "$($cli set policy strict,path-tricks)"
expect_eq "set mode audit" "mode = audit" "$($cli set mode audit)"
expect_eq "set mode enforce" "mode = enforce" "$($cli set mode enforce)"
expect_eq "set fs.fstypes: canonical read-back" "fs.fstypes = ext4 tmpfs" "$($cli set fs.fstypes ext4,tmpfs)"
expect_eq "set fs.fstypes *" "fs.fstypes = *" "$($cli set fs.fstypes '*')"
expect_eq "set fs.enabled 0" "fs.enabled = 0" "$($cli set fs.enabled 0)"
expect_eq "set fs.enabled 1" "fs.enabled = 1" "$($cli set fs.enabled 1)"
expect_eq "set fs.check_symlink_target 0" "fs.check_symlink_target = 0" "$($cli set fs.check_symlink_target 0)"
expect_eq "set fs.check_symlink_target 1" "fs.check_symlink_target = 1" "$($cli set fs.check_symlink_target 1)"
expect_eq "set net.ports: canonical read-back" "net.ports = tcp:80 udp:514-515" "$($cli set net.ports 'udp:515,udp:514 tcp:80')"
expect_eq "set net.forward 1" "net.forward = 1" "$($cli set net.forward 1)"
expect_eq "set net.forward 0" "net.forward = 0" "$($cli set net.forward 0)"
expect_eq "set net.action reset" "net.action = reset" "$($cli set net.action reset)"
expect_eq "... the kernel took it" reset "$(cat /sys/kernel/utf8guard/net/action)"
expect_eq "set net.action drop" "net.action = drop" "$($cli set net.action drop)"
expect_eq "set net.enabled 1" "net.enabled = 1" "$($cli set net.enabled 1)"
out=$($cli set fs.fstypes EXT4 2>&1)
expect_eq "kernel refuses fs.fstypes EXT4: exit 2" 2 "$?"
expect_match "EINVAL in a sentence" "the kernel refused 'EXT4' for fs.fstypes" "$out"
expect_eq "refused fs.fstypes changed nothing" "*" "$(cat $sys/fs/fstypes)"
out=$($cli set net.ports tcp:0 2>&1)
expect_match "kernel refuses net.ports tcp:0" "the kernel refused 'tcp:0' for net.ports" "$out"
expect_eq "refused net.ports changed nothing" "tcp:80 udp:514-515" "$(cat $sys/net/ports)"
out=$($cli set mode bogus 2>&1)
expect_match "set mode bogus: the shared parser says why" "unknown mode \(off, audit, enforce\): 'bogus'" "$out"

# --- stats: real counts --------------------------------------------------------
$cli set mode enforce >/dev/null
mkdir -p $work/t
mount -t tmpfs none $work/t
echo 1 >$sys/stats/reset
echo 1 >$sys/fs/stats/reset
mkdir "$(printf "$work/t/a\300\256")" 2>/dev/null
expect_eq "enforce: bad mkdir refused" "" "$(ls $work/t)"
mkdir $work/t/good
out=$($cli stats)
expect_match "stats: fs mkdir rejected 1" "^fs/stats/mkdir/rejected +1$" "$(echo "$out" | grep '^fs/stats/mkdir/rejected')"
expect_match "stats: fs mkdir checked 2" "^fs/stats/mkdir/checked +2$" "$(echo "$out" | grep '^fs/stats/mkdir/checked')"
expect_match "stats: global overlong 1" "^stats/overlong +1$" "$(echo "$out" | grep '^stats/overlong')"
out=$($cli stats --json)
expect_match "stats --json: fs mkdir" '"mkdir":\{"audited":0,"checked":2,"exempted":0,"rejected":1\}' "$out"
out=$($cli stats --prometheus)
expect_match "prometheus: mkdir rejected" '^utf8guard_fs_operation_rejected_total\{operation="mkdir"\} 1$' "$(echo "$out" | grep 'rejected_total{operation="mkdir"}')"
expect_match "prometheus: overlong" '^utf8guard_violations_total\{reason="overlong"\} 1$' "$(echo "$out" | grep 'violations_total{reason="overlong"}')"
expect_match "prometheus: TYPE line" '^# TYPE utf8guard_violations_total counter$' "$(echo "$out" | grep '^# TYPE utf8guard_violations_total')"
# Every counter file of the kernel is in the JSON output.
files=$(find $sys -path '*stats/*' -type f ! -name reset | wc -l)
keys=$($cli stats --json | grep -o '":[0-9][0-9]*' | wc -l)
expect_eq "stats --json: one value per counter file ($files)" "$files" "$keys"
umount $work/t

# --- apply -------------------------------------------------------------------
printf '# boot\nfs.fstypes = ext4 tmpfs\nnet.ports = udp:514\npolicy = strict path-tricks\nmode = audit\n' >$work/good.conf
out=$($cli apply $work/good.conf)
expect_eq "apply good config exits 0" 0 "$?"
expect_eq "apply: order, canonical values" "fs.fstypes = ext4 tmpfs|net.ports = udp:514|policy = strict path-tricks|mode = audit" "$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
expect_eq "apply: mode in the kernel" "off [audit] enforce" "$(cat $sys/mode)"
before="$(cat $sys/mode)|$(cat $sys/policy)|$(cat $sys/fs/fstypes)|$(cat $sys/fs/enabled)|$(cat $sys/net/ports)"
printf 'mode = enforce\nfs.enabled = 0\nnet.ports = tcp:99999\n' >$work/kernel-refuses.conf
out=$($cli apply $work/kernel-refuses.conf 2>&1)
expect_eq "apply: kernel refuses a value: exit 2" 2 "$?"
expect_match "apply: refusal with its line" "line 3: the kernel refused 'tcp:99999' for net.ports" "$out"
expect_match "apply: rolled back" "put back fs.enabled = 1" "$out"
expect_eq "apply: nothing changed after the roll back" "$before" \
	"$(cat $sys/mode)|$(cat $sys/policy)|$(cat $sys/fs/fstypes)|$(cat $sys/fs/enabled)|$(cat $sys/net/ports)"
printf 'mode = enforce\nfs.enabled = 2\n' >$work/bad.conf
out=$($cli apply $work/bad.conf 2>&1)
expect_match "apply: bad line, with its number" "bad.conf:2: bad value for fs.enabled: must be 0 or 1" "$out"
expect_eq "apply: bad file changed nothing" "$before" \
	"$(cat $sys/mode)|$(cat $sys/policy)|$(cat $sys/fs/fstypes)|$(cat $sys/fs/enabled)|$(cat $sys/net/ports)"
$cli set mode enforce >/dev/null

# --- unload, load --module-dir --------------------------------------------------
out=$($cli unload)
expect_eq "unload exits 0" 0 "$?"
expect_eq "unload: hooks first" "utf8guard_nf: unloaded|utf8guard_fs: unloaded|utf8guard: unloaded" "$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
expect_eq "nothing left in lsmod" "" "$(lsmod | grep '^utf8guard')"
expect_eq "unload when nothing is loaded" "utf8guard: not loaded, nothing to unload" "$($cli unload)"
out=$($cli load --fs --module-dir "$mods" --mode audit 2>&1)
expect_eq "load --module-dir exits 0" 0 "$?"
expect_match "load --module-dir: utf8guard then the fs hook" "utf8guard: loaded.*utf8guard_fs: loaded" "$(echo $out)"
expect_eq "load --module-dir --mode audit" "off [audit] enforce" "$(cat $sys/mode)"
insmod "$mods/utf8guard_consumer.ko"
out=$($cli unload 2>&1)
expect_eq "unload while a consumer holds utf8guard: exit 2" 2 "$?"
expect_match "unload names the holder" "cannot unload utf8guard: it is in use by utf8guard_consumer" "$out"
rmmod utf8guard_consumer
expect_status "unload after the consumer is gone" 0 $cli unload
expect_eq "nothing left loaded" "" "$(lsmod | grep '^utf8guard')"
out=$($cli load --module-dir /nonexistent 2>&1)
expect_match "load --module-dir without modules: names the file" "cannot load utf8guard \(/nonexistent/utf8guard.ko\)" "$out"

finish_tests
