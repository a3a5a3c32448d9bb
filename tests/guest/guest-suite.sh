#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# guest-suite.sh SUITE - run a suite in the Debian guest (debian-image.sh):
# a stock kernel of the matrix (6.1; 6.12 for ksmbd) and the guest's own
# initramfs, systemd as init, the root filesystem a qcow2 overlay of the
# cached image (thrown away at the end).  The suite script comes over
# virtio-9p with what it needs; the guest runs one stage of it per boot
# (boot.sh) and the host boots the same disk again until the guest says
# "done" (at most 8 boots).  Each boot is judged by run-vm.sh: its
# stage's "utf8guard-vm: success" on the second serial port, and no kernel
# splat on the console.
#
#   deploy   deploy_test.sh: apt install of the packages (DKMS builds in
#            the guest), boot with the unit enabled, upgrade, purge.  The
#            packages are built here by `make deb`, twice: this tree's
#            version V, and V.1 from a copy whose version is raised (the
#            upgrade).
#   servers  servers_test.sh: knfsd (NFSv3, NFSv4.2) and Samba's smbd
#            serving an ext4 export to the kernel's clients; tar, rsync,
#            git; curl, logger.
#   ksmbd    ksmbd_test.sh, in the image's ksmbd variant (the 6.12
#            kernel, ksmbd-tools from bookworm-backports, no Samba):
#            ksmbd serving an ext4 export to the kernel's cifs client and
#            to smbclient.
#
# Multi-threaded TCG: DKMS builds in the guest take 2 minutes on two vCPUs
# (twice that on one host thread); no module is unloaded in these suites
# (run-vm.sh says why that matters).  Prints each stage's checks and a
# last line "N passed, N failed" over all stages.
#
# Usage: guest-suite.sh deploy|servers|ksmbd
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=${1:-}
variant=servers
case $suite in
deploy) script=deploy_test.sh ;;
servers) script=servers_test.sh ;;
ksmbd) script=ksmbd_test.sh variant=ksmbd ;;
*)
	echo "usage: $0 deploy|servers|ksmbd" >&2
	exit 2
	;;
esac

work=$top/build/guest-$suite
rm -rf "$work"
mkdir -p "$work/share/debs"
start=$SECONDS

image=$("$here/debian-image.sh" --variant "$variant" | tail -n 1) || {
	echo "guest-suite: building the Debian guest image failed"
	echo "0 passed, 1 failed"
	exit 1
}
echo "guest-suite: image $image ($variant, $((SECONDS - start)) s)"

version=$(sed -n 's/^#define UTF8GUARD_VERSION "\(.*\)"$/\1/p' "$top/core/utf8guard_version.h")

# build_debs SRC OUT: make deb in SRC, the .debs and their version to OUT.
build_debs() {
	local src=$1 out=$2 v
	v=$(sed -n 's/^#define UTF8GUARD_VERSION "\(.*\)"$/\1/p' "$src/core/utf8guard_version.h")
	mkdir -p "$out"
	# (the copy is inside this checkout: git must not take it for one)
	if ! GIT_CEILING_DIRECTORIES=$work make -C "$src" deb DEB_DIR="$work/deb-build" \
		>"$out.log" 2>&1; then
		tail -n 20 "$out.log"
		return 1
	fi
	cp "$work/deb-build/utf8guard-dkms_${v}_all.deb" "$work/deb-build/utf8guard_${v}_amd64.deb" "$out/"
	echo "$v" >"$out/version"
	rm -rf "$work/deb-build"
}

# raise_version SRC V: V in every place the version lives (the header,
# dkms.conf, a new debian/changelog entry), in a copy of the tree.
raise_version() {
	local src=$1 v=$2 trailer
	sed -i "s/^#define UTF8GUARD_VERSION \".*\"$/#define UTF8GUARD_VERSION \"$v\"/" \
		"$src/core/utf8guard_version.h"
	sed -i "s/^PACKAGE_VERSION=\".*\"$/PACKAGE_VERSION=\"$v\"/" "$src/dkms.conf"
	trailer=$(grep -m1 '^ -- ' "$src/debian/changelog" | sed 's/>  .*/>/')
	{
		printf 'utf8guard (%s) unstable; urgency=medium\n\n' "$v"
		printf '  * The upgrade of tests/guest/deploy_test.sh.\n\n'
		printf '%s  %s\n\n' "$trailer" "$(date -R)"
		cat "$src/debian/changelog"
	} >"$src/debian/changelog.new"
	mv "$src/debian/changelog.new" "$src/debian/changelog"
}

case $suite in
servers | ksmbd)
	echo "guest-suite: make deb ($version)"
	build_debs "$top" "$work/share/debs/1" || {
		echo "guest-suite: make deb failed"
		echo "0 passed, 1 failed"
		exit 1
	}
	;;
deploy)
	echo "guest-suite: make deb ($version, and $version.1 for the upgrade)"
	build_debs "$top" "$work/share/debs/1" || {
		echo "guest-suite: make deb failed"
		echo "0 passed, 1 failed"
		exit 1
	}
	mkdir -p "$work/src2"
	(cd "$top" && git ls-files -co --exclude-standard -z | cpio --quiet -0 -pdm "$work/src2")
	raise_version "$work/src2" "$version.1"
	build_debs "$work/src2" "$work/share/debs/2" || {
		echo "guest-suite: make deb of $version.1 failed"
		echo "0 passed, 1 failed"
		exit 1
	}
	rm -rf "$work/src2"
	;;
esac
echo "guest-suite: packages built ($((SECONDS - start)) s)"

cp "$here/boot.sh" "$here/$script" "$here/guest-lib.sh" "$top/tests/lib/assert.sh" "$work/share/"
echo "$script" >"$work/share/suite"
qemu-img create -q -f qcow2 -b "$image/base.qcow2" -F qcow2 "$work/disk.qcow2"

passed=0 failed=0 ok=0
for boot in 1 2 3 4 5 6 7 8; do
	boot_start=$SECONDS
	log=$work/boot-$boot.log
	rc=0
	"$top/tests/vm/run-vm.sh" --kernel "$image/vmlinuz" --initrd "$image/initrd.img" \
		--drive "$work/disk.qcow2" --virtfs "$work/share" --log "$log" \
		--timeout 1200 --mem 2048 --mttcg yes \
		--append "root=/dev/vda rw utf8guard.guest=1" || rc=$?
	for f in "$work/share/logs"/stage-*.log; do
		[[ -f "$f" && ! -f "$f.shown" ]] || continue
		echo "---- $(basename "$f" .log) ----"
		cat "$f"
		touch "$f.shown"
		counts=$(tail -n 1 "$f")
		if [[ "$counts" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
			passed=$((passed + BASH_REMATCH[1]))
			failed=$((failed + BASH_REMATCH[2]))
		fi
	done
	tr -d '\r' <"$log.result" | grep '^utf8guard-guest:' | sed 's/^/guest-suite: /'
	echo "guest-suite: boot $boot took $((SECONDS - boot_start)) s"
	if ((rc != 0)); then
		echo "guest-suite: boot $boot failed (console: $log)"
		failed=$((failed + 1))
		break
	fi
	if tr -d '\r' <"$log.result" | grep -qx 'utf8guard-guest: done'; then
		ok=1
		break
	fi
done
if ((!ok && rc == 0)); then
	echo "guest-suite: the guest never said done"
	failed=$((failed + 1))
fi
rm -f "$work/disk.qcow2"
echo "guest-suite: $suite took $((SECONDS - start)) s"
echo "$passed passed, $failed failed"
((failed == 0))
