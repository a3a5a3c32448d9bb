#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# deb_test.sh - suite `deb`: the Debian packages of debian/, really built
# (`make deb`, dpkg-buildpackage -us -uc -b on a copy of the tree), then
# read with dpkg-deb; nothing is installed on the host.
#
#   - `make deb` builds utf8guard, utf8guard-dkms and utf8guard-dbgsym at
#     core/utf8guard_version.h's version and leaves the tree as it was;
#   - utf8guard: control fields (version, architecture, Depends on libkmod
#     from the shared libraries, Recommends utf8guard-dkms), the files
#     with their modes, exactly; the conffiles; the CLI, man page, bash
#     completion and configuration are the tree's; the unit names
#     /usr/sbin and /etc; the CLI is hardened (relro, bind now); the
#     maintainer scripts never enable, start or stop the unit;
#   - utf8guard-dkms: control fields (Depends on dkms), the module sources
#     in /usr/src/utf8guard-VERSION exactly (what ./Kbuild builds, no
#     tests/), each the tree's file; dkms.conf with this version; its
#     Makefile runs there; the maintainer scripts add and remove this DKMS
#     name and version;
#   - lintian on the .changes: no error (warnings are shown);
#   - a changelog, version header or dkms.conf that disagree stop the
#     build before anything is compiled.
# Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/assert.sh
. "$top/tests/lib/assert.sh"

work=$top/build/deb-test
# make's ?= and dpkg-buildpackage would take these from the environment.
unset PREFIX DESTDIR SBINDIR MANDIR BASHCOMPDIR SYSTEMDUNITDIR DOCDIR SYSCONFDIR \
	DKMS_SOURCE_TREE KERNELDIR KERNELRELEASE BUILD DEB_DIR DEB_BUILD_OPTIONS \
	CFLAGS CPPFLAGS LDFLAGS
rm -rf "$work"
mkdir -p "$work"

for tool in dpkg-buildpackage dh dh_dkms lintian; do
	if ! command -v "$tool" >/dev/null; then
		fail "$tool installed (scripts/install-deps.sh)" "the packages were not built"
		finish_tests
		exit 1
	fi
done

version=$(sed -n 's/^#define UTF8GUARD_VERSION "\(.*\)"$/\1/p' "$top/core/utf8guard_version.h")
arch=$(dpkg --print-architecture)
debs=$work/deb
cli_deb=$debs/utf8guard_${version}_$arch.deb
dkms_deb=$debs/utf8guard-dkms_${version}_all.deb
changes=$debs/utf8guard_${version}_$arch.changes

# --- make deb ---------------------------------------------------------------
before=$(git -C "$top" status --porcelain --untracked-files=all)
make -C "$top" deb DEB_DIR="$debs" >"$work/make-deb.log" 2>&1
status=$?
expect_eq "make deb DEB_DIR=$debs (exit status)" 0 $status
[ $status -eq 0 ] || tail -n 30 "$work/make-deb.log"
expect_match "debian/rules: the three versions agree" \
	"version $version: core/utf8guard_version.h, debian/changelog and dkms.conf agree" \
	"$(cat "$work/make-deb.log")"
expect_eq "make deb: the tree is as it was (git status)" "$before" \
	"$(git -C "$top" status --porcelain --untracked-files=all)"
expect_eq "make deb: the packages, .buildinfo and .changes in DEB_DIR" \
	"$(printf '%s\n' "utf8guard-dbgsym_${version}_$arch.deb" "utf8guard-dkms_${version}_all.deb" \
		"utf8guard_${version}_$arch.buildinfo" "utf8guard_${version}_$arch.changes" \
		"utf8guard_${version}_$arch.deb" | sort)" \
	"$(cd "$debs" && find . -maxdepth 1 -type f -printf '%P\n' | sort)"
if [ ! -f "$cli_deb" ] || [ ! -f "$dkms_deb" ]; then
	finish_tests
	exit 1
fi

# field DEB NAME: one control field of a package.
field() {
	dpkg-deb -f "$1" "$2"
}

