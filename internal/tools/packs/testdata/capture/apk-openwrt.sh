#!/bin/bash
# Captures real `apk list --upgradable` output from apk-tools v3, the package
# manager of OpenWrt 25, over an OpenWrt-like throw-away root. Debian 12
# packages no apk-tools, so build it from its source first, outside this
# repository, and pass the binary:
#
#   git clone https://gitlab.alpinelinux.org/alpine/apk-tools (or its GitHub
#   mirror alpinelinux/apk-tools); git checkout v3.0.6
#   VERSION=3.0.6 meson setup build -Dhelp=disabled -Dlua=disabled \
#     -Dpython=disabled -Ddocs=disabled -Dtests=disabled -Dzstd=disabled \
#     -Ddefault_library=static && ninja -C build
#   (Debian's gcc, meson, ninja-build, pkg-config, libssl-dev, zlib1g-dev)
#
# Usage (as root, with openssl): apk-openwrt.sh PATH/TO/apk OUTDIR COMMIT
# where COMMIT is the apk-tools commit it was built from.
#
# Nothing is installed on the machine. Dummy packages with no files are made
# with `apk mkpkg` for OpenWrt's arch naming (aarch64_cortex-a53) and
# OpenWrt-style names and versions (a kmod with the kernel's version, a
# library whose name ends in its ABI date, a `~hash` version), indexed with
# `apk mkndx` into packages.adb files signed with a throw-away ECDSA key (as
# OpenWrt's are). The old versions are installed into a throw-away root with
# `apk --root R --initdb --arch aarch64_cortex-a53 add`; then
# R/etc/apk/repositories.d/distfeeds.list (OpenWrt's file) names the index
# of the newer versions, and `apk --root R list --upgradable` runs with
# warden's probe environment and stdout going to a file, as under warden.
# --root is the only option added to the command warden runs.
set -euo pipefail

usage="usage: $0 APK OUTDIR COMMIT"
apk=$(realpath "${1:?$usage}")
out=$(cd "${2:?$usage}" && pwd)
commit=${3:?$usage}
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
trap 'rm -rf -- "$W"' EXIT
arch=aarch64_cortex-a53
mkdir -p "$W/old" "$W/new" "$W/root/etc/apk/keys" "$W/root/etc/apk/repositories.d"
openssl ecparam -name prime256v1 -genkey -noout -out "$W/key.pem"
openssl ec -in "$W/key.pem" -pubout -out "$W/root/etc/apk/keys/warden-capture.pem" 2>/dev/null

# NAME OLD NEW ORIGIN LICENSE (NEW "-": no newer version)
while read -r name old new origin lic; do
	for v in "$old" "$new"; do
		[ "$v" = - ] && continue
		repo=old
		[ "$v" = "$new" ] && repo=new
		"$apk" mkpkg -I "name:$name" -I "version:$v" -I "arch:$arch" -I "origin:$origin" \
			-I "license:$lic" -I "description:dummy package for warden output capture" \
			-o "$W/$repo/$name-$v.apk"
	done
	names+=("$name")
done <<'EOF'
busybox 1.37.0-r4 1.37.0-r5 busybox GPL-2.0-only
dnsmasq-full 2.90-r4 2.91-r1 dnsmasq GPL-2.0-only
kmod-nf-conntrack6 6.6.93-r1 6.6.102-r1 linux GPL-2.0-only
libubox20240329 2024.03.29~eb9bcb64-r1 2025.07.23~49056d17-r1 libubox ISC
uci 2025.01.20~16ff0bad-r1 - uci LGPL-2.1-only
EOF
for r in old new; do
	"$apk" mkndx -q --allow-untrusted --sign-key "$W/key.pem" -o "$W/$r/packages.adb" "$W/$r"/*.apk
done
"$apk" --root "$W/root" --initdb --arch "$arch" -q -X "$W/old/packages.adb" add "${names[@]}" >/dev/null
echo "$W/new/packages.adb" >"$W/root/etc/apk/repositories.d/distfeeds.list"
set +e
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
	"$apk" --root "$W/root" list --upgradable >"$W/u.stdout" 2>"$W/u.stderr"
rc=$?
set -e
{
	printf '#fixture: apk list --upgradable (with --root); captured here on %s (%s, %s; %s built from source here at commit %s, without Lua or zstd) by testdata/capture/apk-openwrt.sh: dummy %s packages made with apk mkpkg, the old versions installed from a signed local packages.adb into a throw-away root, the new ones in a second signed packages.adb named in its /etc/apk/repositories.d/distfeeds.list; uci has no newer version; exit %s, stdout (stderr: %s bytes)\n' \
		"$(date -u +%F)" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(cat /etc/debian_version)" \
		"$("$apk" --version | sed 's/,.*//')" "$commit" "$arch" "$rc" "$(stat -c %s "$W/u.stderr")"
	cat "$W/u.stdout"
} >"$out/apk-list-upgradable.captured.txt"
cat "$W/u.stderr" >&2

# Two more states of the same root, stdout and stderr kept apart as the
# pack reads them:
# - apk-list-upgradable-none: distfeeds.list names an index holding only
#   the installed versions: nothing upgradable, nothing on stderr;
# - apk-list-upgradable-no-index: distfeeds.list names OpenWrt's own feed
#   URL, whose index is not in apk's cache (apk update has not run since
#   boot, as after every reboot of a router): `list` never downloads, so it
#   lists nothing and warns on stderr. Nothing is fetched.
"$apk" mkndx -q --allow-untrusted --sign-key "$W/key.pem" -o "$W/old/packages.adb" "$W/old"/*.apk
echo "$W/old/packages.adb" >"$W/root/etc/apk/repositories.d/distfeeds.list"
probe() { # NAME
	set +e
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
		"$apk" --root "$W/root" list --upgradable >"$out/$1.stdout" 2>"$out/$1.stderr"
	echo "$1: exit $?" >&2
	set -e
	[ -s "$out/$1.stderr" ] || rm -f "$out/$1.stderr"
}
probe apk-list-upgradable-none
echo "https://downloads.openwrt.org/releases/25.12.0/packages/$arch/base/packages.adb" \
	>"$W/root/etc/apk/repositories.d/distfeeds.list"
probe apk-list-upgradable-no-index
