#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# install_test.sh - suite `install`: what `make install` and friends put
# where, and the packaging files themselves.
#
#   - `make install DESTDIR=... PREFIX=/usr/local KERNELDIR=<6.1 headers>`
#     into a temporary tree, checked file by file (path, type and mode,
#     nothing missing, nothing extra): modules in extra/ and listed by
#     modules.dep, the CLI runs --version, the unit names the installed
#     program; a second install keeps the admin's edited configuration;
#     the same with PREFIX=/usr; `make userspace-install` without kernel
#     headers installs everything but the modules;
#   - man page: `mandoc -T lint` and `man --warnings` clean; every command
#     that `utf8guardctl --help` lists, and every option its
#     `utf8guardctl COMMAND --help` shows, is in the man page and in the
#     bash completion (parsed from --help, so it follows the CLI);
#   - bash completion: sourced in bash with COMP_WORDS/COMP_CWORD set, the
#     replies for `utf8guardctl `, `utf8guardctl set `, `... set mode `...;
#   - dkms.conf: PACKAGE_VERSION is the version header's, each
#     BUILT_MODULE_NAME is a module ./Kbuild builds; `make dkms-install`
#     and `dkms add/build/remove` on the 6.1 headers in private DKMS trees
#     (nothing in /var/lib/dkms or /usr/src is touched);
#   - utf8guard.service: `systemd-analyze verify` on the installed unit;
#   - the example configuration names every key of `set`.
# Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/assert.sh
. "$top/tests/lib/assert.sh"

work=$top/build/install-test
# make's ?= would take these from the environment.
unset PREFIX DESTDIR SBINDIR MANDIR BASHCOMPDIR SYSTEMDUNITDIR DOCDIR SYSCONFDIR \
	DKMS_SOURCE_TREE KERNELDIR KERNELRELEASE SIGN_KEY SIGN_CERT
rm -rf "$work"
mkdir -p "$work"

# The keys of `utf8guardctl set` and the commands of issue 6.
KEYS="mode policy validator fs.enabled fs.fstypes fs.check_symlink_target fs.mount fs.exempt net.enabled net.ports net.forward net.action"
COMMANDS="load unload status set stats check scan apply"

# A copy of the tree (tracked and new files, as in the working tree), so
# that the suite never touches the working tree's build products.
tree=$work/tree
mkdir -p "$tree"
(cd "$top" && git ls-files -co --exclude-standard -z -- Makefile Kbuild \
	dkms.conf core kernel userspace packaging | cpio --quiet -0 -pdm "$tree")

release=$("$top/tests/vm/stock-kernel.sh" --kernel 6.1 --version) || release=
kdir=/usr/src/linux-headers-$release
if [ -z "$release" ] || [ ! -f "$kdir/include/generated/utsrelease.h" ]; then
	fail "6.1 headers of the matrix installed" "no $kdir (scripts/install-deps.sh)"
	finish_tests
	exit 1
fi
version=$(sed -n 's/^#define UTF8GUARD_VERSION "\(.*\)"$/\1/p' "$tree/core/utf8guard_version.h")

# listing ROOT: "path mode" of every file and symlink under ROOT
# (directories are implied), depmod's modules.* indexes left out.
listing() {
	(cd "$1" && find . \( -type f -o -type l \) -printf '%P %#m\n') |
		grep -vE "^lib/modules/[^/]+/modules\.[a-z.]+ " | sort
}

# expected_listing PREFIX: what `make install PREFIX=...` installs.
expected_listing() {
	local p=${1#/}
	{
		echo "etc/modprobe.d/utf8guard.conf 0644"
		echo "etc/utf8guard.conf 0644"
		echo "lib/modules/$release/extra/utf8guard.ko 0644"
		echo "lib/modules/$release/extra/utf8guard_fs.ko 0644"
		echo "lib/modules/$release/extra/utf8guard_nf.ko 0644"
		echo "$p/lib/systemd/system/utf8guard.service 0644"
		echo "$p/lib/systemd/system/utf8guard-textfile.service 0644"
		echo "$p/lib/systemd/system/utf8guard-textfile.timer 0644"
		echo "$p/sbin/utf8guardctl 0755"
		echo "$p/share/bash-completion/completions/utf8guardctl 0644"
		echo "$p/share/doc/utf8guard/examples/modprobe.d/utf8guard.conf 0644"
		echo "$p/share/doc/utf8guard/examples/utf8guard.conf 0644"
		echo "$p/share/man/man8/utf8guardctl.8 0644"
	} | sort
}

# same NAME FILE1 FILE2: the installed file is the source file.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$2 differs from $3"
	fi
}

