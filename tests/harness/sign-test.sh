#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sign-test.sh - `make install SIGN_KEY=... SIGN_CERT=...` signs the modules.
#
# For each kernel of the matrix whose build tree is installed
# (tests/vm/kernels.conf; 6.12 installs compressed .ko.xz): a throwaway
# RSA key and certificate, `make install` into a DESTDIR from a copy of
# the tree, then on every installed module
#   - modinfo shows signer (the certificate's CN), sig_id PKCS#7 and the
#     kernel's hash algorithm,
#   - the appended PKCS#7 signature verifies (openssl cms) against the
#     certificate over the module's bytes, and no longer does once one
#     byte of the module is changed (the check can fail).
# Also: without SIGN_KEY nothing is signed; a missing or unreadable key, a
# directory as key, or a key without certificate stops `make install`
# with an error naming it, before anything is installed.
# Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/assert.sh
. "$top/tests/lib/assert.sh"

work=$top/build/sign-test
rm -rf "$work"
mkdir -p "$work"

# The modules' magic trailer; the 12 bytes before it are struct
# module_signature, whose last 4 are the signature's length (big endian).
MAGIC='~Module signature appended~'

openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -sha256 \
	-subj '/CN=utf8guard sign-test key/' -outform PEM \
	-keyout "$work/key.pem" -out "$work/cert.pem" >"$work/openssl.log" 2>&1 ||
	fail "openssl makes a test key" "$(cat "$work/openssl.log")"

# split_signature MODULE PAYLOAD SIG: the module without its signature
# and the signature (DER), as the kernel's module_sig_check() splits them.
split_signature() {
	python3 - "$@" <<'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
magic = b'~Module signature appended~\n'
if not data.endswith(magic):
    sys.exit('no signature trailer')
info = data[-len(magic) - 12:-len(magic)]
sig_len = struct.unpack('>I', info[8:12])[0]
end = len(data) - len(magic) - 12
open(sys.argv[2], 'wb').write(data[:end - sig_len])
open(sys.argv[3], 'wb').write(data[end - sig_len:end])
EOF
}

# verify MODULE: the appended signature verifies against cert.pem.
verify() {
	local plain=$1
	if [[ "$1" == *.xz ]]; then
		plain=$work/plain.ko
		xz -dc "$1" >"$plain" || return 1
	fi
	split_signature "$plain" "$work/payload" "$work/sig.der" || return 1
	openssl cms -verify -binary -inform DER -in "$work/sig.der" \
		-content "$work/payload" -certfile "$work/cert.pem" -noverify \
		-out /dev/null 2>"$work/cms.log"
}

# A copy of what `make install` needs, so that the tests never touch the
# working tree's own build products.
tree=$work/tree
mkdir -p "$tree"
(cd "$top" && find Makefile Kbuild core kernel userspace packaging \
	\( -name '*.[ch]' -o -name Kbuild -o -name Makefile -o -name '*.8' \
	-o -name '*.bash-completion' -o -path 'packaging/*' -type f \) -print0 |
	cpio --quiet -0 -pdm "$tree")

