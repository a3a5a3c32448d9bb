#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# servers_test.sh STAGE SHARE - suite `guest-servers`, run inside the
# Debian guest (tests/guest/guest-suite.sh; one stage, one boot): file
# servers with the module loaded, each serving /srv/export/<server> over
# loopback to the kernel's own clients.
#
# The packages are installed with apt (DKMS builds in the guest); the
# modules are loaded with the admin guide's file-server profile in
# enforce, and fs/fstypes limited to the exported filesystem (ext4), so
# that the clients' own filesystems (nfs, nfs4, cifs) are not checked on
# the client side: every verdict below is the server's.
#
#   knfsd, NFSv3 and NFSv4.2 (nfs-kernel-server), the kernel NFS client;
#   Samba's smbd, the kernel cifs client.  (ksmbd: suite guest-ksmbd,
#   ksmbd_test.sh, on the 6.12 kernel: 6.1's does not run.)
#
# For each, guest-lib.sh's exercise: the path trick C0 AE 2E, the
# overlong C1 81, Latin-1 caf E9 and a bidi name (U+202E) fail with an
# error and nothing is made on the export; CJK, an emoji and an NFC name
# are made; the names on the export from before the guard (Latin-1 and
# bidi) stay readable, can be renamed to a good name and deleted.  Where
# a client cannot even send a name (an SMB client converts to UTF-16
# first), the suite says so and checks only that nothing was made; where
# the server saw it, the kernel log line names the server's thread and
# the operation.
#
# Then real clients on /root (ext4): tar -x of an archive with one
# ill-formed member, rsync -a of a tree with one legacy name, git clone
# of a repository holding .g<U+200C>it/hooks/x under the ignorables class
# (the CVE-2014-9390 look-alike) and of a normal one.  And real network
# clients on ports utf8guard_nf.ko watches: curl to Python's http.server
# (the path-trick request reset at once, never seen by the server; a
# UTF-8 one served), logger to a UDP syslog receiver (the ill-formed
# message dropped, the good ones delivered).
#
# Where security and operations teams look: auditd runs throughout, and
# at the end ausearch finds one audit record per refusal (the servers',
# the clients', the network hook's); prometheus-node-exporter serves the
# counters utf8guard-textfile.service wrote.
set -uo pipefail

stage=$1 share=$2
# shellcheck source=../lib/assert.sh
. "$share/assert.sh"
# shellcheck source=guest-lib.sh
. "$share/guest-lib.sh"
sys=/sys/kernel/utf8guard
export_root=/srv/export

for d in nfs3 nfs4 smbd; do seed "$export_root/$d"; done
if ! load_fileserver_guard "$share/debs/1"; then
	finish_tests
	exit 1
fi

# Debian's auditd, with its default rules (none but the backlog): every
# refusal from here on should become one audit record.
expect_status "auditd started" 0 systemctl start auditd
for _ in $(seq 50); do
	auditctl -s 2>/dev/null | grep -q '^pid [1-9]' && break
	sleep 0.2
done
expect_match "auditd registered, auditing enabled" "enabled 1" "$(auditctl -s 2>&1)"

# --- knfsd ---------------------------------------------------------------
{
	echo "$export_root/nfs3 127.0.0.1(rw,sync,no_subtree_check,no_root_squash,fsid=3)"
	echo "$export_root/nfs4 127.0.0.1(rw,sync,no_subtree_check,no_root_squash,fsid=4)"
} >/etc/exports
expect_status "nfs-server started" 0 systemctl start nfs-server
mkdir -p /mnt/nfs3 /mnt/nfs4
expect_status "mount NFSv3" 0 mount -t nfs -o vers=3,nolock 127.0.0.1:$export_root/nfs3 /mnt/nfs3
exercise "NFSv3" /mnt/nfs3 "$export_root/nfs3" nfsd nfs
umount /mnt/nfs3
expect_status "mount NFSv4.2" 0 mount -t nfs -o vers=4.2 127.0.0.1:$export_root/nfs4 /mnt/nfs4
exercise "NFSv4.2" /mnt/nfs4 "$export_root/nfs4" nfsd nfs
umount /mnt/nfs4
systemctl stop nfs-server