# check_install PREFIX ROOT: one `make install` result, file by file.
check_install() {
	local prefix=$1 root=$2 p=${1#/}
	local mods=$root/lib/modules/$release
	expect_eq "PREFIX=$prefix: installed files (path mode), exactly" \
		"$(expected_listing "$prefix")" "$(listing "$root")"
	expect_eq "PREFIX=$prefix: depmod wrote modules.dep and its index" yes \
		"$([ -s "$mods/modules.dep" ] && [ -s "$mods/modules.dep.bin" ] && echo yes || echo no)"
	local dep
	dep=$(grep -E '^extra/utf8guard' "$mods/modules.dep" 2>/dev/null | sort)
	expect_match "PREFIX=$prefix: modules.dep: utf8guard.ko in extra/" \
		'^extra/utf8guard\.ko:' "$dep"
	expect_match "PREFIX=$prefix: modules.dep: utf8guard_fs.ko needs utf8guard.ko" \
		'^extra/utf8guard_fs\.ko:.* extra/utf8guard\.ko' "$dep"
	expect_match "PREFIX=$prefix: modules.dep: utf8guard_nf.ko needs utf8guard.ko" \
		'^extra/utf8guard_nf\.ko:.* extra/utf8guard\.ko' "$dep"
	expect_eq "PREFIX=$prefix: utf8guard.ko built for $release" "$release" \
		"$(modinfo -F vermagic "$mods/extra/utf8guard.ko" 2>&1 | cut -d' ' -f1)"
	expect_eq "PREFIX=$prefix: the CLI runs: --version" "utf8guardctl $version" \
		"$("$root/$p/sbin/utf8guardctl" --version 2>&1)"
	same "PREFIX=$prefix: man page" "$tree/userspace/utf8guardctl.8" \
		"$root/$p/share/man/man8/utf8guardctl.8"
	same "PREFIX=$prefix: bash completion" "$tree/userspace/utf8guardctl.bash-completion" \
		"$root/$p/share/bash-completion/completions/utf8guardctl"
	same "PREFIX=$prefix: example config in doc" "$tree/packaging/utf8guard.conf" \
		"$root/$p/share/doc/utf8guard/examples/utf8guard.conf"
	local unit=$root/$p/lib/systemd/system/utf8guard.service
	expect_eq "PREFIX=$prefix: unit: every @...@ replaced" "" "$(grep -n '@[A-Z]*@' "$unit")"
	expect_eq "PREFIX=$prefix: unit: ExecStart runs the installed CLI" \
		"ExecStart=$prefix/sbin/utf8guardctl load --fs
ExecStart=$prefix/sbin/utf8guardctl apply /etc/utf8guard.conf" \
		"$(grep '^ExecStart=' "$unit")"
	unit=$root/$p/lib/systemd/system/utf8guard-textfile.service
	expect_eq "PREFIX=$prefix: textfile unit: ExecStart runs the installed CLI" \
		"ExecStart=$prefix/sbin/utf8guardctl stats --prometheus --output /var/lib/prometheus/node-exporter/utf8guard.prom" \
		"$(grep '^ExecStart=' "$unit")"
	same "PREFIX=$prefix: textfile timer" "$tree/packaging/utf8guard-textfile.timer" \
		"$root/$p/lib/systemd/system/utf8guard-textfile.timer"
}

# --- make install, PREFIX=/usr/local (the default) --------------------
root=$work/root-local
make -C "$tree" install DESTDIR="$root" PREFIX=/usr/local KERNELDIR="$kdir" \
	BUILD="$work/cli" >"$work/install-local.log" 2>&1
status=$?
expect_eq "make install DESTDIR PREFIX=/usr/local KERNELDIR=$kdir (exit status)" 0 $status
[ $status -eq 0 ] || tail -n 20 "$work/install-local.log"
check_install /usr/local "$root"

# A second install keeps the admin's configuration, refreshes the rest.
echo "mode = audit   # the admin's" >>"$root/etc/utf8guard.conf"
echo "options utf8guard mode=audit # the admin's" >>"$root/etc/modprobe.d/utf8guard.conf"
echo stale >"$root/usr/local/share/doc/utf8guard/examples/utf8guard.conf"
make -C "$tree" install DESTDIR="$root" PREFIX=/usr/local KERNELDIR="$kdir" \
	BUILD="$work/cli" >"$work/install-local2.log" 2>&1
expect_eq "second make install (exit status)" 0 $?
expect_eq "second make install: /etc/utf8guard.conf kept" "mode = audit   # the admin's" \
	"$(tail -n 1 "$root/etc/utf8guard.conf")"
expect_eq "second make install: /etc/modprobe.d/utf8guard.conf kept" \
	"options utf8guard mode=audit # the admin's" \
	"$(tail -n 1 "$root/etc/modprobe.d/utf8guard.conf")"
expect_match "second make install: says it kept them" \
	"kept $root/etc/utf8guard.conf" "$(cat "$work/install-local2.log")"
same "second make install: the example is refreshed" "$tree/packaging/utf8guard.conf" \
	"$root/usr/local/share/doc/utf8guard/examples/utf8guard.conf"
expect_eq "second make install: same files" "$(expected_listing /usr/local)" "$(listing "$root")"
local_root=$root

# --- make install PREFIX=/usr -------------------------------------------
root=$work/root-usr
make -C "$tree" install DESTDIR="$root" PREFIX=/usr KERNELDIR="$kdir" \
	BUILD="$work/cli" >"$work/install-usr.log" 2>&1
expect_eq "make install PREFIX=/usr (exit status)" 0 $?
check_install /usr "$root"

# --- the userspace half without kernel headers, default PREFIX -----------
root=$work/root-noheaders
make -C "$tree" userspace-install DESTDIR="$root" KERNELDIR="$work/no-such-kernel" \
	BUILD="$work/cli" >"$work/install-noheaders.log" 2>&1
expect_eq "make userspace-install without kernel headers (exit status)" 0 $?
expect_eq "make userspace-install, default PREFIX (/usr/local): all but the modules" \
	"$(expected_listing /usr/local | grep -v '^lib/modules/')" "$(listing "$root")"

# --- man page -----------------------------------------------------------
man=$tree/userspace/utf8guardctl.8
out=$(mandoc -T lint "$man" 2>&1)
expect_eq "mandoc -T lint utf8guardctl.8: exit status and output" "0:" "$?:$out"
out=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >"$work/man.txt")
expect_eq "man --warnings -l utf8guardctl.8: no warnings" "" "$out"
expect_match "man -l renders the page" "utf8guardctl load" "$(cat "$work/man.txt")"
expect_match "man page: .TH names version $version (core/utf8guard_version.h)" \
	"^\.TH UTF8GUARDCTL 8 [0-9-]+ \"utf8guard ${version//./\\.}\" " "$(head -n 5 "$man")"

