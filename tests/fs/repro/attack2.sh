#!/bin/sh
# tests/fs/repro/attack2.sh - adversarial review: fstypes widening during a stalled
# rename, a hard-link race without any lease, and a toggling stress.
set -u

TOGGLES=${TOGGLES_OVERRIDE:-6}
. /utf8guard/tools/common.sh
mk f; mk h; mk s
for f in 66 6632; do $fsop create $b/f/l $f >/dev/null; $fsop write $b/f/l $f data >/dev/null; done
chown -R 1000:1000 $b/f/l; chmod 1777 $b/f/l
# h: a 160 MiB file "big" and its hard link "hl" E9 (legacy), no lease
dd if=/dev/zero of=$b/h/l/big bs=1M count=160 2>/dev/null
$fsop link $b/h/l 626967 686ce9 >/dev/null
chmod 666 $b/h/l/big
# s: legacy files for the stress
mkdir -p $b/s/l/d
dh() { echo "$1" | sed 's/./3&/g'; }	# decimal digits as hex
k=0; while [ $k -lt 150 ]; do $fsop create $b/s/l/d 6c$(dh $k)e9 >/dev/null; k=$((k+1)); done
chmod -R 777 $b/s/l; chmod 666 $b/s/l/d/*

insmod $mods/utf8guard.ko || exit 1
insmod $mods/utf8guard_fs.ko || exit 1
echo enforce >$sys/mode
echo 30 >/proc/sys/fs/lease-break-time
echo "== counters at start: $(ctr)"

if [ -z "${ONLY_STRESS:-}" ]; then
echo "== F1c: fs/fstypes widened (tmpfs -> *) while a rename to a bad name is stalled"
echo tmpfs >$fs/fstypes
echo "fstypes: $(cat $fs/fstypes)"
mount -t overlay overlay -o lowerdir=$b/f/l,upperdir=$b/f/u,workdir=$b/f/w $b/f/m
echo "control: unstalled rename to bad name with fstypes=tmpfs: $($fsop --as-uid 1000 rename $b/f/m 6632 63ff)"
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/f/l 66 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1
$fsop --as-uid 1000 rename $b/f/m 66 61ff62 >/tmp/r1 2>&1 &
sleep 2
echo '*' >$fs/fstypes
echo "fstypes: $(cat $fs/fstypes); mode: $(cat $sys/mode)"
kill $lp; wait
echo "stalled rename result: $(cat /tmp/r1)"
echo "UPPER readdir: $($fsop readdir $b/f/u | tr '\n' ' ')"
echo "counters: $(ctr)"
umount $b/f/m


echo "== F1d: policy tightened (-strict -> +strict) while a rename to a 'strict'-only bad name is stalled"
mk p
$fsop create $b/p/l 66 >/dev/null; $fsop write $b/p/l 66 data >/dev/null
$fsop create $b/p/l 6632 >/dev/null
chown -R 1000:1000 $b/p/l; chmod 1777 $b/p/l
mount -t overlay overlay -o lowerdir=$b/p/l,upperdir=$b/p/u,workdir=$b/p/w $b/p/m
echo -strict >$sys/policy
echo "policy: $(cat $sys/policy)"
rm -f /tmp/l1; $fsop --as-uid 1000 lease $b/p/l 66 >/tmp/l1 & lp=$!
waitfor ok /tmp/l1
$fsop --as-uid 1000 rename $b/p/m 66 edb080 >/tmp/r1 2>&1 &
sleep 2
echo +strict >$sys/policy
echo "policy: $(cat $sys/policy); control (unstalled rename to ED B0 80 now): $($fsop --as-uid 1000 rename $b/p/m 6632 edb081)"
kill $lp; wait
echo "stalled rename result: $(cat /tmp/r1)"
echo "UPPER readdir: $($fsop readdir $b/p/u | tr '\n' ' ')"
echo "counters: $(ctr)"
umount $b/p/m

echo "== F2c: index=on, no lease: 160 MiB 'big' appended while root appends to its link 'hl' E9"
mount -t overlay overlay -o index=on,lowerdir=$b/h/l,upperdir=$b/h/u,workdir=$b/h/w $b/h/m
c0=$(ctr)
$fsop --as-uid 1000 append $b/h/m 626967 x >/tmp/a1 2>&1 &
sleep 0.3
$fsop append $b/h/m 686ce9 y >/tmp/a2 2>&1
wait
echo "uid 1000 append big: $(cat /tmp/a1); root append hl-E9: $(cat /tmp/a2)"
echo "counters before: $c0"
echo "counters after:  $(ctr)"
umount $b/h/m

fi
echo "== S: toggling stress (mode off/audit/enforce, fs/enabled, kprobes/enabled) with overlay work"
mount -t overlay overlay -o lowerdir=$b/s/l,upperdir=$b/s/u,workdir=$b/s/w $b/s/m
echo 0 >/tmp/gen
toggler() {
	i=0
	while [ ! -e /tmp/stop ]; do
		i=$((i+1)); echo $i-w >/tmp/gen
		case $((i % ${TOGGLES:-6})) in
		0) echo off >$sys/mode; echo $i >/tmp/gen; sleep 1.4 ;;
		1) echo enforce >$sys/mode; echo $i >/tmp/gen; sleep 0.7 ;;
		2) echo 0 >$fs/enabled; echo $i >/tmp/gen; sleep 1.3 ;;
		3) echo 1 >$fs/enabled; echo $i >/tmp/gen; sleep 0.7 ;;
		4) echo 0 >/sys/kernel/debug/kprobes/enabled; echo $i >/tmp/gen; sleep 0.2 ;;
		5) echo 1 >/sys/kernel/debug/kprobes/enabled; echo $i >/tmp/gen; sleep 0.7 ;;
		esac
	done
	echo enforce >$sys/mode; echo 1 >$fs/enabled; echo 1 >/sys/kernel/debug/kprobes/enabled
}
steady() { # steady G1 M1: true if the gen did not move and mode was enforce, enabled 1, kprobes on
	case $1 in *-w) return 1 ;; esac
	[ "$1" = "$(cat /tmp/gen)" ] && [ "$2" = "off audit [enforce]" ] &&
	[ "$(cat $sys/mode)" = "off audit [enforce]" ] && [ "$(cat $fs/enabled)" = 1 ] &&
	[ "$(cat /sys/kernel/debug/kprobes/enabled)" = 1 ]
}
badw() { # uid 1000: new bad names through the merged view
	j=0
	while [ ! -e /tmp/stop ]; do
		j=$((j+1))
		g=$(cat /tmp/gen); m=$(cat $sys/mode); e=$(cat $fs/enabled); kp=$(cat /sys/kernel/debug/kprobes/enabled)
		r=$($fsop --as-uid 1000 create $b/s/m 77$(dh $1)2d$(dh $j) -- rename $b/s/m 77$(dh $1)2d$(dh $j) 62$(dh $1)2d$(dh $j)ff -- mkdir $b/s/m 64$(dh $1)2d$(dh $j)c0ae -- symlink $b/s/m 73$(dh $1)2d$(dh $j) eda080 | tr '\n' ' ')
		if [ "$e$kp" = 11 ] && steady "$g" "$m" && [ "$r" != "ok EILSEQ EILSEQ EILSEQ " ]; then
			echo "BYPASS? worker $1 iter $j gen $g: $r"
		fi
	done
	echo "badw $1: $j iterations"
}
legw() { # root: legacy files appended, renamed to a good name (copy-up, whiteout)
	k=$1; n=0; fails=0
	while [ ! -e /tmp/stop ] && [ $k -lt 150 ]; do
		name=6c$(dh $k)e9
		g=$(cat /tmp/gen); m=$(cat $sys/mode); e=$(cat $fs/enabled)
		r=$($fsop append $b/s/m/d $name x -- rename $b/s/m/d $name 676f6f64$(dh $k) | tr '\n' ' ')
		if [ "$r" != "ok ok " ]; then
			fails=$((fails+1))
			steady "$g" "$m" && [ "$e" = 1 ] && echo "LEGACY FAIL in steady enforce: $name: $r (missed=$(cat $fs/missed))"
		fi
		k=$((k+2)); n=$((n+1))
	done
	echo "legw $1: $n files, $fails failures"
}
rm -f /tmp/stop
c0=$(ctr)
toggler & tp=$!
badw 1 & badw 2 & legw 0 & legw 1 &
sleep 150
touch /tmp/stop
wait
echo "counters before: $c0"
echo "counters after:  $(ctr)"
echo "bad names on the upper layer (hex):"
$fsop readdir $b/s/u | grep -E 'ff$|c0ae$' | tr '\n' ' '; echo
$fsop readdir $b/s/u | grep -c -E '^(62|64)' 
ls /sys/kernel/debug/kprobes/ >/dev/null; grep -c ovl_ /sys/kernel/debug/kprobes/list
sleep 11
dmesg | grep -a -E 'utf8guard_fs|BUG|WARN|Call Trace' | grep -v 'refused\|audit:' | tail -n 15
echo "utf8guard-review: done"
