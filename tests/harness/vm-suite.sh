#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vm-suite.sh - run the module's suites in qemu on one kernel.
#
#   test 1|2
#          the project's debug test kernel (KUnit + KASAN, UBSAN, lockdep,
#          kmemleak, panic_on_warn), whose suites are split over two VMs:
#          1: KUnit suites, the fs hook suite with its stress on tmpfs, the
#          integration suite (guest-run-test-kernel.sh); 2: the nf hook
#          suite and the fs hook's stress on ext4
#          (guest-run-test-kernel-2.sh).  make check runs them as two
#          suites (vm-test-1, vm-test-2) side by side, and its scheduler
#          gives a free core to another suite when the shorter one ends
#          (SUITES=vm-test tests/run-all.sh runs just these two).  The
#          soaks run longer than on the stock kernels (see SOAK below),
#          at full length with CHECK_LONG (make check-long).
#   stock NAME
#          a Debian kernel with modules built against its headers: the fs
#          hook, nf hook and integration suites (guest-run-stock-kernel.sh),
#          and beside it the nf hook's races in a second VM under multi-threaded TCG
#          (guest-run-race.sh).
#          NAME is a row of tests/vm/kernels.conf (the kernel matrix:
#          6.1, 6.12, 6.12-rt); without it, the kernel linux-image-amd64
#          depends on.  The soaks run shortened (see SOAK below)
#          unless CHECK_LONG is set (make check-long).
#
# Builds the modules for that kernel (warning-free, W=1), an initramfs with
# them and the guest tools, boots it (tests/vm/run-vm.sh judges: success
# only through the second serial port, no kernel splat), and for the test
# kernel parses the KUnit results with kunit.py.  The last stdout line is
# a summary: "<kind>: N passed, N failed[, kunit ...]".
# What it builds is kept in build/vm-<kind>[-NAME]; a second VM of the same
# make check run (same CHECK_RUN_ID) uses it instead of building it again.
# Usage: vm-suite.sh test 1|2 | stock [NAME]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
vm=$top/tests/vm
usage="usage: vm-suite.sh test 1|2 | stock [NAME]"
kind=${1:?$usage}
name=
vmn=1
stock_kernel=("$vm/stock-kernel.sh")
out=$top/build/vm-$kind
case $kind in
test)
	case ${2:-} in
	1 | 2) vmn=$2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	;;
stock)
	name=${2:-}
	if [ -n "$name" ]; then
		stock_kernel+=(--kernel "$name")
		out=$out-$name
	fi
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
mkdir -p "$out"

# The soaks' lengths: the race each one is there for shows at these
# lengths (Documentation/testing.rst, "Soak lengths"); make check-long
# runs them at full length, on every kernel.  The guest scripts take them
# from the kernel command line (/init's environment).
if [ -n "${CHECK_LONG:-}" ]; then
	SOAK="FS_STRESS_ITER=10000 FS_CYCLES=50 NF_CYCLES=20 NF_RACE_COUNT=300"
elif [ "$kind" = test ]; then
	# and the fs op matrix on tmpfs only: the stock kernels run it on
	# ext4 and 9p too, the debug kernel in make check-long; so its fs
	# stress on ext4 (VM 2).
	SOAK="FS_STRESS_ITER=1000 FS_CYCLES=20 FS_MATRIX_ON=tmpfs FS_STRESS_EXT4=0"
else
	SOAK="FS_STRESS_ITER=2000 FS_CYCLES=10 NF_CYCLES=5 NF_RACE_COUNT=150"
fi
# The TCP fuzzer's seed, to replay a run (else the guest draws one).
[ -z "${NF_FUZZ_SEED:-}" ] || SOAK="$SOAK NF_FUZZ_SEED=$NF_FUZZ_SEED"

# The last-but-one stdout line, for run-all.sh's kernel matrix table:
#   matrix: KERNEL build=ok|FAIL [SUITE=PASSED/FAILED/EXIT]... vm=PASS|FAIL
# (SUITE from the guest's "utf8guard-suite: SUITE exit N" lines).
matrix_build=FAIL
matrix_suites=
matrix_vm=-
report_matrix() {
	[ "$kind" = stock ] || return 0
	echo "matrix: ${name:-stock} build=$matrix_build$matrix_suites vm=$matrix_vm"
}
trap report_matrix EXIT

