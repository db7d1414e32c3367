#!/bin/bash
# Captures the real output of the host tools' probes that run on Debian 12:
# apt list --upgradable, ps, docker ps, ufw status verbose, smartctl --scan
# and SysV service status.
# Usage (as root on Debian 12 with apt lists current, dpkg-dev, docker.io,
# busybox-static, iptables and smartmontools): host-tools.sh OUTDIR
#
# Nothing of the machine changes for good: apt reads a throw-away dpkg
# database and two local file: repositories through -o Dir options; ps runs
# in a fresh PID namespace; docker containers and the image carry a label
# or name of this run and are removed; ufw is unpacked from Debian's
# package (apt-get download) and runs in a fresh network namespace with the
# package overlaid on /usr and /etc in a private mount namespace. Every
# program runs with warden's probe environment (PATH, HOME, LANG=C.UTF-8,
# TERM=dumb) and stdout going to a file, as under warden, so there are no
# colour escapes.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
out=$(cd "$out" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
ns=warden-capture-ufw-$$
ns3=warden-capture-sysv-$$
label=warden.capture=$$
img=warden-capture/busybox:$$
cleanup() {
	docker ps -aq --filter "label=$label" | xargs -r docker rm -f >/dev/null
	docker image rm -f "$img" >/dev/null 2>&1 || true
	ip netns del "$ns" 2>/dev/null || true
	ip netns del "$ns3" 2>/dev/null || true
	rm -rf -- "$W"
}
trap cleanup EXIT
today=$(date -u +%F)
os=$(. /etc/os-release && echo "$PRETTY_NAME")
probe() { env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }
pkgver() { dpkg-query -W -f '${Version}' "$1"; }

# 1. apt: dummy packages built with dpkg-deb; the old versions installed by
#    dpkg into a throw-away admin dir, the new ones in two flat file:
#    repositories whose Release files name Debian's suites stable-updates
#    and stable-security.
A=$W/apt
mkdir -p "$A/build" "$A/dpkg/info" "$A/dpkg/updates" "$A/inst" "$A/etc/sources.list.d" \
	"$A/etc/apt.conf.d" "$A/etc/preferences.d" "$A/lists/partial" "$A/cache/archives/partial"
touch "$A/dpkg/status" "$A/dpkg/available"
deb() { # name version arch
	local d=$A/build/$1_$2_$3
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: warden capture <capture@example.invalid>\nDescription: dummy package for warden output capture\n' \
		"$1" "$2" "$3" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$d.deb" >/dev/null
}
deb libdemo1 1.0-1 amd64
deb libdemo1 1.0-1+deb12u1 amd64
deb hello-capture 2.10-3 all
deb hello-capture 2.10-3+deb12u1 all
deb tzdata-capture 2024a-0+deb12u1 all
deb tzdata-capture 2024b-0+deb12u1 all
deb steady 1.0 all
dpkg --admindir="$A/dpkg" --instdir="$A/inst" --force-not-root --force-script-chrootless \
	-i "$A"/build/{libdemo1_1.0-1_amd64,hello-capture_2.10-3_all,tzdata-capture_2024a-0+deb12u1_all,steady_1.0_all}.deb >/dev/null
repo() { # dir suite codename debs...
	local r=$A/$1 suite=$2 code=$3 f
	shift 3
	mkdir -p "$r"
	cp "$@" "$r/"
	(
		cd "$r"
		dpkg-scanpackages -m . /dev/null >Packages 2>/dev/null
		gzip -kf Packages
		printf 'Origin: Capture\nLabel: Capture\nSuite: %s\nCodename: %s\nDate: %s\nArchitectures: amd64 all\nComponents: main\nSHA256:\n' "$suite" "$code" "$(date -Ru)"
		for f in Packages Packages.gz; do printf ' %s %s %s\n' "$(sha256sum $f | cut -d' ' -f1)" "$(stat -c %s $f)" "$f"; done
	) >"$r/Release.tmp"
	mv "$r/Release.tmp" "$r/Release"
}
repo updates stable-updates bookworm-updates "$A"/build/{hello-capture_2.10-3+deb12u1_all,tzdata-capture_2024b-0+deb12u1_all,steady_1.0_all}.deb
repo security stable-security bookworm-security "$A"/build/{libdemo1_1.0-1+deb12u1_amd64,tzdata-capture_2024b-0+deb12u1_all}.deb
printf 'deb [trusted=yes] file:%s ./\ndeb [trusted=yes] file:%s ./\n' "$A/updates" "$A/security" >"$A/etc/sources.list"
aptdirs=(-o "Dir::Etc=$A/etc" -o "Dir::State::lists=$A/lists" -o "Dir::State::status=$A/dpkg/status"
	-o "Dir::Cache=$A/cache" -o "Dir::State::extended_states=$A/extended_states")
probe apt-get "${aptdirs[@]}" update -q >/dev/null 2>&1
set +e
probe apt "${aptdirs[@]}" list --upgradable >"$W/apt.stdout" 2>"$W/apt.stderr"
rc=$?
set -e
{
	printf '#fixture: apt list --upgradable; captured here on %s (%s, apt %s) by testdata/capture/host-tools.sh: dummy packages built with dpkg-deb, old versions installed by dpkg into a throw-away database, new ones in local repositories with the suites stable-updates and stable-security (tzdata-capture in both), apt pointed at them with -o Dir options; exit %s, stdout (stderr held only apt'"'"'s CLI warning)\n' \
		"$today" "$os" "$(pkgver apt)" "$rc"
	cat "$W/apt.stdout"
} >"$out/apt-list-upgradable.captured.txt"

# 2. ps: a fresh PID namespace (its /proc mounted by unshare) holding a
#    shell, a sleep as root and one as nobody, BusyBox httpd, and python3
#    after a short busy loop under the name "tmux: server" (set with
#    prctl(PR_SET_NAME), as tmux names itself), so one command has a blank.
unshare --pid --fork --mount-proc sh -c '
	sleep 60 &
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 &
	busybox sleep 60 &
	/usr/bin/python3 -c "
import ctypes, time
ctypes.CDLL(None).prctl(15, b\"tmux: server\", 0, 0, 0)
t = time.time()
while time.time() - t < 0.5:
    pass
time.sleep(60)" &
	sleep 1
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb ps -eo pid,user,pcpu,pmem,rss,comm >"$1"
	kill $(jobs -p) 2>/dev/null || true
	wait 2>/dev/null || true' sh "$W/ps.stdout"
{
	printf '#fixture: ps -eo pid,user,pcpu,pmem,rss,comm; captured here on %s (%s, procps %s) by testdata/capture/host-tools.sh in a fresh PID namespace: sh (PID 1), sleep as root and as nobody, busybox sleep, python3 renamed "tmux: server" after a busy loop; exit 0, stdout\n' \
		"$today" "$os" "$(pkgver procps)"
	cat "$W/ps.stdout"
} >"$out/ps.captured.txt"

# 2b. BusyBox ps, as on routers: the same kind of namespace, python3 holding
#     40 MiB so its RSS takes a unit; first warden's procps argv, which
#     BusyBox refuses, then the fallback it accepts.
unshare --pid --fork --mount-proc sh -c '
	sleep 60 &
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 &
	/usr/bin/python3 -c "
import ctypes, time
ctypes.CDLL(None).prctl(15, b\"tmux: server\", 0, 0, 0)
x = bytearray(40 * 1024 * 1024)
time.sleep(60)" &
	sleep 1
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb busybox ps -eo pid,user,pcpu,pmem,rss,comm >/dev/null 2>"$1.refused" && exit 1
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb busybox ps -o pid,user,rss,comm >"$1"
	kill $(jobs -p) 2>/dev/null || true
	wait 2>/dev/null || true' sh "$W/bbps.stdout"
{
	printf '#fixture: ps -o pid,user,rss,comm; captured here on %s (%s, BusyBox %s from busybox-static) by testdata/capture/host-tools.sh in a fresh PID namespace: sh (PID 1), sleep as root and as nobody, python3 renamed "tmux: server" holding 40 MiB; exit 0, stdout. The same ps refused warden'"'"'s procps argv with exit 1: %s\n' \
		"$today" "$os" "$(pkgver busybox-static)" "$(cat "$W/bbps.stdout.refused")"
	cat "$W/bbps.stdout"
} >"$out/busybox-ps.captured.txt"

# 3. docker ps: an image imported from busybox-static (no registry), and
#    three containers labelled for this run: running, exited with status
#    3, and created but never started. The label filter keeps other
#    containers of the machine out of the listing. They run with no network
#    (this machine's dockerd has no docker0 bridge), so no ports.
docker info >/dev/null
mkdir -p "$W/img/bin" "$W/img/etc"
cp /bin/busybox "$W/img/bin/busybox"
for n in $(/bin/busybox --list); do [ "$n" = busybox ] || ln -s busybox "$W/img/bin/$n"; done
echo 'root:x:0:0:root:/root:/bin/sh' >"$W/img/etc/passwd"
tar -C "$W/img" -c . | docker import - "$img" >/dev/null
docker run -d --network none --label "$label" --name "capture-web-$$" "$img" httpd -f -p 80 >/dev/null
docker run --network none --label "$label" --name "capture-job-$$" "$img" sh -c 'exit 3' >/dev/null || true
docker create --network none --label "$label" --name "capture-idle-$$" "$img" sleep 1 >/dev/null
# Debian's client (docker.io) makes docker-ps.captured.txt; a newer client
# earlier on PATH, if any, makes docker-ps-newer-client.captured.txt.
dockerps() { # client fixture
	probe "$1" ps -a --no-trunc --format '{{json .}}' --filter "label=$label" >"$W/docker.stdout"
	{
		printf '#fixture: docker ps -a --no-trunc --format {{json .}} --filter label=LABEL (warden'"'"'s argv plus a label filter that keeps out the machine'"'"'s other containers); captured here on %s (%s, %s: docker client %s, server %s) by testdata/capture/host-tools.sh: an image imported from busybox-static, containers (no network) running, exited 3, and created; exit 0, stdout\n' \
			"$today" "$os" "$1" "$("$1" version --format '{{.Client.Version}}')" "$("$1" version --format '{{.Server.Version}}')"
		cat "$W/docker.stdout"
	} >"$out/$2"
}
dockerps /usr/bin/docker docker-ps.captured.txt
if [ "$(command -v docker)" != /usr/bin/docker ]; then dockerps "$(command -v docker)" docker-ps-newer-client.captured.txt; fi

# 4. ufw: Debian's package, unpacked (not installed) and laid over /usr and
#    /etc with overlayfs in a private mount namespace inside a fresh network
#    namespace; the postinst's rule-file copies are made by hand. Then
#    ufw enables itself there with a default deny and three rules.
mkdir -p "$W/ufw/root" "$W/ufw/etc-up" "$W/ufw/etc-work"
(cd "$W/ufw" && probe apt-get download -q ufw >/dev/null 2>&1)
dpkg-deb -x "$W"/ufw/ufw_*.deb "$W/ufw/root"
mkdir -p "$W/ufw/root/usr/lib/ufw"
cp -a "$W/ufw/root/lib/ufw/." "$W/ufw/root/usr/lib/ufw/"
ip netns add "$ns"
ip netns exec "$ns" unshare --mount --propagation private sh -c '
	set -e
	U=$1
	mount -t overlay overlay -o "lowerdir=$U/root/usr:/usr" /usr
	mount -t overlay overlay -o "lowerdir=/etc,upperdir=$U/etc-up,workdir=$U/etc-work" /etc
	cp -a "$U/root/etc/ufw" "$U/root/etc/default" /etc/
	for f in before.rules before6.rules after.rules after6.rules; do install -m 640 /usr/share/ufw/iptables/$f /etc/ufw/$f; done
	for f in user.rules user6.rules; do install -m 640 /usr/share/ufw/$f /etc/ufw/$f; done
	install -m 644 /usr/share/ufw/ufw.conf /etc/ufw/ufw.conf
	ip link set lo up
	p() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }
	p ufw default deny incoming >/dev/null
	p ufw allow from 192.168.1.0/24 to any port 22 proto tcp >/dev/null
	p ufw allow 80,443/tcp >/dev/null
	p ufw limit 2222/tcp >/dev/null
	p ufw deny 5353/udp >/dev/null
	p ufw --force enable >/dev/null
	p ufw status verbose >"$U/status.stdout"
	p ufw --version 2>/dev/null | head -1 >"$U/version"' sh "$W/ufw"
{
	printf '#fixture: ufw status verbose; captured here on %s (%s, %s from Debian package ufw %s, unpacked not installed) by testdata/capture/host-tools.sh in a fresh network namespace: default deny incoming, allow 22/tcp from 192.168.1.0/24, allow 80,443/tcp, limit 2222/tcp, deny 5353/udp, then enable; exit 0, stdout\n' \
		"$today" "$os" "$(cat "$W/ufw/version")" "$(dpkg-deb -f "$W"/ufw/ufw_*.deb Version)"
	cat "$W/ufw/status.stdout"
} >"$out/ufw-status.captured.txt"

# 5. smartctl: what this machine's disks answer. A virtio disk has no
#    SMART; --scan finds nothing to ask.
sv=$(smartctl --version | head -1)
probe smartctl --scan -j >"$W/scan.stdout" || true
{
	printf '#fixture: smartctl --scan -j; captured here on %s (%s, %s) by testdata/capture/host-tools.sh on a VM with one virtio disk; exit 0, stdout\n' "$today" "$os" "$sv"
	cat "$W/scan.stdout"
} >"$out/smartctl-scan-none.captured.txt"

# 6. SysV init scripts (`service NAME status`, as on a Debian host that does
#    not boot systemd, like this one): Debian's /etc/init.d/ssh in a fresh
#    network namespace with a private tmpfs on /run, so the sshd it starts
#    is apart from the machine's. Running; stopped; stopped with a pid file
#    left naming a process that has exited; and a name with no script. Warden reads stdout and
#    stderr together, so each fixture holds both as `2>&1` writes them.
ip netns add "$ns3"
ip netns exec "$ns3" unshare --mount --propagation private sh -c '
	O=$1
	mount -t tmpfs tmpfs /run
	ip link set lo up
	p() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }
	st() { set +e; p service "$1" status >"$O/$2.out" 2>&1; echo $? >"$O/$2.rc"; set -e; }
	set -e
	p service ssh start >/dev/null
	st ssh running
	p service ssh stop >/dev/null
	st ssh stopped
	sh -c "echo \$\$" >/run/sshd.pid
	st ssh stale
	rm -f /run/sshd.pid
	st nosuch missing' sh "$W"
ip netns del "$ns3"
sshv=$(dpkg-query -W -f '${Version}' openssh-server)
for c in "running:sshd started by service ssh start" "stopped:after service ssh stop" \
	"stale:after service ssh stop, /run/sshd.pid naming a process that has exited" "missing:no /etc/init.d/nosuch"; do
	n=${c%%:*}
	svc=ssh
	[ "$n" = missing ] && svc=nosuch
	{
		printf '#fixture: service %s status; captured here on %s (%s, init-system-helpers %s, openssh-server %s init script) by testdata/capture/host-tools.sh in a fresh network namespace with a private /run: %s; exit %s, stdout and stderr together\n' \
			"$svc" "$today" "$os" "$(pkgver init-system-helpers)" "$sshv" "${c#*:}" "$(cat "$W/$n.rc")"
		cat "$W/$n.out"
	} >"$out/sysv-status-$n.captured.txt"
done