# contents DEB: "path mode" of every file and symlink in the package
# (directories are implied), from dpkg-deb -c.
contents() {
	dpkg-deb -c "$1" | awk '
		function mode(s,   m, i, c) {
			m = 0
			for (i = 2; i <= 10; i++) {
				c = substr(s, i, 1)
				m = m * 2 + (c != "-")
			}
			return sprintf("%04o", m)
		}
		substr($1, 1, 1) != "d" { p = $6; sub(/^\.\//, "", p); print p, mode($1) }' | sort
}

# same NAME FILE1 FILE2: the packaged file is the tree's file.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$2 differs from $3"
	fi
}

# --- utf8guard ------------------------------------------------------------
expect_eq "utf8guard: Version is core/utf8guard_version.h's" "$version" "$(field "$cli_deb" Version)"
expect_eq "utf8guard: Architecture" "$arch" "$(field "$cli_deb" Architecture)"
depends=$(field "$cli_deb" Depends)
expect_match "utf8guard: Depends on libkmod2 (shlibs)" '(^|, )libkmod2( |,|$)' "$depends"
expect_match "utf8guard: Depends on libc6 (shlibs)" '(^|, )libc6( |,|$)' "$depends"
expect_eq "utf8guard: Recommends" utf8guard-dkms "$(field "$cli_deb" Recommends)"

expect_eq "utf8guard: files (path mode), exactly" "$(sort <<'EOF'
etc/modprobe.d/utf8guard.conf 0644
etc/utf8guard.conf 0644
lib/systemd/system/utf8guard-textfile.service 0644
lib/systemd/system/utf8guard-textfile.timer 0644
lib/systemd/system/utf8guard.service 0644
usr/sbin/utf8guardctl 0755
usr/share/bash-completion/completions/utf8guardctl 0644
usr/share/doc/utf8guard/README.Debian 0644
usr/share/doc/utf8guard/changelog.gz 0644
usr/share/doc/utf8guard/copyright 0644
usr/share/doc/utf8guard/examples/modprobe.d/utf8guard.conf 0644
usr/share/doc/utf8guard/examples/utf8guard.conf 0644
usr/share/man/man8/utf8guardctl.8.gz 0644
EOF
)" "$(contents "$cli_deb")"

ctl=$work/control-utf8guard
dpkg-deb -e "$cli_deb" "$ctl"
expect_eq "utf8guard: conffiles" "/etc/modprobe.d/utf8guard.conf
/etc/utf8guard.conf" "$(sort "$ctl/conffiles" 2>&1)"

root=$work/utf8guard
dpkg-deb -x "$cli_deb" "$root"
expect_eq "utf8guard: the CLI runs: --version" "utf8guardctl $version" \
	"$("$root/usr/sbin/utf8guardctl" --version 2>&1)"
hardening=$(readelf -W -l -d "$root/usr/sbin/utf8guardctl" 2>&1)
expect_match "utf8guard: the CLI has RELRO (LDFLAGS)" 'GNU_RELRO' "$hardening"
expect_match "utf8guard: the CLI binds now (LDFLAGS)" 'BIND_NOW' "$hardening"
expect_match "utf8guard: the CLI has fortified calls (CPPFLAGS)" '_chk(@|$)' \
	"$(nm -D "$root/usr/sbin/utf8guardctl" 2>&1)"
expect_eq "utf8guard: the man page is the tree's" "" \
	"$(zcat "$root/usr/share/man/man8/utf8guardctl.8.gz" | cmp - "$top/userspace/utf8guardctl.8" 2>&1)"
same "utf8guard: the bash completion is the tree's" "$top/userspace/utf8guardctl.bash-completion" \
	"$root/usr/share/bash-completion/completions/utf8guardctl"
for f in utf8guard.conf modprobe.d/utf8guard.conf; do
	same "utf8guard: /etc/$f is packaging/$f" "$top/packaging/$f" "$root/etc/$f"
	same "utf8guard: the example $f is packaging/$f" "$top/packaging/$f" \
		"$root/usr/share/doc/utf8guard/examples/$f"
done
unit=$root/lib/systemd/system/utf8guard.service
expect_eq "utf8guard: unit: every @...@ replaced" "" "$(grep -n '@[A-Z]*@' "$unit")"
expect_eq "utf8guard: unit: ExecStart runs /usr/sbin/utf8guardctl" \
	"ExecStart=/usr/sbin/utf8guardctl load --fs