# bash_complete WORD...: the completions bash offers for the command line
# WORD... (the last word is the one being completed), one a line, sorted.
bash_complete() {
	bash --norc --noprofile -c '
		. "$1" || exit 2
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_utf8guardctl utf8guardctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" || exit 2
		printf "%s\n" "${COMPREPLY[@]}"' \
		bash "$tree/userspace/utf8guardctl.bash-completion" "$@" | sort
}
words() { tr ' ' '\n' <<<"$*" | sort; }

cli=$work/cli/utf8guardctl
# The commands `utf8guardctl --help` lists: the lines after "commands:"
# up to the first blank line, "  NAME  summary".
help_commands=$("$cli" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
expect_match "utf8guardctl --help lists commands" '[a-z]' "$help_commands"
top_completions=$(bash_complete utf8guardctl '')
for command in $help_commands; do
	expect_match "man page: a section for '$command' (utf8guardctl --help)" \
		"^\.SS $command\$" "$(cat "$man")"
	expect_match "man page: '$command' in the SYNOPSIS" \
		"^\.B $command\$" "$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$man")"
	expect_match "completion: 'utf8guardctl ' offers '$command'" "^$command\$" "$top_completions"
	# Its options, from `utf8guardctl COMMAND --help`.
	options=$("$cli" "$command" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	command_completions=$(bash_complete utf8guardctl "$command" --)
	# The tags of the command's section, with \- read as -: each option
	# is the tag of a paragraph (.TP, then .B --opt or .BI --opt " arg");
	# --help is documented once for every command.
	tags=$(sed -n "/^\.SS $command\$/,/^\.S[SH] /p" "$man" | sed 's/\\-/-/g' |
		awk 'tag { print } { tag = ($0 == ".TP") }'
		echo .B --help)
	for option in $options; do
		expect_match "man page: '$command $option' ($command --help)" \
			"^\.B[IR]? $option( |\$)" "$tags"
		expect_match "completion: 'utf8guardctl $command --' offers $option" \
			"^$option\$" "$command_completions"
	done
done
# What the man page and completion document but the CLI does not have
# yet (the subcommands of issue 6 are being written): reported, not failed.
for command in $COMMANDS; do
	grep -qx "$command" <<<"$help_commands" ||
		echo "# note: '$command' is documented but not in utf8guardctl --help yet"
done

# --- bash completion ------------------------------------------------------
expect_eq "completion: 'utf8guardctl '" \
	"$(words $COMMANDS --help --version)" "$top_completions"
expect_eq "completion: 'utf8guardctl set '" "$(words $KEYS --help)" \
	"$(bash_complete utf8guardctl set '')"
expect_eq "completion: 'utf8guardctl set mode '" "$(words off audit enforce)" \
	"$(bash_complete utf8guardctl set mode '')"
expect_eq "completion: 'utf8guardctl set mode au'" audit \
	"$(bash_complete utf8guardctl set mode au)"
expect_eq "completion: 'utf8guardctl set validator '" \
	"$(words auto scalar sse4.1 avx2 avx512)" \
	"$(bash_complete utf8guardctl set validator '')"
# The policy classes are the kernel's (class_names[]).
classes=$(sed -n 's/^\t\[UTF8GUARD_CLASS_BIT_[A-Z_]*\] = "\([a-z-]*\)",$/\1/p' \
	"$tree/core/utf8guard_words.c" | sort)
expect_match "the classes of core/utf8guard_words.c" '^strict$' "$classes"
expect_eq "completion: 'utf8guardctl set policy ': the kernel's classes and none" \
	"$(words $classes none)" "$(bash_complete utf8guardctl set policy '')"
expect_eq "man page: a paragraph for each of the kernel's classes" "$classes" \
	"$(sed -n '/^\.SS Policy classes$/,/^\.S[SH] /p' "$man" | sed 's/\\-/-/g' |
		awk 'tag { print } { tag = ($0 == ".TP") }' | sed -n 's/^\.B //p' | sort)"
