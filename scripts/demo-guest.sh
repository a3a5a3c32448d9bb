#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The admin session `make demo` shows, run inside the VM on Debian's stock
# kernel.  Each command is printed with a "$ " prompt before its output.
# shellcheck disable=SC2016 # run 'CMD': shown as is, then run by sh -c
set -u
export PATH=/utf8guard/tools:$PATH
S=/sys/kernel/utf8guard
C=/sys/kernel/debug/utf8guard_consumer
cd /utf8guard || exit 1

say() { printf '\n### %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1; }
# put BYTES FILE: one write of BYTES (printf escapes) to FILE, showing the error.
put() {
	printf "$ printf '%s' | dd of=%s\n" "$1" "$2"
	# shellcheck disable=SC2059
	printf "$1" | dd of="$2" bs=4096 2>&1 | grep -v 'records\|bytes'
}

echo "=== utf8guard demo start"
say "Load the module on Debian's stock $(uname -r) kernel"
run "utf8guardctl load --module-dir modules"
run "utf8guardctl status"
run "ls $S $S/stats"

say "2F C0 AE 2E 2F: a '/../' whose first dot is an overlong encoding"
run "utf8guardctl check --hex 2fc0ae2e2f"
run "utf8guardctl check --json --hex 2fc0ae2e2f"
say "...and friends: overlong '/', overlong '.', a surrogate, beyond U+10FFFF, a 5-byte '/', Latin-1"
run "utf8guardctl check --hex c0af --hex e080ae --hex eda080 --hex f4908080 --hex f8808080af --hex 636166e9"

say "The kernel refuses the same bytes, through the exported helpers"
echo "(utf8guard_consumer.ko is the project's test module that calls"
echo " utf8guard_check_name(); the filesystem hook utf8guard_fs.ko, below, calls it on mkdir & co.)"
run "insmod modules/utf8guard_consumer.ko"
run "echo 1 > $S/stats/reset"
put '\057\300\256\056\057' $C/check_name
put 'caf\303\251' $C/check_name
put '\355\240\200' $C/check_name
run "dmesg | grep 'utf8guard: refused' | tail -n 2"
run "utf8guardctl stats | grep -v ' 0$'"

say "audit mode: allowed, counted, logged"
run "utf8guardctl set mode audit"
put '\300\257' $C/check_name
run "utf8guardctl stats | grep audited"

say "path-tricks only: legacy Latin-1 names pass, tricks do not"
run "utf8guardctl set mode enforce; utf8guardctl set policy path-tricks"
put 'caf\351' $C/check_name
put 'a\300\257b' $C/check_name
run "utf8guardctl set policy +strict"

say "Bad values are refused, with the reason, and change nothing"
run "utf8guardctl set policy strickt"
run "utf8guardctl set mode 'enforce please'"
run "echo strickt > $S/policy"
run "dmesg | grep 'write refused' | tail -n 1"

say "The filesystem hook: utf8guard_fs.ko refuses new bad names, on any filesystem"
echo "(it probes the kernel's create, mkdir, mknod, symlink, link and rename hooks;"
echo " mode and policy are the ones above: enforce, strict path-tricks)"
run "utf8guardctl load --module-dir modules --fs"
run "dmesg | grep 'utf8guard_fs: .*hooked'"
run "utf8guardctl status"
run "mkdir /tmp/fs && echo 1 > $S/fs/stats/reset"

say "mkdir of the name C0 AE 2E (an overlong '.' and a '.': '..' to a lenient decoder)"
printf '%s\n' "(printf '\\300\\256.' writes the bytes C0 AE 2E, so the path ends in 2F C0 AE 2E 2F;" \
	" the demo shows bytes outside printable ASCII as \\xHH)"
run 'mkdir "$(printf "/tmp/fs/\300\256./")"'
run "dmesg | grep 'utf8guard: refused mkdir' | tail -n 1"
run "find /tmp/fs -mindepth 1"
echo "(nothing: the refused mkdir created nothing; a well-formed UTF-8 name is allowed:)"
run 'mkdir "$(printf "/tmp/fs/caf\303\251")" && find /tmp/fs -mindepth 1'

say "audit mode: the same mkdir is allowed, counted and logged"
run "utf8guardctl set mode audit"
run 'mkdir "$(printf "/tmp/fs/\300\256./")" && find /tmp/fs -mindepth 1'
run "dmesg | grep 'utf8guard: audit: would refuse mkdir' | tail -n 1"

say "Back to enforce: the existing name stays usable (only new names are checked)"
run "utf8guardctl scan /tmp/fs"
echo "(scan: the pre-flight before enforce lists the names it would refuse)"
run "utf8guardctl set mode enforce"
run 'touch "$(printf "/tmp/fs/\300\256./inside")" && find /tmp/fs -mindepth 1'
run 'mv "$(printf "/tmp/fs/\300\256.")" /tmp/fs/renamed && find /tmp/fs -mindepth 1'
say "Well-formed but deceptive: the normalize-reject classes (refuse, never rewrite)"
run "utf8guardctl set policy '+bidi +ignorables +confusable-path +nfc'"
run 'mkdir "$(printf "/tmp/fs/e\314\201")"'
run 'mkdir "$(printf "/tmp/fs/a\342\200\256b")"'
run 'mkdir "$(printf "/tmp/fs/.g\342\200\214it")"'
run 'mkdir "$(printf "/tmp/fs/\357\274\216\357\274\216")"'
run "dmesg | grep 'utf8guard: refused mkdir' | tail -n 4"
run 'mkdir "$(printf "/tmp/fs/\303\251")" && utf8guardctl check --name --policy nfc --hex 65cc81'
run "utf8guardctl set policy 'strict path-tricks'"
run "rm -r /tmp/fs"

say "The filesystem counters: per operation and per reason"
run "utf8guardctl stats | grep '^fs/' | grep -v ' 0$'"
run "utf8guardctl stats --prometheus | grep 'operation=\"mkdir\"'"

say "The network hook: utf8guard_nf.ko drops bad payloads on the ports you list"
run "modprobe -a nf_defrag_ipv4 nf_defrag_ipv6 nf_reject_ipv4 nf_reject_ipv6; ip link set lo up"
run "utf8guardctl load --module-dir modules --net"
run "utf8guardctl set net.ports udp:5140,tcp:8080"
echo "(net_op sends one datagram and says whether it arrived)"
run "tools/net_op udp 127.0.0.1 5140 2fc0ae2e2f"
run "tools/net_op udp 127.0.0.1 5140 636166c3a9"
run "tools/net_op udp 127.0.0.1 5141 2fc0ae2e2f"
echo "(5141 is not watched: delivered untouched)"
run "dmesg | grep 'utf8guard_nf: dropped' | tail -n 1"
say "TCP: GET /a/<C0 AE><C0 AE>/etc/passwd on a watched port never reaches the server"
run "tools/net_op tcp 127.0.0.1 8080 $(printf 'GET /a/' | od -An -tx1 | tr -d ' \n')c0aec0ae$(printf '/etc/passwd' | od -An -tx1 | tr -d ' \n')"
echo "(stalled 0: the server read 0 bytes; a character split across two segments still passes:)"
run "tools/net_op tcp 127.0.0.1 8080 e282,ac"
run "utf8guardctl stats | grep '^net/stats/\(checked\|dropped\|overlong\)'"

say "Lock until reboot"
run "rmmod utf8guard_consumer"
run "echo 1 > $S/locked"
run "utf8guardctl set mode off"
run "utf8guardctl set fs.enabled 0"
run "utf8guardctl unload"
run "utf8guardctl status | head -n 1"
echo "=== utf8guard demo end"
