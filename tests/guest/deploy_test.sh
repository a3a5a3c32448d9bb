#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# deploy_test.sh STAGE SHARE - suite `guest-deploy`, run inside the Debian
# guest (tests/guest/guest-suite.sh boots it, boot.sh runs one stage per
# boot).  What an admin does, with apt, DKMS and systemd, on the stock
# kernel:
#   1  apt install ./utf8guard-dkms_V_all.deb ./utf8guard_V_amd64.deb:
#      DKMS builds and installs the three modules for the running kernel;
#      nothing is loaded and the unit is not enabled.  The admin sets
#      `options utf8guard mode=audit` in /etc/modprobe.d/utf8guard.conf
#      (the rollout), `mode = enforce` in /etc/utf8guard.conf, and enables
#      utf8guard.service.  Reboot.
#   2  The modules are loaded and the policy applied (enforce: only apply
#      can have set it) before local-fs.target, so before every service
#      that uses local filesystems: the journal shows the order.  A
#      refused name is refused.  Upgrade to version V.1 (built by the
#      host from the same tree): DKMS rebuilds, the admin's edited
#      conffiles stay.  Reboot.
#   3  V.1 is loaded and enforcing.  apt purge both packages: modules,
#      units, DKMS tree, conffiles and the counters written for
#      node_exporter are gone.  Reboot.
#   4  Nothing of utf8guard is loaded or left.
# SHARE holds debs/1 (V) and debs/2 (V.1).  Exits 100 after stages 1-3
# (reboot for the next), 0 after 4, 1 on a failure.
set -uo pipefail

stage=$1 share=$2
# shellcheck source=../lib/assert.sh
. "$share/assert.sh"
# shellcheck source=guest-lib.sh
. "$share/guest-lib.sh"
release=$(uname -r)
v1=$(cat "$share/debs/1/version")
v2=$(cat "$share/debs/2/version")
modules="utf8guard utf8guard_fs utf8guard_nf"

loaded_modules() { awk '$1 ~ /^utf8guard/ { print $1 }' /proc/modules | sort | tr '\n' ' '; }

# The monotonic time (us) a unit property says, e.g. ActiveEnterTimestampMonotonic.
unit_time() { systemctl show -P "$2" "$1"; }

# mkdir of NAME (hex) in DIR; prints the errno text, or "made".
mkdir_hex() {
	local name
	name=$(bytes "$2")
	if out=$(mkdir -- "$1/$name" 2>&1); then
		echo made
	else
		sed 's/.*: //' <<<"$out"
	fi
}

# Each module's installed file and version: modinfo resolves it as
# modprobe would (depmod's view).
check_installed_modules() {
	local want=$1 m
	for m in $modules; do
		expect_match "$m.ko installed by DKMS in updates/dkms for $release" \
			"^/lib/modules/$release/updates/dkms/$m\\.ko" "$(modinfo -n "$m" 2>&1)"
		expect_eq "$m.ko's version is $want" "$want" "$(modinfo -F version "$m" 2>&1)"
	done
}

stage1() {
	expect_eq "nothing of utf8guard loaded before the install" "" "$(loaded_modules)"
	expect_apt "apt install ./utf8guard-dkms_${v1}_all.deb ./utf8guard_${v1}_amd64.deb" \
		install "$share"/debs/1/utf8guard-dkms_*.deb "$share"/debs/1/utf8guard_*_amd64.deb
	expect_match "dkms status: utf8guard/$v1 installed for $release" \
		"^utf8guard/$v1, $release, x86_64: installed" "$(dkms status -m utf8guard 2>&1)"
	check_installed_modules "$v1"
	expect_eq "installing loads nothing" "" "$(loaded_modules)"
	expect_eq "the unit is installed, not enabled" disabled \
		"$(systemctl is-enabled utf8guard.service 2>&1)"
	expect_eq "the unit is not started" inactive "$(systemctl is-active utf8guard.service 2>&1)"
	expect_eq "utf8guard-textfile.timer enabled and started" enabled/active \
		"$(systemctl is-enabled utf8guard-textfile.timer 2>&1)/$(systemctl is-active utf8guard-textfile.timer 2>&1)"
	expect_match "utf8guardctl from the package" "^/usr/sbin/utf8guardctl$" "$(command -v utf8guardctl)"
	expect_match "both files in /etc are conffiles" \
		"/etc/modprobe.d/utf8guard.conf .*"$'\n'".*/etc/utf8guard.conf |/etc/utf8guard.conf .*"$'\n'".*/etc/modprobe.d/utf8guard.conf " \
		"$(dpkg-query -W -f='${Conffiles}\n' utf8guard)"

	# The rollout of utf8guard.README.Debian, ended: audit between load
	# and apply, enforce from the file, the unit enabled.
	printf '# admin, 2026-11: audit until apply has run\noptions utf8guard mode=audit\n' \
		>>/etc/modprobe.d/utf8guard.conf
	printf '# admin, 2026-11: rolled out\nmode = enforce\n' >>/etc/utf8guard.conf
	expect_status "systemctl enable utf8guard.service" 0 systemctl enable utf8guard.service
	expect_eq "the unit is enabled" enabled "$(systemctl is-enabled utf8guard.service 2>&1)"
	sha256sum /etc/utf8guard.conf /etc/modprobe.d/utf8guard.conf >/var/lib/utf8guard-test/conffiles.sha256
	finish_tests && exit 100
	exit 1
}