# --- Samba's smbd ------------------------------------------------------------
smb_user "$export_root/smbd"
cat >>/etc/samba/smb.conf <<EOF
[export]
	path = $export_root/smbd
	read only = no
	force user = tester
EOF
(echo secret; echo secret) | smbpasswd -s -a tester >/dev/null
expect_status "smbd started" 0 systemctl start smbd
exercise_cifs smbd "$export_root/smbd" smbd
systemctl stop smbd

# --- real clients on a hooked filesystem (/root, ext4) -----------------------
# Sources on a tmpfs, outside fs/fstypes: made freely, as from elsewhere.
mkdir -p /mnt/src && mount -t tmpfs src /mnt/src
ill=$(bytes 6261642de9)			# "bad-" Latin-1 E9

# tar -x of an archive with one ill-formed member (written by Python's
# tarfile: the member never exists on a disk).
python3 - /mnt/src/a.tar <<'EOF'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.GNU_FORMAT,
                  encoding="utf-8", errors="surrogateescape") as t:
    for name in ["a/one.txt", "a/bad-\udce9.txt", "a/two.txt"]:
        data = name.encode("utf-8", "surrogateescape") + b"\n"
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
EOF
mkdir -p /root/tar
out=$(tar -xf /mnt/src/a.tar -C /root/tar 2>&1)
rc=$?
echo "# tar -x: exit $rc: $out"
expect_eq "tar -x with one ill-formed member: exits 2" 2 "$rc"
expect_match "tar -x: names the refused member and the error" \
	"bad-.*Invalid or incomplete multibyte or wide character" "$out"
expect_eq "tar -x: the other members extracted" "one.txt two.txt" "$(ls /root/tar/a | tr '\n' ' ' | sed 's/ $//')"

# rsync -a of a tree holding one legacy name.
mkdir -p /mnt/src/tree/sub
echo 1 >/mnt/src/tree/one.txt
echo 2 >"/mnt/src/tree/sub/$ill.txt"
echo 3 >/mnt/src/tree/sub/three.txt
out=$(rsync -a /mnt/src/tree/ /root/rsync/ 2>&1)
rc=$?
echo "# rsync -a: exit $rc: $out"
expect_eq "rsync -a with one legacy name: exits 23 (partial transfer)" 23 "$rc"
expect_match "rsync -a: names the refused file and the error" \
	"bad-.*Invalid or incomplete multibyte or wide character" "$out"
expect_eq "rsync -a: the rest copied" "one.txt sub/three.txt" \
	"$(cd /root/rsync && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')"

# git: .g<U+200C>it/hooks/x under the ignorables class (the
# CVE-2014-9390 look-alike), and a normal repository.
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
zwnj=$(bytes 2e67e2808c6974)		# ".g" U+200C "it"
for repo in evil plain; do
	git init -q /mnt/src/$repo
	echo readme >/mnt/src/$repo/README
	if [ $repo = evil ]; then
		mkdir -p "/mnt/src/$repo/$zwnj/hooks"
		printf '#!/bin/sh\necho pwned\n' >"/mnt/src/$repo/$zwnj/hooks/x"
	fi
	git -C /mnt/src/$repo add -A && git -C /mnt/src/$repo commit -qm init
done
expect_status "policy +ignorables" 0 utf8guardctl set policy +ignorables
out=$(git clone -q /mnt/src/evil /root/evil 2>&1)
rc=$?
echo "# git clone (evil): exit $rc: $out"
expect_eq "git clone of .g<U+200C>it/hooks/x: fails" yes "$( ((rc != 0)) && echo yes || echo no)"
expect_match "git: names the refused path" "Invalid or incomplete multibyte|unable to create|cannot create" "$out"
expect_eq "git: no .g<U+200C>it on disk" no "$(on_export /root/evil 2e67e2808c6974)"
expect_status "git clone of a normal repository" 0 git clone -q /mnt/src/plain /root/plain
expect_eq "git: the normal repository checked out" readme "$(cat /root/plain/README 2>&1)"
expect_status "policy -ignorables" 0 utf8guardctl set policy -ignorables
umount /mnt/src