ExecStart=/usr/sbin/utf8guardctl apply /etc/utf8guard.conf" "$(grep '^ExecStart=' "$unit")"
expect_eq "utf8guard: unit: RequiresMountsFor= names /usr/sbin and /etc" \
	"RequiresMountsFor=/usr/sbin /etc/utf8guard.conf" "$(grep '^RequiresMountsFor=' "$unit")"
expect_eq "utf8guard: unit: packaging/utf8guard.service, @SBINDIR@ and @SYSCONFDIR@ replaced" \
	"$(sed -e 's|@SBINDIR@|/usr/sbin|g' -e 's|@SYSCONFDIR@|/etc|g' "$top/packaging/utf8guard.service")" \
	"$(cat "$unit")"

# Installed, not enabled or started (debian/rules): the postinst enables
# the unit only where the admin had (debian-installed), and no script
# starts, restarts or stops it.
scripts=$(cat "$ctl"/preinst "$ctl"/postinst "$ctl"/prerm "$ctl"/postrm 2>/dev/null)
expect_match "utf8guard: postinst keeps the admin's choice (dh_installsystemd --no-enable)" \
	"deb-systemd-helper debian-installed 'utf8guard.service'" "$scripts"
expect_no_match "utf8guard: no maintainer script starts or stops the unit" \
	"(deb-systemd-invoke|systemctl) .*utf8guard\\.service" "$scripts"
expect_match "utf8guard: postinst enables the textfile timer" \
	"deb-systemd-helper enable 'utf8guard-textfile.timer'" "$scripts"
expect_match "utf8guard: postinst starts the textfile timer" \
	"deb-systemd-invoke .*'utf8guard-textfile.timer'" "$scripts"
expect_match "utf8guard: postrm removes the counters it wrote for node_exporter" \
	'rm -f /var/lib/prometheus/node-exporter/utf8guard.prom' "$scripts"
expect_match "utf8guard: postrm disables the unit on purge" \
	"deb-systemd-helper purge 'utf8guard.service'" "$scripts"

# --- utf8guard-dkms ---------------------------------------------------------
expect_eq "utf8guard-dkms: Version is core/utf8guard_version.h's" "$version" \
	"$(field "$dkms_deb" Version)"
expect_eq "utf8guard-dkms: Architecture" all "$(field "$dkms_deb" Architecture)"
expect_match "utf8guard-dkms: Depends on dkms (dh_dkms: BUILD_EXCLUSIVE_CONFIG needs 3.0.3)" \
	'^dkms \(>= 3\.0\.3' "$(field "$dkms_deb" Depends)"
expect_eq "utf8guard-dkms: Recommends" utf8guard "$(field "$dkms_deb" Recommends)"

# The module sources: the build files, dkms.conf, and every C file and
# header of core/ and kernel/ (git's * crosses directories) but tests/.
src=usr/src/utf8guard-$version
sources=$(cd "$top" && git ls-files -co --exclude-standard -- 'core/*.[ch]' 'kernel/*.[ch]' |
	grep -v '/tests/')
expect_match "the tree's module sources are listed" '^kernel/fs/main\.c$' "$sources"
expect_eq "utf8guard-dkms: files (path mode), exactly" "$(
	{
		printf '%s 0644\n' "$src/Makefile" "$src/Kbuild" "$src/packaging/install.mk" \
			"$src/dkms.conf" usr/share/doc/utf8guard-dkms/changelog.gz \
			usr/share/doc/utf8guard-dkms/copyright
		sed "s|^\(.*\)$|$src/\1 0644|" <<<"$sources"
	} | sort)" "$(contents "$dkms_deb")"

root=$work/utf8guard-dkms
dpkg-deb -x "$dkms_deb" "$root"
differ=
for f in Makefile Kbuild packaging/install.mk $sources; do
	cmp -s "$top/$f" "$root/$src/$f" || differ="$differ $f"
