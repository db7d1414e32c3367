#!/bin/bash
# Captures real `pacman -Qu` output from Debian 12's own pacman package
# (pacman-package-manager 6.0.2, the Arch Linux program). Usage (as root on
# Debian 12 with apt lists current): pacman.sh OUTDIR
#
# Nothing is installed on the machine: the packages are fetched with
# `apt-get download` and unpacked under /tmp, then laid over /usr with a
# read-only overlayfs in a private mount namespace (repo-add reads its
# helpers from /usr/share/makepkg). Dummy packages (a .PKGINFO and nothing
# else, packed with bsdtar) are installed with `pacman -U` into a throw-away
# root and database named in a pacman.conf under /tmp; the newer versions
# are in a local file:// repository "core" made with repo-add, and one
# package is held back with IgnorePkg. pacman -Qu runs with warden's probe
# environment and stdout going to a file, as under warden.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
out=$(cd "$out" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
trap 'rm -rf -- "$W"' EXIT
mkdir -p "$W/debs" "$W/root" "$W/build" "$W/repo" "$W/sys/var/lib/pacman" "$W/sys/var/cache/pacman/pkg" "$W/sys/etc"
(cd "$W/debs" && apt-get download -q pacman-package-manager libalpm13 makepkg libarchive13 \
	libarchive-tools libgpgme11 libassuan0 >/dev/null 2>&1)
for d in "$W"/debs/*.deb; do dpkg-deb -x "$d" "$W/root"; done

cat >"$W/sys/etc/pacman.conf" <<EOF
[options]
RootDir = $W/sys
DBPath = $W/sys/var/lib/pacman/
CacheDir = $W/sys/var/cache/pacman/pkg/
LogFile = $W/sys/pacman.log
GPGDir = $W/sys/gnupg
HookDir = $W/sys/hooks
Architecture = x86_64
SigLevel = Never
IgnorePkg = held-capture
[core]
Server = file://$W/repo
EOF
unshare --mount --propagation private bash -c '
	set -euo pipefail
	W=$1
	mount -t overlay overlay -o "lowerdir=$W/root/usr:/usr" /usr
	export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
	mk() { # name version arch
		local d=$W/build/$1-$2
		mkdir -p "$d"
		printf "pkgname = %s\npkgbase = %s\npkgver = %s\npkgdesc = dummy package for warden output capture\nurl = https://example.invalid\nbuilddate = 1795800000\npackager = warden capture <capture@example.invalid>\nsize = 0\narch = %s\nlicense = MIT\n" "$1" "$1" "$2" "$3" >"$d/.PKGINFO"
		(cd "$d" && bsdtar -czf "../$1-$2-$3.pkg.tar.gz" .PKGINFO)
		echo "$W/build/$1-$2-$3.pkg.tar.gz"
	}
	old=($(mk linux-capture 6.10.9.arch1-1 x86_64) $(mk openssl-capture 3.3.1-1 x86_64) $(mk held-capture 1.0-1 any) $(mk steady-capture 1.0-1 any))
	new=($(mk linux-capture 6.10.10.arch1-1 x86_64) $(mk openssl-capture 1:3.3.2-1 x86_64) $(mk held-capture 1.1-1 any) "$W/build/steady-capture-1.0-1-any.pkg.tar.gz")
	conf=$W/sys/etc/pacman.conf
	pacman --config "$conf" --noconfirm -U "${old[@]}" >/dev/null 2>&1
	repo-add -q "$W/repo/core.db.tar.gz" "${new[@]}" >/dev/null 2>&1
	pacman --config "$conf" -Sy >/dev/null 2>&1
	set +e
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu \
		pacman --config "$conf" -Qu >"$W/qu.stdout" 2>"$W/qu.stderr"
	echo $? >"$W/qu.rc"
	pacman --version | sed -n "2s/^[ .-]*//p" | tr -s " " >"$W/version"' bash "$W"
{
	printf '#fixture: pacman -Qu; captured here on %s (%s; %s from Debian package pacman-package-manager %s, unpacked not installed) by testdata/capture/pacman.sh: dummy packages installed with pacman -U into a throw-away root, newer versions in a local repository made with repo-add, held-capture held back by IgnorePkg, openssl-capture gaining an epoch; exit %s, stdout (stderr empty: %s bytes)\n' \
		"$(date -u +%F)" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(cat "$W/version")" \
		"$(dpkg-deb -f "$W"/debs/pacman-package-manager_*.deb Version)" "$(cat "$W/qu.rc")" "$(stat -c %s "$W/qu.stderr")"
	cat "$W/qu.stdout"
} >"$out/pacman-qu.captured.txt"
