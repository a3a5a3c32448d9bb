#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# debian-image.sh - the Debian guest: a bookworm root filesystem built by
# mmdebstrap from Debian's packages, with systemd as init, the stock
# kernel of the matrix row 6.1 (image, modules and headers, so that DKMS
# builds inside the guest), and the servers and clients the deployment
# suites use (tests/guest/).  Built once and cached like the test kernel:
#
#   $UTF8GUARD_CACHE/debian-guest-<key>/
#       base.qcow2     the root filesystem (ext4 on the whole disk,
#                      /dev/vda); a run boots a qcow2 overlay of it and
#                      never writes the base
#       vmlinuz        the guest's own kernel and initramfs (booted with
#       initrd.img     qemu -kernel/-initrd, root=/dev/vda)
#       release        the kernel release (uname -r in the guest)
#
# <key> = first 16 hex of sha256(this script, the guest's boot stub,
# the package list, the kernel row): any change to what goes into the
# image builds a new one.  The directory exists only once complete (built
# as *.tmp.* and renamed); builds are serialised by debian-guest.lock.
#
# The image holds one project file of its own, the boot stub
# (guest-boot-stub.sh, run by utf8guard-guest.service after
# multi-user.target): it mounts the host directory shared over virtio-9p
# (tag utf8guard) and runs its boot.sh, so that the tests themselves come
# from the tree under test, not from the cached image.
#
# Usage: debian-image.sh            build if needed; print the directory
#        debian-image.sh --key      print the key only
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${UTF8GUARD_CACHE:-/var/cache/utf8guard}
release=$("$top/tests/vm/stock-kernel.sh" --kernel 6.1 --version)

# What the deployment suites need, by what for.  Changing this list
# changes the key: the next run builds a new image.
PACKAGES=(
	# boot: systemd as init, the kernel, a login for debugging by hand
	systemd-sysv udev kmod "linux-image-$release" initramfs-tools procps
	# DKMS inside the guest: apt install of utf8guard-dkms builds there
	dkms "linux-headers-$release" build-essential libkmod2
	# file servers and their clients, over loopback (ksmbd: see
	# servers_test.sh)
	nfs-kernel-server nfs-common samba smbclient cifs-utils
	# real clients on a hooked filesystem and on a watched port
	tar rsync git curl python3 bsdutils iproute2
	# where operations teams look
	auditd prometheus-node-exporter
)

key() {
	{
		cat "${BASH_SOURCE[0]}" "$here/guest-boot-stub.sh"
		printf '%s\n' "${PACKAGES[@]}"
		grep -E '^[[:space:]]*6\.1[[:space:]]' "$top/tests/vm/kernels.conf"
	} | sha256sum | cut -c1-16
}

if [[ "${1:-}" == --key ]]; then
	key
	exit 0
fi
[[ $# -eq 0 ]] || { echo "usage: $0 [--key]" >&2; exit 2; }

dir=$cache/debian-guest-$(key)
if [[ -f "$dir/base.qcow2" ]]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$cache"
# Its own lock: the test kernel's build holds "lock" for minutes.
exec 9>"$cache/debian-guest.lock"
flock 9
if [[ -f "$dir/base.qcow2" ]]; then
	echo "$dir"
	exit 0
fi

for tool in mmdebstrap mkfs.ext4 qemu-img; do
	command -v "$tool" >/dev/null || {
		echo "debian-image: $tool missing (scripts/install-deps.sh)" >&2
		exit 1
	}
done

tmp=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
start=$SECONDS
echo "debian-image: building $dir (mmdebstrap, ${#PACKAGES[@]} packages)" >&2

# The mirrors the host uses (deb.debian.org); the kernel row's packages
# come from bookworm or its security updates.
mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security
include=$(IFS=,; echo "${PACKAGES[*]}")
mmdebstrap --variant=apt --components=main --include="$include" \
	--aptopt='Acquire::Retries "3"' \
	--customize-hook='echo utf8guard-guest >"$1/etc/hostname"' \
	--customize-hook='echo "127.0.1.1 utf8guard-guest" >>"$1/etc/hosts"' \
	--customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook="install -m 0755 '$here/guest-boot-stub.sh' \"\$1/usr/local/sbin/utf8guard-guest-boot\"" \
	--customize-hook='cat >"$1/etc/systemd/system/utf8guard-guest.service" <<EOF
[Unit]
Description=utf8guard deployment tests: run the host share'"'"'s boot.sh
After=multi-user.target
ConditionKernelCommandLine=utf8guard.guest=1

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/utf8guard-guest-boot
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF' \
	--customize-hook='chroot "$1" systemctl enable utf8guard-guest.service' \
	--customize-hook='chroot "$1" systemctl disable smbd nmbd samba-ad-dc nfs-server \
		prometheus-node-exporter auditd 2>/dev/null || true' \
	--customize-hook='rm -f "$1/etc/machine-id"; touch "$1/etc/machine-id"' \
	bookworm "$root" \
	"deb $mirror bookworm main" \
	"deb $mirror bookworm-updates main" \
	"deb $security bookworm-security main"

cp "$root/boot/vmlinuz-$release" "$tmp/vmlinuz"
cp "$root/boot/initrd.img-$release" "$tmp/initrd.img"
echo "$release" >"$tmp/release"
# 8 GiB, sparse: DKMS builds, the exports and their filesystems live here.
mkfs.ext4 -q -F -L utf8guard-guest -d "$root" "$tmp/root.img" 8G >&2
rm -rf "$root"
qemu-img convert -O qcow2 "$tmp/root.img" "$tmp/base.qcow2"
rm -f "$tmp/root.img"
chmod 0444 "$tmp/base.qcow2"
trap - EXIT
chmod 0755 "$tmp"
mv "$tmp" "$dir"
echo "debian-image: built in $((SECONDS - start)) s: $dir" >&2
echo "$dir"
