#!/usr/bin/env bash
# deps.sh - install the Debian packages the utf8guard qemu test harness needs.
#
# Idempotent: asks dpkg which packages are missing and only then runs
# apt-get update + apt-get install. Must run as root on Debian 12.
# Usage: tests/vm/deps.sh
set -euo pipefail

PACKAGES=(
	# building the test kernel and out-of-tree modules
	build-essential bc flex bison libelf-dev libssl-dev kmod cpio xz-utils
	python3
	# kernel sources (test kernel, kunit.py, checkpatch.pl) and stock kernel
	linux-source-6.1 linux-image-amd64 linux-headers-amd64
	# running the VMs
	qemu-system-x86 busybox-static e2fsprogs util-linux
)

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	if [[ "$status" != "install ok installed" ]]; then
		missing+=("$pkg")
	fi
done

if ((${#missing[@]} == 0)); then
	echo "deps.sh: all ${#PACKAGES[@]} packages already installed" >&2
	exit 0
fi

if ((EUID != 0)); then
	echo "deps.sh: missing packages (${missing[*]}) and not root" >&2
	exit 1
fi

echo "deps.sh: installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