case $kind in
test)
	tree=$("$vm/build-test-kernel.sh" | tail -n 1)
	image=$tree/arch/x86/boot/bzImage
	;;
stock)
	tree=$("${stock_kernel[@]}" --build)
	image=$("${stock_kernel[@]}" --image)
	;;
esac

# prepare: the modules, the guest tools and the initramfs of each VM,
# built once per make check run: the VM suites of one kernel take turns
# (flock), and the second finds the first's stamp.
prepare() {
	mods=$("$here/build-modules.sh" "$tree" | tail -n 1)
	guest_cc=(gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror
		-I "$top/userspace")
	"${guest_cc[@]}" -o "$out/guest_write" "$top/tests/module/guest_write.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/fs_op" "$top/tests/fs/fs_op.c" \
		"$top/tests/fs/uring.c" "$top/userspace/hex.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/fs_stress" "$top/tests/fs/fs_stress.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/ovl_stall" "$top/tests/fs/ovl_stall.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -pthread -o "$out/holdlock" "$top/tests/fs/holdlock.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/scope_stress" "$top/tests/fs/scope_stress.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -pthread -o "$out/dirhold" "$top/tests/fs/dirhold.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/exempt_stress" "$top/tests/fs/exempt_stress.c"
	"${guest_cc[@]}" -D_GNU_SOURCE -o "$out/in_cgroupns" "$top/tests/fs/in_cgroupns.c"
	"${guest_cc[@]}" -o "$out/bpfattach" "$top/tests/fs/bpfattach.c"
	"${guest_cc[@]}" -o "$out/audit_listen" "$top/tests/module/audit_listen.c"
	"$top/tests/net/build-net-tools.sh" "$out"

	# The filesystems of the fs hook suite: an empty ext4 image
	# (loop-mounted in the guest), btrfs and ocfs2 images, a fresh host
	# directory shared over 9p, and the modules they need: the stock
	# kernel's, or those the test kernel's build installed.
	rm -f "$out/ext4.img" "$out/btrfs.img" "$out/ocfs2.img"
	mkfs.ext4 -q -F "$out/ext4.img" 64M
	# btrfs: mixed block groups, below the 114 MB of the default layout.
	truncate -s 64M "$out/btrfs.img"
	mkfs.btrfs -q -f --mixed "$out/btrfs.img" >/dev/null
	# ocfs2: local mount (no cluster stack), with reflinks.
	truncate -s 64M "$out/ocfs2.img"
	mkfs.ocfs2 -q -F -M local --fs-features=refcount,xattr -N 1 -b 4K -C 4K \
		"$out/ocfs2.img" >/dev/null
	rm -rf "$out/9p-share"
	mkdir -p "$out/9p-share"
	# The test kernel's own modules (build-test-kernel.sh installed them).
	tree_args=(--tree "$tree/modules-root")
	if [ "$kind" = stock ]; then
		# bcachefs.ko where the kernel has it (6.12, not 6.1).
		version=$("${stock_kernel[@]}" --version)
		bcachefs=()
		! modprobe --show-depends -S "$version" bcachefs >/dev/null 2>&1 ||
			bcachefs=(bcachefs)
		"$vm/stock-modules.sh" "$version" \
			"$out/stock-modules" crc32c_generic ext4 btrfs overlay ocfs2 \
			"${bcachefs[@]}" loop 9p 9pnet_virtio virtio_pci veth \
			--deps-of "$mods/utf8guard_nf.ko"
		# utf8guardctl's suite: the modules and the CLI as `make install
		# DESTDIR=...` puts them (modules_install + depmod, so that `load`
		# finds them by name), over the stock modules; from a copy of the
		# tracked files, not to build in the source tree.  The CLI is linked
		# with libkmod (no static one): its shared libraries go along.
		stage=$out/install-root
		src=$out/install-src
		rm -rf "$stage" "$src"
		mkdir -p "$stage" "$src"
		cp -a "$out/stock-modules/." "$stage/"
		(cd "$top" && git ls-files -z | cpio --quiet -0 -pdm "$src")
		make -C "$src" install DESTDIR="$stage" KERNELDIR="$tree" >"$out/install.log" 2>&1 || {
			cat "$out/install.log" >&2
			echo "vm-suite: make install DESTDIR=$stage failed" >&2
			exit 1
		}
		ctl=$(find "$stage" -path '*/sbin/utf8guardctl' -type f | head -n 1)
		[ -n "$ctl" ] || { echo "vm-suite: make install put no utf8guardctl in $stage" >&2; exit 1; }
		"$vm/copy-libs.sh" "$ctl" "$stage"
		tree_args=(--tree "$stage")
	fi

	files=()
	while IFS= read -r ko; do
		files+=(--file "$ko:/utf8guard/modules/")
	done < <(find "$mods" -name '*.ko' | sort)
	for tool in guest_write fs_op fs_stress ovl_stall holdlock scope_stress dirhold exempt_stress in_cgroupns bpfattach net_op audit_listen; do
		files+=(--file "$out/$tool:/utf8guard/tools/")
	done
	files+=(--file "$out/tcp_fuzz:/utf8guard/tools/")
	files+=(--file "$top/tests/module/integration_test.sh:/utf8guard/tools/"
		--file "$top/tests/module/cli_admin_test.sh:/utf8guard/tools/"
		--file "$top/tests/module/audit_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_hook_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_btrfs_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_overlay_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_ocfs2_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_bcachefs_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_lock_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_scope_test.sh:/utf8guard/tools/"
		--file "$top/tests/fs/fs_exempt_test.sh:/utf8guard/tools/"
		--file "$top/tests/net/nf_hook_test.sh:/utf8guard/tools/"
		--file "$top/tests/net/nf_race_test.sh:/utf8guard/tools/"
		--file "$top/tests/net/tcp_fuzz_test.sh:/utf8guard/tools/"
		--file "$top/Documentation/ABI/testing/sysfs-kernel-utf8guard-net:/utf8guard/tools/"
		--file "$top/Documentation/ABI/testing/sysfs-kernel-utf8guard:/utf8guard/tools/"
		--file "$top/Documentation/ABI/testing/sysfs-kernel-utf8guard-fs:/utf8guard/tools/"
		--file "$out/ext4.img:/utf8guard/")
	# btrfs and ocfs2 for the VM that runs their suites (not VM 2).
	images=(--file "$out/btrfs.img:/utf8guard/" --file "$out/ocfs2.img:/utf8guard/")
	if [ "$kind" = stock ]; then
		"$vm/make-initramfs.sh" "$out/initrd-1.cpio.gz" \
			--run "$here/guest-run-stock-kernel.sh" "${files[@]}" "${images[@]}" \
			"${tree_args[@]}"
		"$vm/make-initramfs.sh" "$out/initrd-race.cpio.gz" \
			--run "$here/guest-run-race.sh" "${files[@]}" "${images[@]}" "${tree_args[@]}"
	else
		"$vm/make-initramfs.sh" "$out/initrd-1.cpio.gz" \
			--run "$here/guest-run-test-kernel.sh" "${files[@]}" "${images[@]}" \
			"${tree_args[@]}"
		"$vm/make-initramfs.sh" "$out/initrd-2.cpio.gz" \
			--run "$here/guest-run-test-kernel-2.sh" "${files[@]}" "${tree_args[@]}"
	fi
}

