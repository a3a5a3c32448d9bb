#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# debian-image.sh - the Debian guest: a bookworm root filesystem built by
# mmdebstrap from Debian's packages, with systemd as init, a stock kernel
# of the matrix (image, modules and headers, so that DKMS builds inside
# the guest), and the servers and clients the deployment suites use
# (tests/guest/).  Two variants:
#
#   servers  (the default) the matrix row 6.1; knfsd, Samba, the clients
#            and the real clients of guest-deploy and guest-servers
#   ksmbd    the matrix row 6.12 (Debian's 6.1 ksmbd serves neither of
#            Debian's ksmbd-tools: see the admin guide); ksmbd-tools from
#            bookworm-backports, the cifs client and smbclient; no Samba
#            (ksmbd-tools conflicts with it)
#
# Built once and cached like the test kernel:
#
#   $UTF8GUARD_CACHE/debian-guest-<key>/
#       base.qcow2     the root filesystem (ext4 on the whole disk,
#                      /dev/vda); a run boots a qcow2 overlay of it and
#                      never writes the base
#       vmlinuz        the guest's own kernel and initramfs (booted with
#       initrd.img     qemu -kernel/-initrd, root=/dev/vda)
#       release        the kernel release (uname -r in the guest)
#
# <key> = first 16 hex of sha256(this script, the guest's boot stub, the
# variant, its package list, its kernel row): any change to what goes
# into an image builds a new one.  The directory exists only once
# complete (built as *.tmp.* and renamed); builds of every variant are
# serialised by debian-guest.lock.
#
# The image holds one project file of its own, the boot stub
# (guest-boot-stub.sh, run by utf8guard-guest.service after
# multi-user.target): it mounts the host directory shared over virtio-9p
# (tag utf8guard) and runs its boot.sh, so that the tests themselves come
# from the tree under test, not from the cached image.
#
# Usage: debian-image.sh [--variant servers|ksmbd]
#                                   build if needed; print the directory
#        debian-image.sh [--variant servers|ksmbd] --key
#                                   print the key only
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${UTF8GUARD_CACHE:-/var/cache/utf8guard}

usage() {
	echo "usage: $0 [--variant servers|ksmbd] [--key]" >&2
	exit 2
}
variant=servers
want_key=
while (($#)); do
	case $1 in
	--variant)
		(($# >= 2)) || usage
		variant=$2
		shift
		;;
	--key) want_key=1 ;;
	*) usage ;;
	esac
	shift
done

mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security
SOURCES=(
	"deb $mirror bookworm main"
	"deb $mirror bookworm-updates main"
	"deb $security bookworm-security main"
)
case $variant in
servers) row=6.1 ;;
ksmbd)
	row=6.12
	SOURCES+=("deb $mirror bookworm-backports main")
	;;
*) usage ;;
esac
# The row's image and headers packages (kernels.conf: the 6.12 ones come
# from bookworm-security or bookworm-backports) and its release.
read -r release image_pkg headers_pkg < <(awk -v n="$row" '$1 == n { print $3, $4, $5 }' \
	"$top/tests/vm/kernels.conf")
[[ -n "${headers_pkg:-}" ]] || {
	echo "debian-image: no row $row in tests/vm/kernels.conf" >&2
	exit 1
}

# What the deployment suites need, by what for.  Changing this list
# changes the key: the next run builds a new image.
PACKAGES=(
	# boot: systemd as init, the kernel, a login for debugging by hand
	systemd-sysv udev kmod "$image_pkg" initramfs-tools procps
	# DKMS inside the guest: apt install of utf8guard-dkms builds there
	dkms "$headers_pkg" build-essential libkmod2
)
# The services the image has enabled that a suite starts itself.
SERVICES=()
case $variant in
servers)
	PACKAGES+=(
		# file servers and their clients, over loopback (ksmbd: the
		# ksmbd variant)
		nfs-kernel-server nfs-common samba smbclient cifs-utils
		# real clients on a hooked filesystem and on a watched port
		tar rsync git curl python3 bsdutils iproute2
		# where operations teams look
		auditd prometheus-node-exporter
	)
	SERVICES+=(smbd nmbd samba-ad-dc nfs-server prometheus-node-exporter auditd)
	;;
ksmbd)
	PACKAGES+=(
		# the in-kernel SMB server's user space (the newer of
		# Debian's two, 3.5.2) and the clients
		ksmbd-tools/bookworm-backports smbclient cifs-utils
	)
	SERVICES+=(ksmbd)
	;;
esac

key() {
	{
		cat "${BASH_SOURCE[0]}" "$here/guest-boot-stub.sh"
		echo "$variant"
		printf '%s\n' "${PACKAGES[@]}"
		grep -E "^[[:space:]]*${row//./\\.}[[:space:]]" "$top/tests/vm/kernels.conf"
	} | sha256sum | cut -c1-16
}

if [[ -n "$want_key" ]]; then
	key
	exit 0
fi

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
echo "debian-image: building $dir ($variant: mmdebstrap, ${#PACKAGES[@]} packages)" >&2

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
	--customize-hook="for s in ${SERVICES[*]}; do chroot \"\$1\" systemctl disable \$s 2>/dev/null || true; done" \
	--customize-hook='rm -f "$1/etc/machine-id"; touch "$1/etc/machine-id"' \
	bookworm "$root" "${SOURCES[@]}"

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