kernels=0
for name in $("$top/tests/vm/stock-kernel.sh" --list); do
	release=$("$top/tests/vm/stock-kernel.sh" --kernel "$name" --version 2>/dev/null) || continue
	kdir=/lib/modules/$release/build
	kernels=$((kernels + 1))
	root=$work/root-$name
	# KERNELDIR alone, as the admin guide says: the release comes from it.
	args=(-C "$tree" KERNELDIR="$kdir" DESTDIR="$root" BUILD="$work/cli-$name")

	make "${args[@]}" install SIGN_KEY="$work/key.pem" \
		SIGN_CERT="$work/cert.pem" >"$work/install-$name.log" 2>&1
	expect_eq "$name: make install SIGN_KEY=... SIGN_CERT=... (exit status)" 0 $?
	mapfile -t mods < <(find "$root/lib/modules/$release" -name 'utf8guard*.ko*' | sort)
	expect_eq "$name: three modules installed for $release" 3 "${#mods[@]}"
	expect_eq "$name: depmod ran for $release" yes \
		"$([ -s "$root/lib/modules/$release/modules.dep" ] && echo yes || echo no)"
	for mod in "${mods[@]}"; do
		base=${mod##*/}
		expect_eq "$name: $base: modinfo signer" "utf8guard sign-test key" \
			"$(modinfo -F signer "$mod")"
		expect_eq "$name: $base: modinfo sig_id" "PKCS#7" "$(modinfo -F sig_id "$mod")"
		expect_eq "$name: $base: modinfo sig_hashalgo" sha256 \
			"$(modinfo -F sig_hashalgo "$mod")"
		if verify "$mod"; then
			pass "$name: $base: signature verifies against the certificate"
		else
			fail "$name: $base: signature verifies against the certificate" \
				"$(cat "$work/cms.log")"
		fi
	done
	expect_eq "$name: one signature per module after a second make install" 0 \
		"$(make "${args[@]}" install SIGN_KEY="$work/key.pem" SIGN_CERT="$work/cert.pem" \
			>"$work/install2-$name.log" 2>&1; echo $?)"
	one=$(find "$root/lib/modules/$release" -name 'utf8guard.ko*' | head -n 1)
	plain=$work/again.ko
	case $one in
	*.xz) xz -dc "$one" >"$plain" ;;
	*) cp "$one" "$plain" ;;
	esac
	expect_eq "$name: utf8guard.ko holds one signature trailer" 1 \
		"$(grep -c -a -F "$MAGIC" "$plain")"

	# The check can fail: one changed byte in the module's code (its bits
	# flipped: writing a fixed value leaves a byte that already has it).
	byte=$(od -An -tu1 -j 4096 -N 1 "$plain" | tr -d ' ')
	printf "\\$(printf '%03o' $((255 - byte)))" |
		dd of="$plain" bs=1 seek=4096 conv=notrunc status=none
	expect_eq "$name: byte 4096 changed" "$((255 - byte))" \
		"$(od -An -tu1 -j 4096 -N 1 "$plain" | tr -d ' ')"
	if verify "$plain"; then
		fail "$name: a changed module no longer verifies" "it verified"
	else
		pass "$name: a changed module no longer verifies"
	fi

	rm -rf "$root"
	make "${args[@]}" install >"$work/install-plain-$name.log" 2>&1
	expect_eq "$name: make install without a key (exit status)" 0 $?
	mod=$(find "$root/lib/modules/$release" -name 'utf8guard.ko*' | head -n 1)
	expect_eq "$name: without a key, not signed" "" "$(modinfo -F signer "$mod" 2>&1)"
done
expect_eq "a matrix kernel with headers to sign against" yes \
	"$([ "$kernels" -gt 0 ] && echo yes || echo no)"

# Bad input: clear errors, nothing installed.
release=$("$top/tests/vm/stock-kernel.sh" --kernel 6.1 --version)
kdir=/lib/modules/$release/build
mkdir -p "$work/a-directory"
bad() {
	local what=$1 want=$2
	shift 2
	rm -rf "$work/root-bad"
	out=$(make -C "$tree" KERNELDIR="$kdir" DESTDIR="$work/root-bad" \
		BUILD="$work/cli-bad" module-install "$@" 2>&1)
	status=$?
	expect_eq "$what: make module-install fails" 1 "$([ $status -ne 0 ] && echo 1 || echo 0)"
	expect_match "$what: the error names it" "$want" "$out"
	expect_eq "$what: nothing installed" no \
		"$([ -e "$work/root-bad/lib/modules" ] && echo yes || echo no)"
}
bad "missing key" "error: cannot read $work/nokey.pem" \
	SIGN_KEY="$work/nokey.pem" SIGN_CERT="$work/cert.pem"
bad "missing certificate" "error: cannot read $work/nocert.pem" \
	SIGN_KEY="$work/key.pem" SIGN_CERT="$work/nocert.pem"
bad "a directory as key" "error: cannot read $work/a-directory" \
	SIGN_KEY="$work/a-directory" SIGN_CERT="$work/cert.pem"
bad "key without certificate" "needs both SIGN_KEY=.* and SIGN_CERT=" \
	SIGN_KEY="$work/key.pem"
bad "no sign-file" "error: no $work/no-sign-file: install the kernel's headers" \
	SIGN_KEY="$work/key.pem" SIGN_CERT="$work/cert.pem" \
	SIGN_FILE="$work/no-sign-file"
# sign-file itself refuses a key that is not a key.
printf 'not a key\n' >"$work/garbage.pem"
bad "a file that is not a key" "sign-file|PEM|key" \
	SIGN_KEY="$work/garbage.pem" SIGN_CERT="$work/cert.pem"

finish_tests