# --- real network clients on a watched port ----------------------------------
# utf8guard_nf.ko on tcp:8080 (Python's http.server) and udp:5140 (a
# syslog receiver), net.action reset.
expect_status "utf8guardctl load --net" 0 utf8guardctl load --net
expect_status "net.ports tcp:8080 udp:5140" 0 utf8guardctl set net.ports "tcp:8080 udp:5140"
expect_status "net.action reset" 0 utf8guardctl set net.action reset
mkdir -p /root/www && echo hello >/root/www/index.html
(cd /root/www && exec python3 -m http.server 8080 --bind 127.0.0.1 >/tmp/http.log 2>&1) &
http=$!
for _ in $(seq 50); do
	curl -s -o /dev/null http://127.0.0.1:8080/ && break
	sleep 0.2
done
expect_eq "curl: a plain request works" hello "$(curl -s http://127.0.0.1:8080/index.html)"
expect_eq "curl: a UTF-8 request target reaches the server (404)" 404 \
	"$(curl -s -o /dev/null -w '%{http_code}' --request-target "/$(bytes 636166c3a9)" http://127.0.0.1:8080/)"
expect_match "http.server logged the UTF-8 request" "GET /caf" "$(cat /tmp/http.log)"
d0=$(cat $sys/net/stats/dropped)
start=$(date +%s%N)
out=$(curl -s -S -m 20 --request-target "/$(bytes c0ae2e)/etc/passwd" http://127.0.0.1:8080/ 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "# curl, the path trick: exit $rc after $ms ms: $out"
expect_match "curl: the path-trick request fails, reset (exit 52, 55 or 56)" '^(52|55|56)$' "$rc"
expect_eq "curl: at once (under 5 s)" yes "$( ((ms < 5000)) && echo yes || echo no)"
expect_no_match "http.server never saw it" "etc/passwd" "$(cat /tmp/http.log)"
expect_eq "net/stats/dropped moved" yes "$( (($(cat $sys/net/stats/dropped) > d0)) && echo yes || echo no)"
kill $http

# logger over UDP to a receiver that writes each datagram on a line.
python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 5140))
with open("/tmp/syslog.got", "ab", buffering=0) as f:
    while True:
        f.write(s.recv(65536) + b"\n")
' &
recv=$!
sleep 1
logger -n 127.0.0.1 -P 5140 -d "good message $(bytes 636166c3a9)"
logger -n 127.0.0.1 -P 5140 -d "bad message $(bytes c0ae2e)"
logger -n 127.0.0.1 -P 5140 -d "last good message"
sleep 1
kill $recv
got=$(cat /tmp/syslog.got 2>/dev/null)
echo "# syslog receiver got: $got"
expect_match "logger: the good message delivered" "good message café" "$got"
expect_match "logger: the one after it delivered" "last good message" "$got"
expect_no_match "logger: the ill-formed message dropped" "bad message" "$got"

# --- where security teams look: the audit records ----------------------------
sleep 1
raw=$(ausearch -m ANOM_CREAT --raw 2>&1)
expect_eq "ausearch: one ANOM_CREAT record per refused or audited name" \
	$(($(cat $sys/fs/stats/rejected) + $(cat $sys/fs/stats/audited))) \
	"$(grep -c '^type=ANOM_CREAT ' <<<"$raw")"
expect_match "ausearch: knfsd's refusal of the path trick, its thread named" \
	'utf8guard=refused op=create reason=overlong offset=0 bad=C0 after=AE2E path_trick=1 name=C0AE2E name_len=3 res=0 .* comm="nfsd"' \
	"$raw"
