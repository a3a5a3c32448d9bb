# kernel-cache-lib.sh - shared paths and cache key of the test-kernel cache.
#
# Sourced (not run) by build-test-kernel.sh and test-kernel-path.sh.
# Layout under $UTF8GUARD_CACHE (default /var/cache/utf8guard):
#   linux-source-<pkgver>/   pristine extracted linux-source-6.1 tree
#                            (kunit.py, checkpatch.pl, kernel-doc, sparse)
#   test-kernel-<key>/       finished O= build of the test kernel; exists
#                            only once complete (built as *.tmp.* + rename)
#   lock                     flock(1) lock file serialising builds
# <key> = first 16 hex of sha256(fragment, linux-source version, gcc
# version, KEY_EPOCH); bump KEY_EPOCH when the build procedure changes.
# shellcheck shell=bash disable=SC2034  # variables are used by includers

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_DIR=${UTF8GUARD_CACHE:-/var/cache/utf8guard}
FRAGMENT=$VM_DIR/test-kernel.config
SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz
KEY_EPOCH=2

linux_source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1
}

source_dir() {
	echo "$CACHE_DIR/linux-source-$(linux_source_version)"
}

test_kernel_key() {
	{
		cat "$FRAGMENT"
		echo "linux-source-6.1 $(linux_source_version)"
		gcc --version | head -n1
		echo "epoch $KEY_EPOCH"
	} | sha256sum | cut -c1-16
}

test_kernel_dir() {
	echo "$CACHE_DIR/test-kernel-$(test_kernel_key)"
}
