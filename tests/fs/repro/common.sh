# tests/fs/repro/common.sh - sourced by the attack scripts: tools, counters
# and a fresh overlay's folders under a tmpfs at $b.
. /utf8guard/vm-lib.sh
mods=/utf8guard/modules
fsop=/utf8guard/tools/fs_op
sys=/sys/kernel/utf8guard
fs=$sys/fs
echo "utf8guard-kernel: $(uname -r) $(uname -v)"
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
for m in loop ext4 overlay; do modprobe $m; done
ctr() { echo "missed=$(cat $fs/missed) unhooked=$(cat $fs/unhooked) rename=$(cat $fs/stats/rename/checked)/$(cat $fs/stats/rename/rejected) link=$(cat $fs/stats/link/checked)/$(cat $fs/stats/link/rejected) create=$(cat $fs/stats/create/checked)/$(cat $fs/stats/create/rejected)"; }
waitfor() { n=0; while [ "$(cat "$2" 2>/dev/null)" != "$1" ] && [ $n -lt 100 ]; do sleep 0.2; n=$((n+1)); done; }
b=/mnt/t
mkdir -p $b
mount -t tmpfs -o size=900m tmpfs $b
mk() { rm -rf $b/$1; mkdir -p $b/$1/l $b/$1/u $b/$1/w $b/$1/m; chmod 1777 $b/$1/u; }
