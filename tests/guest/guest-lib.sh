# SPDX-License-Identifier: GPL-2.0
# guest-lib.sh - helpers of the Debian guest's suites (deploy_test.sh,
# servers_test.sh, ksmbd_test.sh), sourced after assert.sh; copied into
# the share by guest-suite.sh.
# shellcheck shell=bash

# bytes HEX: the bytes a hex string spells
bytes() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"; }

# now_ms: the guest's uptime in ms, for timings
now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# expect_apt NAME APT-GET-ARGS...: apt-get exits 0; shows what DKMS said
# and how long it took.
expect_apt() {
	local name=$1 start rc
	shift
	start=$(now_ms)
	DEBIAN_FRONTEND=noninteractive apt-get -y "$@" >/tmp/apt.log 2>&1
	rc=$?
	grep -E 'DKMS|dkms|Building|Installing|Removing|Purging|^E:|rror' /tmp/apt.log | sed -n '1,40s/^/# /p'
	echo "# apt-get $1 took $((($(now_ms) - start) / 1000)) s"
	[ "$rc" = 0 ] || tail -n 20 /tmp/apt.log | sed 's/^/# /'
	expect_eq "$name (exit status)" 0 "$rc"
}

# --- file servers (servers_test.sh, ksmbd_test.sh) -------------------------
# Each server serves an ext4 export to the kernel's own client over
# loopback, with the admin guide's file-server profile in enforce.

fs_sys=/sys/kernel/utf8guard/fs
FS_PROFILE="strict path-tricks controls bidi noncharacters bom confusable-path nfc"

# The bad names (hex) and what they are.
BAD=(c0ae2e c18161 636166e9 6576696ce280ae7478742e657865)
BAD_WHAT=("path trick C0 AE 2E" "overlong C1 81" "Latin-1 caf E9" "bidi U+202E")
GOOD=(e697a5e69cace8aa9e f09f9880 636166c3a9)
GOOD_WHAT=("CJK" "emoji" "NFC café")
# On the export before the guard: Latin-1, and a bidi name.
LEGACY=(6c65676163792d636166e92e747874 6c65676163792de280ae7478742e747874)
LEGACY_WHAT=("legacy Latin-1" "legacy bidi")

errtext() { sed 's/.*: //' <<<"$1"; }

# on_export DIR HEX: whether the name exists on the export's filesystem
on_export() { [ -e "$1/$(bytes "$2")" ] && echo yes || echo no; }

dmesg_mark() { dmesg | wc -l; }
dmesg_since() { dmesg | tail -n "+$(($1 + 1))"; }

rejected() { cat $fs_sys/stats/rejected; }

# load_fileserver_guard DEBS: apt install of the packages in DEBS (DKMS
# builds them here), utf8guard_fs loaded with FS_PROFILE in enforce and
# fs/fstypes ext4 only, so that the clients' own filesystems (nfs, cifs)
# are not judged on the client side.  Fails, with apt's and DKMS's last
# words, if the module is not there.
load_fileserver_guard() {
	local out
	expect_apt "apt install of both packages" \
		install "$1"/utf8guard-dkms_*.deb "$1"/utf8guard_*_amd64.deb
	out=$(utf8guardctl load --fs --mode enforce --policy "$FS_PROFILE" 2>&1)
	expect_eq "utf8guardctl load --fs, the file-server profile, enforce" 0 "$?"
	[ -z "$out" ] || echo "$out" | sed 's/^/# load: /'
	if [ ! -d $fs_sys ]; then
		tail -n 30 /tmp/apt.log | sed 's/^/# apt: /'
		dkms status 2>&1 | sed 's/^/# dkms: /'
		return 1
	fi
	expect_status "fs/fstypes: ext4 only (the clients' filesystems are not judged here)" 0 \
		utf8guardctl set fs.fstypes ext4
	echo "# $(utf8guardctl status | head -n 1)"
}

# The SMB servers' user and the kernel cifs client's options.
CIFS_OPTS=username=tester,password=secret,vers=3.1.1,iocharset=utf8,cache=none,actimeo=0,uid=0,noperm

# exercise_cifs SERVER EXPORT_DIR THREAD_RE: the SMB server's share
# //127.0.0.1/export mounted with the kernel cifs client on
# /mnt/SERVER, exercise'd, unmounted.
exercise_cifs() {
	local server=$1 dir=$2 thread=$3
	mkdir -p "/mnt/$server"
	expect_status "mount //127.0.0.1/export (cifs) from $server" 0 \
		mount -t cifs //127.0.0.1/export "/mnt/$server" -o "$CIFS_OPTS"
	mountpoint -q "/mnt/$server" || return 0
	exercise "$server" "/mnt/$server" "$dir" "$thread" smb
	umount "/mnt/$server"
}

# smb_user DIR: the user tester (no login), owner of the export DIR
smb_user() {
	useradd -M -s /usr/sbin/nologin tester 2>/dev/null
	chown -R tester "$1"
}

# seed DIR: the legacy names, made before the guard is loaded
seed() {
	local i
	mkdir -p "$1"
	for i in "${!LEGACY[@]}"; do
		echo "legacy $i" >"$1/$(bytes "${LEGACY[$i]}")"
		echo "legacy $i" >"$1/$(bytes "${LEGACY[$i]}").2"
	done
	chmod -R a+rwX "$1"
}

