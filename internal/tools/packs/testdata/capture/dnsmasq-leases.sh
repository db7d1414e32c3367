#!/bin/sh
# Captures a real dnsmasq lease file (the format OpenWrt keeps in
# /tmp/dhcp.leases and Asuswrt in /var/lib/misc/dnsmasq.leases), as root:
# dnsmasq serves DHCP on a bridge in a throw-away network namespace, and
# BusyBox udhcpc clients in three more namespaces, joined to the bridge by
# veth pairs, ask it for leases — one sending a hostname, one sending none
# and no client id, and one that dnsmasq gives a fixed address for ever
# (dhcp-host … infinite). Needs dnsmasq (Debian's dnsmasq-base),
# busybox-static and iproute2. Usage: dnsmasq-leases.sh OUTDIR
# Writes OUTDIR/dnsmasq-here.leases byte for byte as dnsmasq wrote it and
# OUTDIR/proc-net-arp-dhcp-here.txt (the server's ARP table after a ping to
# each client), and
# prints the versions and date for testdata/README.md (dnsmasq's own log,
# with --log-dhcp, stays in the temporary directory and goes with it).
set -eu
out=${1:?usage: $0 OUTDIR}
srv=warden-dhcp-srv-$$
tmp=$(mktemp -d)
clients="a b c"
ip netns add "$srv"
for c in $clients; do ip netns add "$srv-$c"; done
# Every process left in these namespaces (dnsmasq, udhcpc) was started here.
cleanup() {
	for n in "$srv" $(for c in $clients; do echo "$srv-$c"; done); do
		for p in $(ip netns pids "$n"); do kill "$p"; done
		ip netns del "$n"
	done
	rm -rf -- "$tmp"
}
trap cleanup EXIT
s() { ip netns exec "$srv" "$@"; }

s ip link set lo up
s ip link add br0 type bridge
s ip addr add 192.168.1.1/24 dev br0
s ip link set br0 up
i=0
for c in $clients; do
	i=$((i + 1))
	s ip link add "p$c" type veth peer name eth0 netns "$srv-$c"
	s ip link set "p$c" master br0
	s ip link set "p$c" up
	# Fixed MACs so the run repeats: the first is the station in the
	# iwinfo assoclist capture (zarhus-iwinfo-assoclist.txt), so that
	# router_clients can merge the two; the others are locally
	# administered.
	mac=02:00:5e:10:00:0$i
	[ "$c" = a ] && mac=ae:d0:e6:3c:90:ec
	ip netns exec "$srv-$c" ip link set eth0 address "$mac"
	ip netns exec "$srv-$c" ip link set lo up
	ip netns exec "$srv-$c" ip link set eth0 up
done

# A conf file like the ones OpenWrt's and Asuswrt's init scripts write: a
# DHCP range with a lease time, a lease file, no DNS (port=0).
cat >"$tmp/dnsmasq.conf" <<CONF
port=0
interface=br0
bind-interfaces
dhcp-range=192.168.1.100,192.168.1.249,255.255.255.0,12h
dhcp-host=02:00:5e:10:00:03,192.168.1.10,nas,infinite
dhcp-leasefile=$tmp/dnsmasq.leases
dhcp-authoritative
CONF
s dnsmasq --conf-file="$tmp/dnsmasq.conf" --pid-file="$tmp/dnsmasq.pid" --log-facility="$tmp/dnsmasq.log" --log-dhcp

# udhcpc's -s script puts the leased address on the client's interface,
# so that the server can reach the client afterwards.
printf '#!/bin/sh\n[ "$1" = bound ] && ip addr add "$ip/${mask:-24}" dev "$interface"\nexit 0\n' >"$tmp/udhcpc.script"
chmod +x "$tmp/udhcpc.script"
dh() { c=$1; shift; ip netns exec "$srv-$c" busybox udhcpc -i eth0 -f -q -n -t 5 -T 2 -s "$tmp/udhcpc.script" "$@"; }
dh a -x hostname:pixel-7
dh b -C
dh c

# dnsmasq writes the lease file when a lease changes; give it a moment
# after the last ACK, then stop it so the file is final.
sleep 1
kill "$(cat "$tmp/dnsmasq.pid")"
sleep 1
cp "$tmp/dnsmasq.leases" "$out/dnsmasq-here.leases"
# The router's ARP table once it has talked to each client: one ping to
# every leased address (BusyBox ping, as on the router), then /proc/net/arp in the server's namespace.
for a in $(cut -d' ' -f3 "$out/dnsmasq-here.leases"); do s busybox ping -c 1 -W 2 "$a" >/dev/null; done
s cat /proc/net/arp >"$out/proc-net-arp-dhcp-here.txt"
echo "captured $(date -u +%Y-%m-%dT%H:%MZ): $(dnsmasq --version | head -1); $(busybox | head -1); $(uname -r)"