expect_match "ausearch: smbd's refusal of the bidi name" \
	'utf8guard=refused op=[a-z]+ reason=bidi offset=4 bad=E280AE .* res=0 .* comm="smbd' "$raw"
expect_match "ausearch: tar's refusal, with its executable" \
	'utf8guard=refused op=create reason=truncated offset=4 bad=E9 before=6261642D after=2E747874 path_trick=0 name=6261642DE92E747874 .* comm="tar" exe="/usr/bin/tar"' \
	"$raw"
# (ausearch -i shows the raw bytes: matched as bytes, not characters)
decoded=$(ausearch -m ANOM_CREAT -i -c tar 2>&1)
expect_match "ausearch -i decodes the name" 'name=bad-' "$decoded"
expect_no_match "ausearch -i: no hex name left" 'name=6261642DE9' "$decoded"
expect_match "ausearch -i: utf8guard=refused, read as a word" 'type=ANOM_CREAT .* : utf8guard=refused op=create ' "$decoded"
raw=$(ausearch -m NETFILTER_PKT --raw 2>&1)
expect_eq "ausearch: one NETFILTER_PKT record per dropped packet" \
	$(($(cat $sys/net/stats/dropped) + $(cat $sys/net/stats/audited))) \
	"$(grep -c '^type=NETFILTER_PKT ' <<<"$raw")"
expect_match "ausearch: the dropped syslog datagram" \
	'utf8guard=dropped op=udp reason=overlong offset=[0-9]+ bad=C0 .* proto=17 saddr=127\.0\.0\.1 sport=[0-9]+ daddr=127\.0\.0\.1 dport=5140 res=0' \
	"$raw"
expect_match "ausearch: the reset HTTP request" \
	'utf8guard=dropped op=tcp reason=overlong .* proto=6 saddr=127\.0\.0\.1 sport=[0-9]+ daddr=127\.0\.0\.1 dport=8080 res=0' \
	"$raw"
expect_eq "no audit record lost on the way (stats/audit_missed)" 0 "$(cat $sys/stats/audit_missed)"
expect_match "auditd lost none either" '^lost 0$' "$(auditctl -s 2>&1)"

# --- where operations teams look: node_exporter's textfile collector ---------
prom=/var/lib/prometheus/node-exporter/utf8guard.prom
expect_eq "utf8guard-textfile.timer enabled by the package" enabled \
	"$(systemctl is-enabled utf8guard-textfile.timer 2>&1)"
expect_eq "utf8guard-textfile.timer active" active "$(systemctl is-active utf8guard-textfile.timer 2>&1)"
expect_status "prometheus-node-exporter started" 0 systemctl start prometheus-node-exporter
expect_status "utf8guard-textfile.service runs" 0 systemctl start utf8guard-textfile.service
expect_eq "the textfile written, mode 0644" 644 "$(stat -c %a $prom 2>&1)"
metrics=
for _ in $(seq 50); do
	metrics=$(curl -s http://localhost:9100/metrics) && [ -n "$metrics" ] && break
	sleep 0.2
done
expect_match "curl localhost:9100/metrics: utf8guard_fs loaded" \
	'^utf8guard_loaded\{module="utf8guard_fs"\} 1$' "$metrics"
expect_match "curl localhost:9100/metrics: fs refusals, as sysfs counts them" \
	"^utf8guard_fs_rejected_total $(cat $sys/fs/stats/rejected)\$" "$metrics"
expect_match "curl localhost:9100/metrics: net drops, as sysfs counts them" \
	"^utf8guard_net_dropped_total $(cat $sys/net/stats/dropped)\$" "$metrics"
expect_match "node_exporter read the textfile without error" \
	'^node_textfile_scrape_error 0$' "$metrics"
echo "# $(grep -c '^utf8guard_' <<<"$metrics") utf8guard_* samples in /metrics"

finish_tests
