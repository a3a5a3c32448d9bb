#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# build-test-kernel.sh - build (or reuse) the cached utf8guard test kernel.
#
# 1. extracts /usr/src/linux-source-6.1.tar.xz once per package version
#    into $UTF8GUARD_CACHE/linux-source-<ver> (pristine; never built in),
# 2. configures tinyconfig + test-kernel.config, verifies every symbol
#    (check-kernel-config.sh), builds vmlinux, bzImage, modules and
#    modules_prepare out of tree (O=) into test-kernel-<key>.tmp.<pid>,
#    and installs the kernel's modules into <tree>/modules-root,
# 3. renames it to test-kernel-<key> only when complete.
# Serialised by flock on $UTF8GUARD_CACHE/lock; a second run with the same
# key is a no-op. Progress goes to stderr; the LAST stdout line is the tree
# path: bzImage is <tree>/arch/x86/boot/bzImage, external modules build
# with `make -C <tree> M=<dir>`.
# Usage: tests/vm/build-test-kernel.sh
set -euo pipefail
# shellcheck source=kernel-cache-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/kernel-cache-lib.sh"

log() { echo "build-test-kernel: $*" >&2; }

mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/lock"
if ! flock -n 9; then
	log "waiting for another build holding $CACHE_DIR/lock"
	flock 9
fi

# --- pristine source tree ---------------------------------------------
src=$(source_dir)
if [[ ! -d "$src" ]]; then
	log "extracting $SOURCE_TARBALL -> $src"
	rm -rf "$src".tmp.*
	mkdir "$src.tmp.$$"
	tar -xf "$SOURCE_TARBALL" -C "$src.tmp.$$" --strip-components=1
	mv "$src.tmp.$$" "$src"
fi

# --- cached build? ----------------------------------------------------
dest=$(test_kernel_dir)
if [[ -d "$dest" ]]; then
	log "cached: $dest"
	echo "$dest"
	exit 0
fi

# Stale temp dirs can only come from interrupted builds: we hold the lock.
rm -rf "$CACHE_DIR"/test-kernel-*.tmp.*
tmp=$dest.tmp.$$
mkdir "$tmp"
buildlog=$tmp/build.log

fail() {
	log "FAILED: $*"
	tail -n 40 "$buildlog" >&2 || true
	cp "$buildlog" "$CACHE_DIR/last-failed-build.log" 2>/dev/null || true
	log "full log: $CACHE_DIR/last-failed-build.log"
	rm -rf "$tmp"
	exit 1
}

kmake() { make -C "$src" O="$tmp" "$@" >>"$buildlog" 2>&1; }

start=$SECONDS
log "configuring in $tmp"
kmake tinyconfig || fail "make tinyconfig"
"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "$FRAGMENT" \
	>>"$buildlog" 2>&1 || fail "merge_config.sh"
kmake olddefconfig || fail "make olddefconfig"
"$VM_DIR/check-kernel-config.sh" "$FRAGMENT" "$tmp/.config" || {
	rm -rf "$tmp"
	exit 1
}
cp "$FRAGMENT" "$tmp/test-kernel.config"

log "building with -j$(nproc) (log: $buildlog)"
kmake -j"$(nproc)" all || fail "make all"
kmake modules_prepare || fail "make modules_prepare"
# The kernel's own modules (btrfs, overlay, ocfs2 and what they need),
# stripped, with depmod's tables, as the guest's /lib/modules: the VM
# suites pass modules-root to make-initramfs.sh --tree, so that `modprobe
# btrfs` works in the guest as on a Debian kernel.
kmake modules_install INSTALL_MOD_PATH="$tmp/modules-root" INSTALL_MOD_STRIP=1 ||
	fail "make modules_install"
for f in arch/x86/boot/bzImage vmlinux Module.symvers scripts/mod/modpost \
	modules-root/lib/modules; do
	[[ -e "$tmp/$f" ]] || fail "$f missing after build"
done

mv "$tmp" "$dest"
elapsed=$((SECONDS - start))
log "built in $((elapsed / 60)) min $((elapsed % 60)) s: $dest"
log "source tree (kunit.py, checkpatch.pl): $src"
echo "$dest"