expect_eq "completion: 'utf8guardctl set policy -p'" -path-tricks \
	"$(bash_complete utf8guardctl set policy -p)"
expect_eq "completion: 'utf8guardctl set fs.enabled '" "$(words 0 1)" \
	"$(bash_complete utf8guardctl set fs.enabled '')"
expect_eq "completion: 'utf8guardctl set net.action '" "$(words drop reset)" \
	"$(bash_complete utf8guardctl set net.action '')"
fstypes=$(bash_complete utf8guardctl set fs.fstypes '' | LC_ALL=C sort)
expect_eq "completion: 'utf8guardctl set fs.fstypes ' offers * first" '*' "$(head -n 1 <<<"$fstypes")"
expect_match "completion: 'utf8guardctl set fs.fstypes ' offers proc" '^proc$' "$fstypes"
mounts=$(bash_complete utf8guardctl set fs.mount '')
expect_match "completion: 'utf8guardctl set fs.mount ' offers the mount point /" '^/$' "$mounts"
expect_eq "completion: 'utf8guardctl set fs.mount / ': the classes, none, off and -" \
	"$(words $classes none off -)" "$(bash_complete utf8guardctl set fs.mount / '')"
# fs.exempt: the cgroup v2 mount's directories, one level at a time, and
# - after a cgroup.
mkdir -p "$work/cgroup2/system.slice/restore.service" "$work/cgroup2/backup.slice"
touch "$work/cgroup2/cgroup.procs"
expect_eq "completion: 'utf8guardctl set fs.exempt ': the top cgroups" \
	"$(words /backup.slice /system.slice)" \
	"$(UTF8GUARD_CGROUP2=$work/cgroup2 bash_complete utf8guardctl set fs.exempt '')"
expect_eq "completion: 'utf8guardctl set fs.exempt /system.slice/'" \
	/system.slice/restore.service \
	"$(UTF8GUARD_CGROUP2=$work/cgroup2 bash_complete utf8guardctl set fs.exempt /system.slice/)"
expect_eq "completion: 'utf8guardctl set fs.exempt /backup.slice ': cgroups and -" \
	"$(words /backup.slice /system.slice -)" \
	"$(UTF8GUARD_CGROUP2=$work/cgroup2 bash_complete utf8guardctl set fs.exempt /backup.slice '')"
