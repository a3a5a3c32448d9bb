#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-boot-stub.sh - installed in the Debian guest image as
# /usr/local/sbin/utf8guard-guest-boot and run by utf8guard-guest.service
# (only when the kernel command line says utf8guard.guest=1) once
# multi-user.target is reached: mounts the host's share (virtio-9p, tag
# utf8guard) at /run/utf8guard-host and runs its boot.sh, then powers the
# guest off.  The tests live in the share, so that a change to them needs
# no new image; boot.sh writes the result lines to /dev/ttyS1.
mkdir -p /run/utf8guard-host
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 utf8guard /run/utf8guard-host; then
	echo "utf8guard-guest: cannot mount the host share" >/dev/ttyS1
	systemctl --no-block poweroff
	exit 1
fi
sh /run/utf8guard-host/boot.sh
rc=$?
echo "utf8guard-guest: boot.sh exit $rc" >/dev/console
# boot.sh may have asked for a reboot instead (it exits 100): the host
# boots the same disk once more.
if [ "$rc" = 100 ]; then
	systemctl --no-block reboot
else
	systemctl --no-block poweroff
fi
exit 0