exec 8>"$out/.prepare.lock"
flock 8
if [ -z "${CHECK_RUN_ID:-}" ] || [ "$(cat "$out/.prepared" 2>/dev/null)" != "$CHECK_RUN_ID" ]; then
	rm -f "$out/.prepared"
	prepare
	echo "${CHECK_RUN_ID:-}" >"$out/.prepared"
else
	echo "vm-suite: using what this run built in $out"
fi
flock -u 8
matrix_build=ok

# vm_args N: the run-vm.sh arguments of VM N (in rv_args); its console log
# is console-N.log.  VM 1 of the test kernel and the stock kernel's VM
# share a host directory over 9p.
vm_args() {
	# In make check the debug kernel's VMs take about 1000 s alone and the
	# stock kernel's about 600 s; on a slow or shared host, twice that.
	# The full soaks of make check-long take about three times as long.
	local limit=2400
	[ "$kind" != test ] || limit=3600
	[ -z "${CHECK_LONG:-}" ] || limit=$((limit * 3))
	rv_args=(--kernel "$image" --initrd "$out/initrd-$1.cpio.gz"
		--log "$out/console-$1.log" --mem 1536 --timeout "$limit")
	[ "$1" != 1 ] || rv_args+=(--virtfs "$out/9p-share")
	rv_args+=(--append "$SOAK")
}