expect_eq "completion: 'utf8guardctl load --mode '" "$(words off audit enforce)" \
	"$(bash_complete utf8guardctl load --mode '')"
expect_eq "completion: 'utf8guardctl check --policy strict,p'" strict,path-tricks \
	"$(bash_complete utf8guardctl check --policy strict,p)"
expect_eq "completion: 'utf8guardctl check --policy strict,path-tricks,': no class twice" \
	"$(words $classes | grep -vx -e strict -e path-tricks | sed 's/^/strict,path-tricks,/')" \
	"$(bash_complete utf8guardctl check --policy strict,path-tricks,)"
expect_eq "completion: 'utf8guardctl stats --'" "$(words --json --prometheus --output --help)" \
	"$(bash_complete utf8guardctl stats --)"
mkdir -p "$work/compl/dir-a" && touch "$work/compl/file-b"
expect_eq "completion: 'utf8guardctl stats --prometheus --output FILE' offers files" \
	"$work/compl/file-b" "$(bash_complete utf8guardctl stats --prometheus --output "$work/compl/file")"
expect_eq "completion: 'utf8guardctl scan DIR' offers directories only" "$work/compl/dir-a" \
	"$(bash_complete utf8guardctl scan "$work/compl/")"
# Every key: in the completion (above), the man page, the example config.
for key in $KEYS; do
	expect_match "man page: set key '$key'" "^\.B[IR]? $(sed 's/\./\\./g' <<<"$key")( |\$)" \
		"$(sed -n '/^\.SS set$/,/^\.SS /p' "$man")"
	expect_match "example config: key '$key'" "^#$(sed 's/\./\\./g' <<<"$key") = " \
		"$(cat "$tree/packaging/utf8guard.conf")"
done
expect_eq "example config: everything commented out" "" \
	"$(grep -vE '^[[:space:]]*(#|$)' "$tree/packaging/utf8guard.conf")"
expect_eq "modprobe.d example: everything commented out" "" \
	"$(grep -vE '^[[:space:]]*(#|$)' "$tree/packaging/modprobe.d/utf8guard.conf")"
