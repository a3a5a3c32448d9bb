#!/bin/sh
# initramfs-init.sh - /init of the utf8guard test initramfs (busybox sh).
#
# Installed as /init by make-initramfs.sh. Mounts proc, sys, devtmpfs,
# debugfs and tracefs (when the kernel has them) and a tmpfs on /tmp, runs
# /utf8guard/run.sh with output on the console (ttyS0), and ONLY if it
# exits 0 writes the line "utf8guard-vm: success" to the second serial port
# (/dev/ttyS1), which run-vm.sh checks. Then powers off; a panic, WARN
# (panic_on_warn=1) or oops reboots instead, and qemu -no-reboot exits
# without the success line.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

has_fs() { grep -qw "$1" /proc/filesystems; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null || true
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null || true
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /dev/shm
has_fs debugfs && mount -t debugfs debugfs /sys/kernel/debug
has_fs tracefs && mount -t tracefs tracefs /sys/kernel/tracing
hostname utf8guard-vm
ip link set lo up 2>/dev/null || true

echo "utf8guard-vm: kernel $(uname -r), running /utf8guard/run.sh"
cd /utf8guard || exit 1
sh /utf8guard/run.sh
rc=$?
echo "utf8guard-vm: test script exited with status $rc"
if [ "$rc" -eq 0 ]; then
	echo "utf8guard-vm: success" >/dev/ttyS1
fi
sync
poweroff -f
# Only reached if power-off is unsupported: -no-reboot turns this into exit.
reboot -f