# exercise LABEL CLIENT_DIR EXPORT_DIR THREAD_RE KIND: for one server and
# client (KIND nfs or smb), the bad names fail with an error and nothing
# is made on the export, the good ones are made, the legacy ones (seed)
# stay readable, can be renamed to a good name and deleted.  Where an SMB
# client cannot even send a name (it converts to UTF-16 first), says so
# and checks only that nothing was made; where the server saw it, the
# kernel log line names the server's thread (THREAD_RE) and the
# operation.
exercise() {
	local label=$1 client=$2 dir=$3 thread=$4 kind=$5 i name out rc mark log r0
	for i in "${!BAD[@]}"; do
		name=$(bytes "${BAD[$i]}")
		mark=$(dmesg_mark)
		r0=$(rejected)
		out=$(touch "$client/$name" 2>&1)
		rc=$?
		log=$(dmesg_since "$mark" | grep 'utf8guard' || true)
		echo "# $label: create ${BAD_WHAT[$i]}: exit $rc: $(errtext "$out")"
		[ -n "$log" ] && echo "# $label: kernel: $log"
		expect_eq "$label: create of ${BAD_WHAT[$i]} fails" yes "$( ((rc != 0)) && echo yes || echo no)"
		expect_eq "$label: ${BAD_WHAT[$i]} not made on the export" no "$(on_export "$dir" "${BAD[$i]}")"
		if [ "$(rejected)" != "$r0" ]; then
			pass "$label: ${BAD_WHAT[$i]} refused by the hook, in the server"
			# (rate-limited: a burst of refusals may log fewer lines)
			[ -z "$log" ] || expect_match "$label: ${BAD_WHAT[$i]}: the log names the server thread and the operation" \
				"refused (create|mkdir|rename|link) from \"?($thread)" "$log"
		elif [ "$kind" = nfs ] || [ "${BAD[$i]}" = "${BAD[3]}" ]; then
			fail "$label: ${BAD_WHAT[$i]} refused by the hook, in the server" \
				"fs/stats/rejected did not move"
		else
			echo "# $label: ${BAD_WHAT[$i]} never reached the server's filesystem: the SMB client has no UTF-16 for it"
		fi
		out=$(mkdir "$client/$name.d" 2>&1)
		rc=$?
		echo "# $label: mkdir ${BAD_WHAT[$i]}: exit $rc: $(errtext "$out")"
		expect_eq "$label: mkdir of ${BAD_WHAT[$i]} fails" yes "$( ((rc != 0)) && echo yes || echo no)"
		expect_eq "$label: ${BAD_WHAT[$i]} directory not made on the export" no \
			"$(on_export "$dir" "${BAD[$i]}2e64")"
	done
	for i in "${!GOOD[@]}"; do
		name=$(bytes "${GOOD[$i]}")
		expect_status "$label: create of ${GOOD_WHAT[$i]} works" 0 sh -c 'echo x >"$1"' _ "$client/$name"
		expect_eq "$label: ${GOOD_WHAT[$i]} made on the export" yes "$(on_export "$dir" "${GOOD[$i]}")"
		expect_status "$label: mkdir of ${GOOD_WHAT[$i]} works" 0 mkdir "$client/$name.d"
	done
	for i in "${!LEGACY[@]}"; do
		name=$(bytes "${LEGACY[$i]}")
		out=$(cat "$client/$name" 2>&1)
		if [ "$out" = "legacy $i" ]; then
			pass "$label: ${LEGACY_WHAT[$i]} readable"
			expect_status "$label: ${LEGACY_WHAT[$i]} appended to" 0 sh -c 'echo more >>"$1"' _ "$client/$name"
			expect_status "$label: ${LEGACY_WHAT[$i]} renamed to a good name" 0 \
				mv "$client/$name" "$client/fixed-$i.txt"
			expect_eq "$label: ${LEGACY_WHAT[$i]}: the good name on the export" yes \
				"$(on_export "$dir" "$(printf 'fixed-%s.txt' "$i" | od -An -tx1 | tr -d ' \n')")"
			expect_status "$label: the renamed file deleted" 0 rm "$client/fixed-$i.txt"
		elif [ "$kind" = smb ] && [ "${LEGACY[$i]}" = "${LEGACY[0]}" ]; then
			echo "# $label: ${LEGACY_WHAT[$i]} is not reachable over SMB: $out"
			# The protocol's limit, not the guard's: not in mode off either.
			utf8guardctl set mode off >/dev/null
			out=$(cat "$client/$name" 2>&1)
			utf8guardctl set mode enforce >/dev/null
			expect_eq "$label: ${LEGACY_WHAT[$i]} not reachable in mode off either (no UTF-16 form)" \
				no "$([ "$out" = "legacy $i" ] && echo yes || echo no)"
		else
			fail "$label: ${LEGACY_WHAT[$i]} readable" "$out"
		fi
	done
	# A second legacy copy, deleted under its own name.
	expect_status "$label: ${LEGACY_WHAT[1]} deleted under its name" 0 \
		rm "$client/$(bytes "${LEGACY[1]}").2"
	expect_eq "$label: ${LEGACY_WHAT[1]} gone from the export" no "$(on_export "$dir" "${LEGACY[1]}2e32")"
}