# Its parameters are the modules': modinfo of the modules `make install`
# put in root-local (above) lists each.
for param in $(sed -n 's/^#options \(utf8guard[a-z_]*\) \(.*\)/\1 \2/p' \
	"$tree/packaging/modprobe.d/utf8guard.conf" |
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); print $1 ":" kv[1] } }'); do
	mod=${param%%:*} name=${param#*:}
	expect_match "modprobe.d example: $mod has parameter $name" "^$name:" \
		"$(modinfo -F parm "$work/root-local/lib/modules/$release/extra/$mod.ko" 2>&1)"
done

# --- dkms.conf and make dkms-install --------------------------------------
conf=$tree/dkms.conf
expect_eq "dkms.conf: PACKAGE_VERSION is core/utf8guard_version.h's" \
	"PACKAGE_VERSION=\"$version\"" "$(grep '^PACKAGE_VERSION=' "$conf")"
kbuild_modules=$(sed -n 's/^obj-m += \([a-z0-9_]*\)\.o$/\1/p' "$tree/Kbuild" | sort)
dkms_modules=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$conf" | sort)
expect_eq "dkms.conf: BUILT_MODULE_NAME[] are the modules ./Kbuild builds" \
	"$kbuild_modules" "$dkms_modules"
expect_eq "dkms.conf: one DEST_MODULE_LOCATION per module" \
	"$(grep -c '^BUILT_MODULE_NAME\[' "$conf")" "$(grep -c '^DEST_MODULE_LOCATION\[' "$conf")"
expect_eq "dkms.conf: AUTOINSTALL" 'AUTOINSTALL="yes"' "$(grep '^AUTOINSTALL=' "$conf")"

root=$work/root-dkms
make -C "$tree" dkms-install DESTDIR="$root" >"$work/dkms-install.log" 2>&1
expect_eq "make dkms-install (exit status)" 0 $?
src=$root/usr/src/utf8guard-$version
expect_eq "make dkms-install: dkms.conf in /usr/src/utf8guard-$version" \
	"PACKAGE_VERSION=\"$version\"" "$(grep '^PACKAGE_VERSION=' "$src/dkms.conf" 2>&1)"
# Every object ./Kbuild links into the three modules has its source there.
missing=
for obj in $(sed -n 's/^[[:space:]]*\(\(core\|kernel\)\/[a-z0-9_/]*\)\.o.*/\1/p' "$tree/Kbuild"); do
	[ -f "$src/$obj.c" ] || missing="$missing $obj.c"
done
expect_eq "make dkms-install: the source of every object in ./Kbuild" "" "$missing"

if command -v dkms >/dev/null; then
	# Private trees; DKMS signs with a throwaway key made in $work.
	dk=(--sourcetree "$root/usr/src" --dkmstree "$work/dkms" --installtree "$work/dkms-lib")
	mkdir -p "$work/dkms" "$work/dkms-lib"
	export mok_signing_key=$work/mok.key mok_certificate=$work/mok.pub
	dkms add -m utf8guard -v "$version" "${dk[@]}" >"$work/dkms-add.log" 2>&1
	expect_eq "dkms add utf8guard/$version (exit status)" 0 $?
	dkms build -m utf8guard -v "$version" -k "$release" "${dk[@]}" >"$work/dkms-build.log" 2>&1
	status=$?
	expect_eq "dkms build utf8guard/$version -k $release (exit status)" 0 $status
	[ $status -eq 0 ] || tail -n 30 "$work/dkms-build.log" "$work/dkms/utf8guard/$version/build/make.log" 2>/dev/null
	built=$(cd "$work/dkms/utf8guard/$version/$release/x86_64/module" 2>/dev/null && ls | sort)
	expect_eq "dkms build: the three modules" \
		"$(printf '%s.ko\n' $kbuild_modules)" "$built"
	expect_match "dkms status: built for $release" "utf8guard/$version, $release, x86_64: built" \
		"$(dkms status "${dk[@]}" 2>&1)"
	dkms remove -m utf8guard -v "$version" --all "${dk[@]}" >"$work/dkms-remove.log" 2>&1
	expect_eq "dkms remove utf8guard/$version --all (exit status)" 0 $?
	expect_eq "dkms remove: nothing left" "" "$(dkms status "${dk[@]}" 2>&1)"
	unset mok_signing_key mok_certificate
else
	fail "dkms installed (scripts/install-deps.sh)" "no dkms: only dkms.conf was parsed"
fi

# --- utf8guard.service ----------------------------------------------------
# The installed unit, with its program pointing into DESTDIR (verify
# checks that ExecStart= is executable) and the man page it names found
# there; the host's own units (sysinit.target, local-fs.target...) are
# loaded with it, so a dependency on a missing unit or an ordering cycle
# through them is reported.
unit=$local_root/usr/local/lib/systemd/system/utf8guard.service
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$work/unit"
	sed "s|=/usr/local/sbin/utf8guardctl|=$local_root/usr/local/sbin/utf8guardctl|" \
		"$unit" >"$work/unit/utf8guard.service"
	out=$(MANPATH=$local_root/usr/local/share/man systemd-analyze verify \
		"$work/unit/utf8guard.service" 2>&1)
	expect_eq "systemd-analyze verify utf8guard.service: exit status and output" \
		"0:" "$?:$out"
else
	fail "systemd-analyze available (package systemd)" "the unit was not verified"
fi
# The textfile service and its timer, the same way.
if command -v systemd-analyze >/dev/null; then
	sed "s|=/usr/local/sbin/utf8guardctl|=$local_root/usr/local/sbin/utf8guardctl|" \
		"${unit%/*}/utf8guard-textfile.service" >"$work/unit/utf8guard-textfile.service"
	cp "${unit%/*}/utf8guard-textfile.timer" "$work/unit/"
	out=$(MANPATH=$local_root/usr/local/share/man systemd-analyze verify \
		"$work/unit/utf8guard-textfile.service" "$work/unit/utf8guard-textfile.timer" 2>&1)
	expect_eq "systemd-analyze verify utf8guard-textfile.service and .timer: exit status and output" \
		"0:" "$?:$out"
fi
# Ordered after nothing that comes after the sysinit phase: with After=
# alone, no unit pulls them in, so verify would not see the cycle.
expect_eq "utf8guard.service: After= (nothing late)" "After=systemd-modules-load.service" \
	"$(grep '^After=' "$unit")"
for line in DefaultDependencies=no Type=oneshot RemainAfterExit=yes WantedBy=sysinit.target \
	'Before=local-fs.target sysinit.target shutdown.target' Conflicts=shutdown.target; do
	expect_eq "utf8guard.service: $line" "$line" "$(grep -x -- "$line" "$unit")"
done

finish_tests
