#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ksmbd_test.sh STAGE SHARE - suite `guest-ksmbd`, run inside the ksmbd
# variant of the Debian guest (debian-image.sh --variant ksmbd; the
# matrix's 6.12 kernel; one stage, one boot): ksmbd, the in-kernel SMB
# server, with ksmbd-tools from bookworm-backports, serving an ext4
# export over loopback to the kernel's cifs client and to smbclient.
# (Debian's 6.1 ksmbd serves neither of Debian's ksmbd-tools: bookworm's
# 3.4.7 fails every tree connect, backports' 3.5.2 oopses in smb2_open();
# so not in guest-servers.)
#
# As servers_test.sh does for knfsd and smbd: the packages installed with
# apt (DKMS builds for 6.12 in the guest), the file-server profile in
# enforce, fs/fstypes ext4 (the cifs mount is not judged on the client
# side), then guest-lib.sh's exercise through the cifs client: bad names
# fail and nothing is made, good names are made, the legacy names seeded
# before the guard stay usable, the log names ksmbd's thread.  Then the
# same bad and good names through smbclient, which shows the NT status
# on the wire.
set -uo pipefail

stage=$1 share=$2
# shellcheck source=../lib/assert.sh
. "$share/assert.sh"
# shellcheck source=guest-lib.sh
. "$share/guest-lib.sh"
export_dir=/srv/export/ksmbd
# ksmbd runs each request as work on its "ksmbd-io" workqueue: in a
# kworker thread, not one of its own ("ksmbd:PORT" only reads requests).
thread='kworker/[0-9u]+:[0-9]+'

echo "# kernel $(uname -r), ksmbd-tools $(dpkg-query -W -f='${Version}' ksmbd-tools)"
seed "$export_dir"
if ! load_fileserver_guard "$share/debs/1"; then
	finish_tests
	exit 1
fi

# --- ksmbd: the share, its user, the daemon ----------------------------------
smb_user "$export_dir"
mkdir -p /etc/ksmbd
cat >/etc/ksmbd/ksmbd.conf <<EOF
[global]
	bind interfaces only = yes
	interfaces = lo
[export]
	path = $export_dir
	read only = no
	force user = tester
EOF
expect_status "ksmbd.adduser tester" 0 ksmbd.adduser -a -p secret tester
expect_status "modprobe ksmbd" 0 modprobe ksmbd
expect_status "ksmbd.mountd started" 0 ksmbd.mountd
# ksmbd.mountd forks a manager and a worker, and the worker starts the
# kernel's server: wait for port 445.
for _ in $(seq 50); do
	grep -q ':01BD ' /proc/net/tcp /proc/net/tcp6 2>/dev/null && break
	sleep 0.2
done
expect_match "ksmbd listens on port 445" ':01BD ' "$(cat /proc/net/tcp /proc/net/tcp6)"

exercise_cifs ksmbd "$export_dir" "$thread"

# --- smbclient: the NT status a refusal becomes ------------------------------
# Samba's client converts a name to UTF-16 first, as the cifs client
# does, but refuses what has no UTF-16 form itself (NT_STATUS_NO_MEMORY,
# its iconv's failure) instead of sending a '?': only the bidi name
# reaches ksmbd.
smbc() { smbclient //127.0.0.1/export -U tester%secret -m SMB3 -c "$1" 2>&1; }
smbc_hex=$(printf 'smbc-' | od -An -tx1 | tr -d ' \n')
for i in "${!BAD[@]}"; do
	name=$(bytes "${BAD[$i]}")
	r0=$(rejected)
	out=$(smbc "mkdir \"smbc-$name\"")
	echo "# smbclient: mkdir ${BAD_WHAT[$i]}: $(tr '\n' ' ' <<<"$out")"
	expect_eq "smbclient: ${BAD_WHAT[$i]} not made on the export" no \
		"$(on_export "$export_dir" "$smbc_hex${BAD[$i]}")"
	if [ "${BAD[$i]}" = "${BAD[3]}" ]; then
		expect_match "smbclient: mkdir of ${BAD_WHAT[$i]} fails: NT_STATUS_UNEXPECTED_IO_ERROR" \
			'NT_STATUS_UNEXPECTED_IO_ERROR' "$out"
		expect_eq "smbclient: ${BAD_WHAT[$i]} refused by the hook, in ksmbd" yes \
			"$( (($(rejected) > r0)) && echo yes || echo no)"
	else
		expect_match "smbclient: mkdir of ${BAD_WHAT[$i]} fails in the client: NT_STATUS_NO_MEMORY" \
			'NT_STATUS_NO_MEMORY' "$out"
	fi
done
for i in "${!GOOD[@]}"; do
	name=$(bytes "${GOOD[$i]}")
	out=$(smbc "mkdir \"smbc-$name\"")
	expect_no_match "smbclient: mkdir of ${GOOD_WHAT[$i]} works" 'NT_STATUS_' "$out"
	expect_eq "smbclient: ${GOOD_WHAT[$i]} made on the export" yes \
		"$(on_export "$export_dir" "$smbc_hex${GOOD[$i]}")"
done

expect_status "ksmbd.control --shutdown" 0 ksmbd.control --shutdown
finish_tests