status=0
# The stock kernel's races, in a VM of their own under multi-threaded TCG
# (tests/net/nf_race_test.sh says why; about 200 s), beside VM 1: that
# one waits on its guest's sleeps for half its time.
race_pid=
if [ "$kind" = stock ]; then
	"$vm/run-vm.sh" --kernel "$image" --initrd "$out/initrd-race.cpio.gz" \
		--log "$out/console-race.log" --timeout 600 --mem 1024 \
		--mttcg yes --append "$SOAK" >"$out/race-vm.out" 2>&1 &
	race_pid=$!
fi
vm_args "$vmn"
"$vm/run-vm.sh" "${rv_args[@]}" || status=1
logs=("$out/console-$vmn.log")
if [ -n "$race_pid" ]; then
	wait "$race_pid" || status=1
	cat "$out/race-vm.out" >&2
	logs+=("$out/console-race.log")
fi

# The matrix must test the kernel it names: its release, and PREEMPT_RT
# when its configuration says so.
if [ "$kind" = stock ]; then
	release=$("${stock_kernel[@]}" --version)
	booted=$(tr -d '\r' <"$out/console-1.log" | sed -n 's/^utf8guard-kernel: //p' | head -n 1)
	if [ "${booted%% *}" != "$release" ]; then
		echo "vm-suite: the guest ran '${booted:-nothing}', not $release" >&2
		status=1
	elif grep -qx 'CONFIG_PREEMPT_RT=y' "$tree/include/config/auto.conf" &&
		[[ "$booted" != *PREEMPT_RT* ]]; then
		echo "vm-suite: $release is configured PREEMPT_RT but the guest kernel says: $booted" >&2
		status=1
	fi
fi
matrix_vm=$([ $status -eq 0 ] && echo PASS || echo FAIL)
matrix_suites=$(cat "${logs[@]}" | tr -d '\r' | awk '
	/^[0-9]+ passed, [0-9]+ failed/ { last = $1 "/" $3 }
	/^utf8guard-suite: [^ ]+ exit [0-9]+$/ {
		printf " %s=%s/%s", $2, (last == "" ? "-/-" : last), $4
		last = ""
	}')

# One "N passed, N failed" line per guest suite; sum them.
counts=$(cat "${logs[@]}" | grep -aEo '^[0-9]+ passed, [0-9]+ failed' |
	awk '{ p += $1; f += $3; n++ } END { if (n) printf "%d passed, %d failed (%d suites)", p, f, n }')
counts=${counts:-no result line}
label=$kind${name:+-$name}
[ "$kind" != test ] || label="$label-$vmn"
summary="$label: $counts"
if [ "$kind" = test ] && [ "$vmn" = 1 ]; then
	# As many suites as the guest runner names (its kunit_suites).
	kunit_count=$(sed -n '/^kunit_suites="/,/"$/p' "$here/guest-run-test-kernel.sh" |
		sed 's/kunit_suites=//; s/"//g' | wc -w)
	if kunit=$("$vm/kunit-parse.sh" "$out/console-1.log" --suites "$kunit_count" 2>&1 | tail -n 1); then
		summary="$summary, kunit: $kunit"
	else
		summary="$summary, kunit: FAILED ($kunit)"
		status=1
	fi
fi
# The first failed checks of each guest, for run-all.sh's closing lines
# (CI shows the end of the output).
for console in "${logs[@]}"; do
	tr -d '\r' <"$console" | grep -a '^not ok' | head -n 5 |
		sed "s|^|vm-suite: ${console##*/}: |" || true
done
# Each guest section's seconds ("utf8guard-time: NAME took N s"), for
# run-all.sh's progress lines: where a slow run spent its time.
for console in "${logs[@]}"; do
	sections=$(tr -d '\r' <"$console" | sed -n 's/^utf8guard-time: \([^ ]*\) took \([0-9]*\) s$/\1=\2s/p' | tr '\n' ' ')
	[ -z "$sections" ] || echo "vm-suite: sections of ${console##*/}: $sections"
done
trap - EXIT
report_matrix
echo "$summary"
exit $status
