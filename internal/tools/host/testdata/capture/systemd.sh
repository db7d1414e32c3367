#!/bin/bash
# Captures real `systemctl show` output (the properties warden asks for) from
# Debian 12's systemd, run as PID 1 of fresh PID, mount, UTS, IPC and network
# namespaces (container=warden-capture), with a private tmpfs on /run whose
# /run/systemd/system holds the only units started: a target with no
# dependencies and three services. Nothing of the machine's own units
# starts. Usage (as root on Debian 12 with systemd installed; PID 1 need not
# be systemd): systemd.sh OUTDIR
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
out=$(cd "$out" && pwd)
W=$(mktemp -d /tmp/warden-capture.XXXXXX)
ns=warden-capture-systemd-$$
pid1=
cleanup() {
	# The namespace's systemd is this script's child's child; killing it
	# ends everything in its PID namespace.
	if [ -n "$pid1" ]; then kill -KILL "$pid1" 2>/dev/null || true; fi
	sleep 0.5
	ip netns del "$ns" 2>/dev/null || true
	rm -rf -- "$W"
}
trap cleanup EXIT
mkdir -p "$W/units"
cat >"$W/units/capture.target" <<'EOF'
[Unit]
Description=warden capture target
DefaultDependencies=no
EOF
cat >"$W/units/capture-web.service" <<'EOF'
[Unit]
Description=Capture web server (BusyBox httpd)
DefaultDependencies=no
[Service]
ExecStart=/bin/busybox httpd -f -p 127.0.0.1:8080 -h /tmp
[Install]
WantedBy=capture.target
EOF
cat >"$W/units/capture-fail.service" <<'EOF'
[Unit]
Description=Capture job that fails
DefaultDependencies=no
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'exit 3'
EOF
cat >"$W/units/capture-flap.service" <<'EOF'
[Unit]
Description=Capture daemon that keeps restarting
DefaultDependencies=no
StartLimitIntervalSec=0
[Service]
ExecStart=/bin/sh -c 'sleep 0.2; exit 1'
Restart=always
RestartSec=200ms
EOF
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" unshare --pid --fork --mount --propagation private --uts --ipc sh -c '
	mount -t tmpfs tmpfs /run
	mkdir -p /run/systemd/system
	cp "$1"/* /run/systemd/system/
	mount -t proc proc /proc
	exec env container=warden-capture /lib/systemd/systemd --unit=capture.target --log-target=null' sh "$W/units" >/dev/null 2>&1 &
for _ in $(seq 1 100); do
	for p in $(ip netns pids "$ns"); do [ "$(cat /proc/"$p"/comm 2>/dev/null)" = systemd ] && pid1=$p; done
	[ -n "$pid1" ] && break
	sleep 0.1
done
[ -n "$pid1" ] || { echo "systemd did not start" >&2; exit 1; }
sd() { nsenter -t "$pid1" -m -p -n -u -i "$@"; }
for _ in $(seq 1 100); do
	s=$(sd systemctl is-system-running 2>/dev/null || true)
	[ "$s" = running ] || [ "$s" = degraded ] && break
	sleep 0.1
done
sd systemctl enable capture-web.service >/dev/null 2>&1
sd systemctl start capture-web.service
sd systemctl start capture-fail.service >/dev/null 2>&1 || true
sd systemctl start capture-flap.service
for _ in $(seq 1 100); do
	n=$(sd systemctl show -P NRestarts capture-flap.service)
	[ "$n" -ge 3 ] && break
	sleep 0.1
done
props=Id,LoadState,ActiveState,SubState,UnitFileState,Description,MainPID,ActiveEnterTimestamp,NRestarts,Result
ver=$(sd systemctl --version | head -1)
for c in "capture-web.service:running, enabled" "capture-fail.service:a oneshot that exited 3" \
	"capture-flap.service:Restart=always, restarted at least three times" "nosuch.service:no such unit"; do
	u=${c%%:*}
	set +e
	sd env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
		systemctl show --no-pager --property="$props" -- "$u" >"$W/show.stdout" 2>"$W/show.stderr"
	rc=$?
	set -e
	n=${u%.service}
	n=${n#capture-}
	{
		printf '#fixture: systemctl show --no-pager --property=%s -- %s; captured here on %s (%s; %s) by testdata/capture/systemd.sh, systemd as PID 1 of fresh namespaces: %s; exit %s, stdout (stderr %s bytes)\n' \
			"$props" "$u" "$(date -u +%F)" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$ver" "${c#*:}" "$rc" "$(stat -c %s "$W/show.stderr")"
		cat "$W/show.stdout"
	} >"$out/systemctl-show-$n.captured.txt"
done