done
expect_eq "utf8guard-dkms: each source is the tree's" "" "$differ"
missing=
for obj in $(sed -n 's/^[[:space:]]*\(\(core\|kernel\)\/[a-z0-9_/]*\)\.o.*/\1/p' "$top/Kbuild"); do
	[ -f "$root/$src/$obj.c" ] || missing="$missing $obj.c"
done
expect_eq "utf8guard-dkms: the source of every object in ./Kbuild" "" "$missing"
expect_eq "utf8guard-dkms: dkms.conf: PACKAGE_NAME and PACKAGE_VERSION" \
	"PACKAGE_NAME=\"utf8guard\"
PACKAGE_VERSION=\"$version\"" \
	"$(grep -E '^PACKAGE_(NAME|VERSION)=' "$root/$src/dkms.conf" 2>&1)"
same "utf8guard-dkms: dkms.conf is the tree's" "$top/dkms.conf" "$root/$src/dkms.conf"
# DKMS runs MAKE[0], `make module KERNELDIR=...`, in that tree: its
# Makefile must stand without the rest of the tree (an include of a file
# that is not packaged stops it).  Without a kernel, the module target's
# own check is as far as it goes; the install suite builds the same tree
# (make dkms-install) with dkms.
out=$(make -C "$root/$src" --no-print-directory module KERNELDIR="$work/no-such-kernel" 2>&1)
expect_match "utf8guard-dkms: its Makefile runs: make module reaches the kernel check" \
	"^error: no kernel build tree at $work/no-such-kernel\$" "$out"

ctl=$work/control-utf8guard-dkms
dpkg-deb -e "$dkms_deb" "$ctl"
for script in postinst prerm; do
	expect_eq "utf8guard-dkms: $script: DKMS name and version" \
		"DKMS_NAME=utf8guard
DKMS_VERSION=$version" "$(grep -E '^DKMS_(NAME|VERSION)=' "$ctl/$script" 2>&1)"
done
expect_match "utf8guard-dkms: postinst runs DKMS's common.postinst (add, build, install)" \
	'/usr/lib/dkms/common.postinst' "$(cat "$ctl/postinst")"
expect_match "utf8guard-dkms: prerm removes it from DKMS" \
	'dkms remove -m \$DKMS_NAME -v \$DKMS_VERSION --all' "$(cat "$ctl/prerm")"

# --- lintian ----------------------------------------------------------------
# Every tag down to pedantic and info, shown; only errors fail (debian/rules
# lists what is left and why).
lintian --fail-on error --display-info --pedantic "$changes" >"$work/lintian.log" 2>&1
status=$?
sed 's/^/# lintian: /' "$work/lintian.log"
expect_eq "lintian $changes: no error (exit status)" 0 $status
expect_eq "lintian: no E: tag" "" "$(grep '^E: ' "$work/lintian.log")"

# --- the version check -------------------------------------------------------
# A copy of the tree with one of the three versions changed: the build
# fails in dh_auto_configure, names the mismatch, and makes no package.
# mismatch NAME FILE SED: the build of a copy with SED applied to FILE.
mismatch() {
	local name=$1 file=$2 script=$3 copy=$work/$1/utf8guard-$version
	mkdir -p "$copy"
	(cd "$top" && git ls-files -co --exclude-standard -z | cpio --quiet -0 -pdm "$copy")
	sed -i "$script" "$copy/$file"
	if (cd "$copy" && dpkg-buildpackage -us -uc -b) >"$work/$name.log" 2>&1; then
		fail "$file says another version: dpkg-buildpackage fails" "it exited 0"
	else
		pass "$file says another version: dpkg-buildpackage fails"
	fi
	expect_match "$file says another version: the error names the three" \
		"error: version mismatch: core/utf8guard_version.h says '.*', debian/changelog '.*', dkms.conf '.*'" \
		"$(cat "$work/$name.log")"
	expect_eq "$file says another version: no package made" "" \
		"$(cd "$work/$name" && find . -maxdepth 1 -name '*.deb')"
}
mismatch version-header core/utf8guard_version.h \
	's/^#define UTF8GUARD_VERSION ".*"$/#define UTF8GUARD_VERSION "'"$version"'.1"/'
mismatch changelog debian/changelog "1s/($version)/($version.1)/"
mismatch dkms-conf dkms.conf "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$version.1\"/"

finish_tests