# The journal's lines (-o short-monotonic: "[  8.925687] host ...") of
# the modules' load, of systemd starting utf8guard.service, of the
# targets around it and of the first service that creates files.
journal_lines() {
	journalctl -b -o short-monotonic --no-pager 2>/dev/null |
		grep -E ' kernel: utf8guard|systemd\[1\]: .*(utf8guard\.service|Reached target local-fs\.target|Reached target sysinit\.target|systemd-tmpfiles-setup\.service)' |
		sed -n 1,20p
}

check_booted() {
	local want=$1 mod_ready fs_ready sysinit_ready tmpfiles_start status
	expect_match "utf8guard and utf8guard_fs loaded at boot" "utf8guard utf8guard_fs" "$(loaded_modules)"
	expect_eq "utf8guard.service active" active "$(systemctl is-active utf8guard.service)"
	expect_eq "utf8guard.service succeeded" success "$(systemctl show -P Result utf8guard.service)"
	status=$(utf8guardctl status 2>&1)
	echo "$status" | sed 's/^/# /'
	expect_match "utf8guardctl status: $want, mode enforce (from /etc/utf8guard.conf; modprobe.d says audit)" \
		"^utf8guard $want: loaded, mode enforce," "$status"
	expect_eq "the running module is $want" "$want" "$(cat /sys/module/utf8guard/version)"

	# The order, from systemd's own record and from the journal.
	mod_ready=$(unit_time utf8guard.service ActiveEnterTimestampMonotonic)
	fs_ready=$(unit_time local-fs.target ActiveEnterTimestampMonotonic)
	sysinit_ready=$(unit_time sysinit.target ActiveEnterTimestampMonotonic)
	tmpfiles_start=$(unit_time systemd-tmpfiles-setup.service InactiveExitTimestampMonotonic)
	echo "# monotonic us: utf8guard.service ready $mod_ready, local-fs.target $fs_ready," \
		"systemd-tmpfiles-setup started $tmpfiles_start, sysinit.target $sysinit_ready"
	journal_lines | sed 's/^/# journal: /'
	expect_eq "utf8guard.service ready before local-fs.target" yes \
		"$( ((mod_ready > 0 && mod_ready <= fs_ready)) && echo yes || echo "no: $mod_ready > $fs_ready")"
	expect_eq "utf8guard.service ready before systemd-tmpfiles-setup starts creating files" yes \
		"$( ((mod_ready <= tmpfiles_start)) && echo yes || echo "no: $mod_ready > $tmpfiles_start")"
	expect_eq "utf8guard.service ready before sysinit.target" yes \
		"$( ((mod_ready <= sysinit_ready)) && echo yes || echo "no: $mod_ready > $sysinit_ready")"
	local jmod jfs
	jmod=$(journal_lines | grep -m1 'Finished utf8guard\.service' | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	jfs=$(journal_lines | grep -m1 'Reached target local-fs\.target' | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	expect_eq "the journal: 'Finished utf8guard.service' before 'Reached target local-fs.target'" yes \
		"$(awk -v a="${jmod:-x}" -v b="${jfs:-x}" 'BEGIN { print (a != "x" && b != "x" && a + 0 <= b + 0) ? "yes" : "no: " a " / " b }')"

	mkdir -p /root/names
	expect_eq "mkdir C0 AE 2E refused (EILSEQ)" "Invalid or incomplete multibyte or wide character" \
		"$(mkdir_hex /root/names c0ae2e)"
	expect_eq "mkdir caf E9 (Latin-1) refused" "Invalid or incomplete multibyte or wide character" \
		"$(mkdir_hex /root/names 636166e9)"
	expect_eq "mkdir café (UTF-8) made" made "$(mkdir_hex /root/names 636166c3a9)"
	expect_eq "only the good name exists" "café" "$(ls /root/names)"
	rm -rf /root/names
}

stage2() {
	check_booted "$v1"
	expect_apt "apt install of V.1 ($v2): the upgrade" \
		install "$share"/debs/2/utf8guard-dkms_*.deb "$share"/debs/2/utf8guard_*_amd64.deb
	expect_eq "dpkg: utf8guard is $v2" "$v2" "$(dpkg-query -W -f='${Version}' utf8guard)"
	expect_eq "dpkg: utf8guard-dkms is $v2" "$v2" "$(dpkg-query -W -f='${Version}' utf8guard-dkms)"
	local dkms
	dkms=$(dkms status -m utf8guard 2>&1)
	expect_match "dkms status: $v2 installed" "^utf8guard/$v2, $release, x86_64: installed" "$dkms"
	expect_no_match "dkms status: $v1 gone" "^utf8guard/$v1," "$dkms"
	expect_eq "/usr/src: only $v2's sources" "/usr/src/utf8guard-$v2" "$(echo /usr/src/utf8guard-*)"
	check_installed_modules "$v2"
	expect_status "the admin's edits of both conffiles kept" 0 \
		sha256sum -c /var/lib/utf8guard-test/conffiles.sha256
	expect_eq "no .dpkg-new/.dpkg-dist left beside them" "" \
		"$(find /etc -name '*utf8guard*.dpkg-*' 2>/dev/null)"
	expect_eq "the unit is still enabled" enabled "$(systemctl is-enabled utf8guard.service 2>&1)"
	expect_eq "the running module is still $v1 until the reboot" "$v1" "$(cat /sys/module/utf8guard/version)"
	finish_tests && exit 100
	exit 1
}

stage3() {
	check_booted "$v2"
	# The counters for node_exporter, there to be removed by the purge.
	expect_status "utf8guard-textfile.service writes the counters" 0 \
		systemctl start utf8guard-textfile.service
	expect_match "utf8guard.prom says the modules are loaded" \
		'^utf8guard_loaded\{module="utf8guard"\} 1$' \
		"$(cat /var/lib/prometheus/node-exporter/utf8guard.prom 2>&1)"
	expect_apt "apt purge utf8guard utf8guard-dkms" purge utf8guard utf8guard-dkms
	expect_eq "purge: the postrm says, once, that the modules stay loaded until reboot" 1 \
		"$(grep -c 'utf8guard: the modules are still loaded' /tmp/apt.log)"
	expect_eq "dpkg knows neither package" "" \
		"$(dpkg-query -W -f='${db:Status-Abbrev}${Package}\n' 'utf8guard*' 2>/dev/null | grep -v '^un' || true)"
	expect_eq "no module file left in /lib/modules" "" \
		"$(find /lib/modules -name 'utf8guard*' 2>/dev/null)"
	expect_eq "no DKMS tree left" "" "$(ls -d /var/lib/dkms/utf8guard /usr/src/utf8guard-* 2>/dev/null)"
	expect_eq "no unit file or timer link left" "" \
		"$(find /lib/systemd /etc/systemd \( -name utf8guard.service -o -name 'utf8guard-textfile.*' \) 2>/dev/null)"
	expect_eq "no counters left for node_exporter" "" \
		"$(ls /var/lib/prometheus/node-exporter/ | grep utf8guard)"
	expect_eq "no conffile left" "" "$(ls /etc/utf8guard.conf /etc/modprobe.d/utf8guard.conf 2>/dev/null)"
	expect_failure "utf8guardctl gone" command -v utf8guardctl
	expect_failure "modprobe finds no utf8guard" modprobe -n utf8guard
	finish_tests && exit 100
	exit 1
}

stage4() {
	expect_eq "after the reboot nothing of utf8guard is loaded" "" "$(loaded_modules)"
	expect_eq "no /sys/module/utf8guard" "" "$(ls -d /sys/module/utf8guard* 2>/dev/null)"
	expect_eq "systemd knows no utf8guard unit" "" \
		"$(systemctl list-unit-files utf8guard.service 'utf8guard-textfile.*' --no-legend 2>/dev/null)"
	expect_eq "systemctl --failed: none" "" "$(systemctl --failed --no-legend 2>/dev/null)"
	finish_tests
}

case $stage in
1) stage1 ;;
2) stage2 ;;
3) stage3 ;;
4) stage4 ;;
*)
	echo "deploy_test: no stage $stage"
	exit 1
	;;
esac
