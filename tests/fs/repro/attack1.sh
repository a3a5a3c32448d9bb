#!/bin/sh
# tests/fs/repro/attack1.sh - adversarial review (round after the lock-free marks).
# Guest script: run as /utf8guard/run.sh in a stock-kernel VM.
set -u
. /utf8guard/tools/common.sh
# --- legacy lower trees, before any hook ---
mk a; mk h; mk k; mk o
for d in a o; do
	for f in 66 6632 6633 6634; do $fsop create $b/$d/l $f >/dev/null; $fsop write $b/$d/l $f data >/dev/null; done
	chown -R 1000:1000 $b/$d/l; chmod 1777 $b/$d/l
done
# h: a file "leased" and a hard link to it with a legacy name "hl" E9
$fsop create $b/h/l 6c6561736564 >/dev/null; $fsop write $b/h/l 6c6561736564 data >/dev/null
$fsop link $b/h/l 6c6561736564 686ce9 >/dev/null
chown -R 1000:1000 $b/h/l; chmod 1777 $b/h/l
# k: a legacy file "k" E9 owned by uid 1000
$fsop create $b/k/l 6be9 >/dev/null; $fsop write $b/k/l 6be9 data >/dev/null
chown -R 1000:1000 $b/k/l; chmod 1777 $b/k/l; chmod 666 $b/k/l/*

insmod $mods/utf8guard.ko || exit 1
insmod $mods/utf8guard_fs.ko || exit 1
echo enforce >$sys/mode
echo 30 >/proc/sys/fs/lease-break-time
dmesg | grep -i 'probed overlay'
echo "== counters at start: $(ctr)"

############################################################
echo "== F1: audit -> enforce while uid 1000's rename to a bad name is stalled"
mount -t overlay overlay -o lowerdir=$b/a/l,upperdir=$b/a/u,workdir=$b/a/w $b/a/m || echo mount failed
echo audit >$sys/mode
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/a/l 66 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1; echo "lease: $(cat /tmp/l1)"
# three renames onto bad names, each copy-up stalled inside ovl_rename()
$fsop --as-uid 1000 rename $b/a/m 66 61ff62 >/tmp/r1 2>&1 &
sleep 2
echo enforce >$sys/mode
echo "mode now: $(cat $sys/mode)"
echo "fresh rename to bad name under enforce: $($fsop --as-uid 1000 rename $b/a/m 6632 2fc0ae2e2f 2>&1; $fsop --as-uid 1000 rename $b/a/m 6632 61fe62)"
echo "counters before release: $(ctr)"
sleep 3
kill $lp; wait
echo "stalled rename result: $(cat /tmp/r1)"
echo "merged readdir: $($fsop readdir $b/a/m)"
echo "UPPER readdir: $($fsop readdir $b/a/u)"
echo "counters after: $(ctr)"
echo "mode: $(cat $sys/mode)"
umount $b/a/m

############################################################
echo "== F1b: mode off for < 1 s (no disarm) while a link to a bad name is stalled"
mount -t overlay overlay -o lowerdir=$b/o/l,upperdir=$b/o/u,workdir=$b/o/w $b/o/m || echo mount failed
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/o/l 66 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1; echo "lease: $(cat /tmp/l1)"
echo off >$sys/mode
$fsop --as-uid 1000 link $b/o/m 66 edb080 >/tmp/r1 2>&1 &
sleep 0.3
echo enforce >$sys/mode
echo "mode now: $(cat $sys/mode); fresh link to bad: $($fsop --as-uid 1000 link $b/o/m 6632 edb080)"
sleep 2
kill $lp; wait
echo "stalled link result: $(cat /tmp/r1)"
echo "UPPER readdir: $($fsop readdir $b/o/u)"
echo "counters after: $(ctr)"
umount $b/o/m

############################################################
echo "== F2: index=on, hard link with a legacy name, copied up while its other name is"
mount -t overlay overlay -o index=on,lowerdir=$b/h/l,upperdir=$b/h/u,workdir=$b/h/w $b/h/m || echo mount failed
c0=$(ctr)
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/h/l 6c6561736564 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1; echo "lease: $(cat /tmp/l1)"
$fsop --as-uid 1000 append $b/h/m 6c6561736564 x >/tmp/a1 2>&1 &
sleep 1
$fsop append $b/h/m 686ce9 y >/tmp/a2 2>&1 &	# root, the legacy hard link
sleep 2
kill $lp; wait
echo "uid 1000 append leased: $(cat /tmp/a1); root append hl-E9: $(cat /tmp/a2)"
echo "root append hl-E9 again: $($fsop append $b/h/m 686ce9 z)"
echo "counters before: $c0"
echo "counters after:  $(ctr)"
dmesg | grep -a 'utf8guard' | tail -n 5
umount $b/h/m

############################################################
echo "== F2b: no index, waiter behind a copy-up that the owner's kill makes fail"
mount -t overlay overlay -o lowerdir=$b/k/l,upperdir=$b/k/u,workdir=$b/k/w $b/k/m || echo mount failed
c0=$(ctr)
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/k/l 6be9 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1
$fsop --as-uid 1000 append $b/k/m 6be9 x >/tmp/a1 2>&1 & ap=$!
sleep 1
$fsop append $b/k/m 6be9 y >/tmp/a2 2>&1 &	# root
sleep 1
kill -9 $ap
sleep 1
kill $lp; wait
echo "uid 1000 (killed): $(cat /tmp/a1); root append k-E9: $(cat /tmp/a2)"
echo "counters before: $c0"
echo "counters after:  $(ctr)"
umount $b/k/m
sleep 11
dmesg | grep -a 'utf8guard' | tail -n 8
echo "utf8guard-review: done"
