#!/bin/bash
# Captures real `apk list -u` output (Alpine's package manager, apk-tools v2,
# what Alpine 3.19-3.21 ship). Debian 12 packages no apk-tools, so build it
# from its source first, outside this repository, and pass the binary:
#
#   git clone https://gitlab.alpinelinux.org/alpine/apk-tools (or its GitHub
#   mirror alpinelinux/apk-tools); git checkout v2.14.10
#   make LUA=no   (Debian's gcc, make, pkg-config, libssl-dev, zlib1g-dev)
#
# Usage (as root, with python3 and openssl): apk.sh PATH/TO/apk OUTDIR COMMIT
# where COMMIT is the apk-tools commit it was built from (named in the
# fixture's first line).
#
# Nothing is installed on the machine. Dummy packages (an apk v2 package is
# a gzip'd tar stream holding .PKGINFO, then a gzip'd data tar whose sha256
# is the datahash, as abuild makes them; these hold no files) are written
# with python3's tarfile. The old versions are in a local repository
# indexed with `apk index` and signed with a throw-away RSA key the way
# abuild-sign does (SHA-1 signature of the index stream, prepended as a
# .SIGN.RSA.* tar stream), and installed into a throw-away root with
# `apk --root R --initdb add`; then the root's /etc/apk/repositories names
# a second, signed repository with the newer versions, and
# `apk --root R list -u` runs with warden's probe environment and stdout
# going to a file, as under warden. --root is the only option added to
# warden's `apk list -u`; the key is trusted through R/etc/apk/keys, so
# there is no --allow-untrusted.
set -euo pipefail

usage="usage: $0 APK OUTDIR COMMIT"
apk=$(realpath "${1:?$usage}")
out=$(cd "${2:?$usage}" && pwd)
commit=${3:?$usage}
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
trap 'rm -rf -- "$W"' EXIT
arch=x86_64
mkdir -p "$W/old/$arch" "$W/new/$arch" "$W/root/etc/apk/keys"
openssl genrsa -out "$W/key.rsa" 2048 2>/dev/null
openssl rsa -in "$W/key.rsa" -pubout -out "$W/root/etc/apk/keys/warden-capture.rsa.pub" 2>/dev/null

# mkapk NAME VERSION ARCH ORIGIN LICENSE REPO
mkapk() {
	python3 - "$@" "$W" <<'EOF'
import gzip, hashlib, io, sys, tarfile
name, ver, arch, origin, lic, repo, w = sys.argv[1:8]
def tarstream(members, end):
    b = io.BytesIO()
    t = tarfile.open(fileobj=b, mode="w", format=tarfile.USTAR_FORMAT)
    for n, data in members:
        i = tarfile.TarInfo(n); i.size = len(data); i.mtime = 1795800000; i.mode = 0o644
        t.addfile(i, io.BytesIO(data))
    if end:  # the control stream is cut before the end blocks, as abuild-tar --cut does
        t.close()
    return gzip.compress(b.getvalue(), mtime=0)
data = tarstream([], True)
info = (f"pkgname = {name}\npkgver = {ver}\npkgdesc = dummy package for warden output capture\n"
        f"url = https://example.invalid\nbuilddate = 1795800000\n"
        f"packager = warden capture <capture@example.invalid>\nsize = 0\narch = {arch}\n"
        f"origin = {origin}\nlicense = {lic}\ndatahash = {hashlib.sha256(data).hexdigest()}\n")
with open(f"{w}/{repo}/{arch if arch != 'noarch' else 'x86_64'}/{name}-{ver}.apk", "wb") as f:
    f.write(tarstream([(".PKGINFO", info.encode())], False) + data)
EOF
}

# index REPO: apk index --rewrite-arch, as repository scripts run it before
# abuild-sign (noarch listed as the repository's arch), then abuild-sign's
# signature stream in front.
index() {
	local idx=$W/$1/$arch/APKINDEX.tar.gz
	"$apk" index -q --allow-untrusted --rewrite-arch "$arch" -o "$idx" "$W/$1/$arch"/*.apk
	python3 - "$idx" "$W/key.rsa" <<'EOF'
import gzip, io, subprocess, sys, tarfile
idx, key = sys.argv[1:3]
body = open(idx, "rb").read()
sig = subprocess.run(["openssl", "dgst", "-sha1", "-sign", key], input=body, capture_output=True, check=True).stdout
b = io.BytesIO()
t = tarfile.open(fileobj=b, mode="w", format=tarfile.USTAR_FORMAT)
i = tarfile.TarInfo(".SIGN.RSA.warden-capture.rsa.pub"); i.size = len(sig); i.mtime = 1795800000; i.mode = 0o644
t.addfile(i, io.BytesIO(sig))
open(idx, "wb").write(gzip.compress(b.getvalue(), mtime=0) + body)
EOF
}

# NAME OLD NEW ARCH ORIGIN LICENSE (NEW empty: not upgraded)
while read -r name old new pkgarch origin lic; do
	lic=${lic//_/ }
	mkapk "$name" "$old" "$pkgarch" "$origin" "$lic" old
	[ "$new" = - ] || mkapk "$name" "$new" "$pkgarch" "$origin" "$lic" new
	names+=("$name")
done <<'EOF'
busybox 1.36.1-r29 1.36.1-r31 x86_64 busybox GPL-2.0-only
busybox-binsh 1.36.1-r29 1.36.1-r31 x86_64 busybox GPL-2.0-only
curl 8.9.1-r0 8.11.1-r0 x86_64 curl curl
libcurl 8.9.1-r0 8.11.1-r0 x86_64 curl curl
font-adobe-100dpi 1.0.3-r3 1.0.4-r0 noarch font-adobe-100dpi MIT
llvm18-libs 18.1.8-r0 18.1.8-r1 x86_64 llvm18 Apache-2.0_WITH_LLVM-exception
openssh-client-default 9.7_p1-r4 9.9_p1-r2 x86_64 openssh SSH-OpenSSH
tzdata 2024a-r1 2024b-r0 noarch tzdata Public-Domain
musl 1.2.5-r0 - x86_64 musl MIT
EOF
index old
index new
"$apk" --root "$W/root" --initdb -q -X "$W/old" add "${names[@]}" >/dev/null
echo "$W/new" >"$W/root/etc/apk/repositories"
set +e
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
	"$apk" --root "$W/root" list -u >"$W/u.stdout" 2>"$W/u.stderr"
rc=$?
set -e
{
	printf '#fixture: apk list -u (with --root); captured here on %s (%s, %s; %s built from source here at commit %s, without Lua) by testdata/capture/apk.sh: dummy packages, the old versions installed from a signed local repository into a throw-away root, the new ones in a second signed local repository named in its /etc/apk/repositories; musl has no newer version; exit %s, stdout (stderr: %s bytes)\n' \
		"$(date -u +%F)" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(cat /etc/debian_version)" "$("$apk" --version | sed 's/,.*//')" "$commit" \
		"$rc" "$(stat -c %s "$W/u.stderr")"
	cat "$W/u.stdout"
} >"$out/apk-list-upgradable.captured.txt"
cat "$W/u.stderr" >&2
