#!/usr/bin/env bash
# make-initramfs.sh - build a busybox-static initramfs for a test VM.
#
# Contents: busybox with a symlink per applet, /init (initramfs-init.sh),
# /utf8guard/vm-lib.sh and assert.sh (tests/lib), the test script as /utf8guard/run.sh, and any
# extra files (.ko modules, static test binaries, shell scripts).
# Usage: make-initramfs.sh OUT.cpio.gz --run SCRIPT [--file SRC[:DEST]]... [--tree DIR]...
#   --run SCRIPT     host sh script run by /init (becomes /utf8guard/run.sh)
#   --file SRC:DEST  copy SRC to absolute DEST in the initramfs; DEST ending
#                    in / is a directory; no DEST = /utf8guard/<basename>
#   --tree DIR       copy the contents of DIR to the initramfs root
#                    (e.g. a lib/modules tree from stock-modules.sh)
set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUSYBOX=${BUSYBOX:-/bin/busybox}

usage() {
	sed -n 's/^# Usage: /usage: /p; s/^#   /  /p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

(($# >= 1)) || usage
out=$1
shift
run=
files=()
trees=()
while (($#)); do
	case "$1" in
	--run)
		(($# >= 2)) || usage
		run=$2
		shift 2
		;;
	--file)
		(($# >= 2)) || usage
		files+=("$2")
		shift 2
		;;
	--tree)
		(($# >= 2)) || usage
		[[ -d "$2" ]] || { echo "make-initramfs: no such directory: $2" >&2; exit 1; }
		trees+=("$2")
		shift 2
		;;
	*) usage ;;
	esac
done
[[ -n "$run" ]] || usage
[[ -f "$run" ]] || { echo "make-initramfs: no such script: $run" >&2; exit 1; }

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT

# busybox + one symlink per applet (bin/sh, sbin/insmod, usr/bin/..., ...)
mkdir -p "$staging"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,utf8guard}
install -m 0755 "$BUSYBOX" "$staging/bin/busybox"
while read -r applet; do
	[[ "$applet" == bin/busybox ]] && continue
	ln -sf /bin/busybox "$staging/$applet"
done < <("$BUSYBOX" --list-full)

install -m 0755 "$VM_DIR/initramfs-init.sh" "$staging/init"
install -m 0644 "$VM_DIR/vm-lib.sh" "$staging/utf8guard/vm-lib.sh"
install -m 0644 "$VM_DIR/../lib/assert.sh" "$staging/utf8guard/assert.sh"
install -m 0755 "$run" "$staging/utf8guard/run.sh"

for spec in "${files[@]}"; do
	src=${spec%%:*}
	dest=${spec#*:}
	[[ "$spec" == *:* ]] || dest=/utf8guard/
	[[ "$dest" == /* ]] || { echo "make-initramfs: DEST must be absolute: $spec" >&2; exit 1; }
	[[ "$dest" == */ ]] && dest=$dest$(basename "$src")
	[[ -f "$src" ]] || { echo "make-initramfs: no such file: $src" >&2; exit 1; }
	if [[ -x "$src" ]] && readelf -l "$src" 2>/dev/null | grep -q 'Requesting program interpreter'; then
		echo "make-initramfs: warning: $src is dynamically linked; the initramfs has no libc" >&2
	fi
	mkdir -p "$staging$(dirname "$dest")"
	cp -p "$src" "$staging$dest"
done

for tree in "${trees[@]}"; do
	cp -a "$tree/." "$staging/"
done

mkdir -p "$(dirname "$out")"
(cd "$staging" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "make-initramfs: wrote $out ($(du -k "$out" | cut -f1) KiB)" >&2
