#!/bin/bash
# Re-captures the real OpenRC and dnf fixtures of ../ (openrc-status-*.captured.txt,
# dnf-check-update.captured.txt) from Debian 12's own openrc and dnf packages.
#
# Usage (as root on Debian 12, with bubblewrap installed and apt lists current):
#   internal/tools/host/testdata/capture/openrc-dnf.sh OUTDIR
#
# Nothing is installed on the machine: the packages are fetched with
# `apt-get download` and unpacked into a throw-away root under /tmp whose /usr
# is a hard-link copy of the host's (files the packages replace are unlinked by
# tar, never written through; the root's /usr is mounted read-only when the
# programs run). Every program runs inside bwrap with fresh pid, ipc, uts and
# net namespaces and warden's probe environment (PATH, HOME, LANG=C.UTF-8,
# TERM=dumb, nothing else), with stdout going through a pipe as under warden.
# The work directory is removed on exit; no daemon outlives bwrap.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
out=$(cd "$out" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
trap 'rm -rf -- "$W"' EXIT
R=$W/root
mkdir -p "$W/debs" "$W/run" "$W/build/SPECS" "$W/cap" "$R"

# 1. Packages: OpenRC, dnf, rpm(build), createrepo_c and what they need
#    beyond a Debian 12 base with python3.
(cd "$W/debs" && apt-get download -q \
	openrc libeinfo1 librc1 insserv \
	dnf python3-dnf dnf-data libdnf2 libdnf2-common python3-libdnf python3-hawkey \
	libsolv1 libsolvext1 librepo0 libmodulemd2 libcomps0 python3-libcomps python3-gpg \
	libgpgme11 python3-rpm rpm rpm-common librpm9 librpmio9 librpmbuild9 librpmsign9 \
	libfsverity0 liblua5.3-0 libpopt0 createrepo-c libcreaterepo-c0 libdrpm0 libzck1 \
	debugedit rpm2cpio python3-unbound libarchive13 >/dev/null 2>&1)

# 2. The root: the host's /usr (hard links, or a copy across file systems),
#    a copy of /etc without the host's init scripts, the packages on top.
cp -alx /usr "$R/usr" 2>/dev/null || { rm -rf -- "$R/usr"; cp -ax /usr "$R/usr"; }
cp -a /etc "$R/etc"
rm -rf -- "$R/etc/init.d" "$R/etc/runlevels"
for l in bin sbin lib lib64; do ln -s "usr/$l" "$R/$l"; done
mkdir -p "$R/var/log" "$R/var/lib/rpm" "$R/etc/rpm" "$R/etc/yum.repos.d"
for d in "$W"/debs/*.deb; do
	dpkg-deb --fsys-tarfile "$d" | tar -x --keep-directory-symlink -C "$R"
done
ldconfig -r "$R"

bw() {
	bwrap --ro-bind "$R/usr" /usr --symlink usr/bin /bin --symlink usr/sbin /sbin \
		--symlink usr/lib /lib --symlink usr/lib64 /lib64 --bind "$R/etc" /etc \
		--bind "$R/var" /var --bind "$W/run" /run --bind "$W/build" /build \
		--tmpfs /tmp --dev /dev --proc /proc \
		--unshare-pid --unshare-ipc --unshare-uts --unshare-net --die-with-parent \
		--hostname capture --chdir / --clearenv \
		--setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv HOME /root \
		--setenv LANG C.UTF-8 --setenv TERM dumb "$@"
}

# capture NAME ARGV...: stdout through a pipe, stderr and exit code apart.
capture() {
	local n=$1
	shift
	set +e
	bw "$@" 2>"$W/cap/$n.stderr" | cat >"$W/cap/$n.stdout"
	echo "${PIPESTATUS[0]}" >"$W/cap/$n.rc"
	set -e
}

# fixture FILE HEADER PART...: the #fixture: line, then the captured bytes.
fixture() {
	local f=$1 h=$2
	shift 2
	{
		printf '#fixture: %s\n' "$h"
		for p in "$@"; do cat "$W/cap/$p"; done
	} >"$out/$f"
}

deb_version() { dpkg-deb -f "$W"/debs/"$1"_*.deb Version; }
today=$(date -u +%F)

# 3. OpenRC: two do-nothing openrc-run services, booted through the
#    sysinit, boot and default runlevels; then sshd is stopped.
for s in nginx sshd; do
	cat >"$R/etc/init.d/$s" <<EOF
#!/sbin/openrc-run
# Do-nothing service for warden's output capture.
description="dummy $s for output capture"
start() {
	ebegin "Starting $s"
	eend 0
}
stop() {
	ebegin "Stopping $s"
	eend 0
}
EOF
	chmod 755 "$R/etc/init.d/$s"
done
bw sh -c 'rc-update add nginx default && rc-update add sshd default &&
	openrc sysinit && openrc boot && openrc default && rc-service sshd stop' >/dev/null 2>&1
capture rc-nginx rc-service nginx status
capture rc-sshd rc-service sshd status
capture rc-nosuch rc-service nosuch status
orc=$(bw rc-service --version)
where="Debian 12 package openrc $(deb_version openrc), in a bwrap root booted with openrc sysinit/boot/default; do-nothing openrc-run scripts"
for n in rc-nginx rc-sshd; do [ ! -s "$W/cap/$n.stderr" ] || { echo "$n wrote to stderr" >&2; exit 1; }; done
[ ! -s "$W/cap/rc-nosuch.stdout" ] || { echo "rc-nosuch wrote to stdout" >&2; exit 1; }
fixture openrc-status-started.captured.txt "REAL CAPTURE $today: $orc ($where) \`rc-service nginx status\` (nginx started), exit $(cat "$W/cap/rc-nginx.rc"), stdout; stderr empty" rc-nginx.stdout
fixture openrc-status-stopped.captured.txt "REAL CAPTURE $today: $orc ($where) \`rc-service sshd status\` (sshd started, then stopped), exit $(cat "$W/cap/rc-sshd.rc"), stdout; stderr empty" rc-sshd.stdout
fixture openrc-status-missing.captured.txt "REAL CAPTURE $today: $orc ($where) \`rc-service nosuch status\` (no such script), exit $(cat "$W/cap/rc-nosuch.rc"), stderr; stdout empty" rc-nosuch.stderr

# 4. dnf: dummy rpms built with rpmbuild; the old versions go into the
#    root's rpm database (at /var/lib/rpm as on Fedora, not Debian's
#    ~/.rpmdb), the new ones into two local repositories named like
#    Fedora's; warden's refresh (dnf -q makecache) fills the cache that
#    warden's listing (dnf -q -C check-update) reads.
echo '%_dbpath /var/lib/rpm' >"$R/etc/rpm/macros.dbpath-capture"
spec() { # name version release epoch arch [extra preamble]
	cat >"$W/build/SPECS/$1-$2-$3.spec" <<EOF
Name: $1
Version: $2
Release: $3
${4:+Epoch: $4}
Summary: Dummy package $1 for warden's dnf output capture
License: MIT
BuildArch: $5
${6:-}

%description
Dummy package with no files, built to capture real dnf check-update output.

%files
EOF
}
long=python3-extraordinarily-long-package-name-demo
longer=golang-github-extraordinarily-long-upstream-project-name-devel
spec capture-release 12 1 "" noarch $'Provides: system-release\nProvides: system-release(releasever) = 12'
spec hello 1.0 1 "" noarch
spec hello 1.1 1 "" noarch
spec widget 2.0 1 1 x86_64
spec widget 2.1 1 1 x86_64
spec libdemo 0.9 1 "" x86_64
spec libdemo 0.9 2 "" x86_64
spec "$long" 3.12.4 1 "" noarch
spec "$long" 3.12.5 1 "" noarch
spec "$longer" 0.4.1 1 "" noarch
spec "$longer" 0.4.2 1 "" noarch
spec oldtool 1.0 1 "" noarch
spec newtool 2.0 1 "" noarch $'Obsoletes: oldtool < 2.0\nProvides: oldtool = 2.0'
spec steady 1.0 1 "" noarch
bw sh -c 'cd /build && for s in SPECS/*.spec; do rpmbuild --define "_topdir /build" -bb "$s" || exit 1; done' >/dev/null 2>&1
bw sh -c 'cd /build/RPMS && rpm -i --nodeps noarch/capture-release-12-1.noarch.rpm \
	noarch/hello-1.0-1.noarch.rpm x86_64/widget-2.0-1.x86_64.rpm x86_64/libdemo-0.9-1.x86_64.rpm \
	noarch/'"$long"'-3.12.4-1.noarch.rpm noarch/'"$longer"'-0.4.1-1.noarch.rpm \
	noarch/oldtool-1.0-1.noarch.rpm noarch/steady-1.0-1.noarch.rpm' >/dev/null 2>&1
mkdir -p "$W/build/repo-updates" "$W/build/repo-testing"
cp "$W"/build/RPMS/noarch/{hello-1.1-1,"$long"-3.12.5-1,"$longer"-0.4.2-1,newtool-2.0-1,steady-1.0-1}.noarch.rpm \
	"$W"/build/RPMS/x86_64/widget-2.1-1.x86_64.rpm "$W/build/repo-updates/"
cp "$W"/build/RPMS/x86_64/libdemo-0.9-2.x86_64.rpm "$W/build/repo-testing/"
cat >"$R/etc/yum.repos.d/capture.repo" <<'EOF'
[updates]
name=Local updates (dummy packages for warden's capture)
baseurl=file:///build/repo-updates
gpgcheck=0

[updates-testing]
name=Local updates-testing (dummy packages for warden's capture)
baseurl=file:///build/repo-testing
gpgcheck=0
EOF
bw sh -c 'createrepo_c -q /build/repo-updates && createrepo_c -q /build/repo-testing && dnf -q makecache'
capture dnf dnf -q -C check-update
[ ! -s "$W/cap/dnf.stderr" ] || { echo "dnf wrote to stderr" >&2; exit 1; }
fixture dnf-check-update.captured.txt "REAL CAPTURE $today: dnf $(bw dnf --version | head -1) (Debian 12 package dnf $(deb_version dnf), rpm $(deb_version rpm), createrepo_c $(deb_version createrepo-c); bwrap root, rpmbuild-made dummy rpms: old versions installed, new ones in local repos updates and updates-testing) \`dnf -q -C check-update\` after \`dnf -q makecache\`, exit $(cat "$W/cap/dnf.rc"), stdout; stderr empty" dnf.stdout
echo "wrote $out/openrc-status-{started,stopped,missing}.captured.txt $out/dnf-check-update.captured.txt"
