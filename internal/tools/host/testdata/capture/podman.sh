#!/bin/bash
# Captures real `podman ps -a --format json` output from Debian 12's own
# podman package. Usage (as root on Debian 12 with apt lists current and
# runc, libdevmapper1.02.1 and libseccomp2 installed, as docker.io brings
# them): podman.sh OUTDIR
#
# Nothing is installed on the machine: podman, conmon, catatonit and the
# containers configuration are fetched with `apt-get download`, unpacked
# under /tmp and laid over /usr and /etc with overlayfs in a private mount
# namespace. Podman keeps its storage (vfs) and run state in /tmp too; the
# image is imported from busybox-static (no registry) and the containers
# have no network; they run with explicit --ulimit values because runc
# here refuses to raise RLIMIT_NOFILE and RLIMIT_NPROC to podman's
# defaults. ps runs with warden's probe environment and stdout going
# to a file, as under warden.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
out=$(cd "$out" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
trap 'rm -rf -- "$W"' EXIT
mkdir -p "$W/debs" "$W/root" "$W/up" "$W/work" "$W/st/root" "$W/st/run" "$W/img/bin" "$W/img/etc"
(cd "$W/debs" && apt-get download -q podman conmon catatonit golang-github-containers-common \
	golang-github-containers-image libsubid4 libgpgme11 libassuan0 >/dev/null 2>&1)
for d in "$W"/debs/*.deb; do dpkg-deb -x "$d" "$W/root"; done
cp /bin/busybox "$W/img/bin/busybox"
for n in $(/bin/busybox --list); do [ "$n" = busybox ] || ln -s busybox "$W/img/bin/$n"; done
echo 'root:x:0:0:root:/root:/bin/sh' >"$W/img/etc/passwd"
tar -C "$W/img" -cf "$W/img.tar" .
unshare --mount --propagation private bash -c '
	set -euo pipefail
	W=$1
	mount -t overlay overlay -o "lowerdir=$W/root/usr:/usr" /usr
	mount -t overlay overlay -o "lowerdir=$W/root/etc:/etc,upperdir=$W/up,workdir=$W/work" /etc
	P=(podman --root "$W/st/root" --runroot "$W/st/run" --storage-driver vfs --cgroup-manager cgroupfs --events-backend file)
	img=localhost/warden-capture/busybox:local
	"${P[@]}" import "$W/img.tar" "$img" >/dev/null
	"${P[@]}" run -d --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --network none --name capture-web "$img" httpd -f -p 80 >/dev/null
	"${P[@]}" run --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --network none --name capture-job "$img" sh -c "exit 3" >/dev/null || true
	"${P[@]}" create --ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --network none --name capture-idle "$img" sleep 1 >/dev/null
	sleep 1
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
		"${P[@]}" ps -a --format json >"$W/ps.stdout"
	"${P[@]}" version --format "{{.Client.Version}}" >"$W/version"
	"${P[@]}" rm -af >/dev/null 2>&1 || true' bash "$W"
{
	printf '#fixture: podman ps -a --format json (with --root/--runroot under /tmp, --storage-driver vfs, --cgroup-manager cgroupfs, --events-backend file); captured here on %s (%s; podman %s from Debian package podman %s, unpacked not installed) by testdata/capture/podman.sh: an image imported from busybox-static, containers (no network) running, exited 3, and created; exit 0, stdout\n' \
		"$(date -u +%F)" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(cat "$W/version")" \
		"$(dpkg-deb -f "$W"/debs/podman_*.deb Version)"
	cat "$W/ps.stdout"
} >"$out/podman-ps.captured.txt"
