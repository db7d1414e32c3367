#!/bin/sh
# Captures the real output of the Linux firewall programs firewall_block,
# firewall_diagnose and internet_exposure parse, inside throw-away network
# namespaces (as root). Usage: firewall-netns.sh OUTDIR
set -eu
out=${1:?usage: $0 OUTDIR}
ns=warden-capture-$$
ns2=warden-capture-x-$$
tmp=$(mktemp -d)
ip netns add "$ns"
ip netns add "$ns2"
# Every process left in the second namespace (the listeners below) was
# started by this script.
trap 'for p in $(ip netns pids "$ns2"); do kill "$p"; done; ip netns del "$ns"; ip netns del "$ns2"; rm -rf -- "$tmp"' EXIT
x() { ip netns exec "$ns" "$@"; }
ver="$(. /etc/os-release; echo "$PRETTY_NAME"); $(nft --version); $(ipset version | head -1); $(iptables -V); $(ip -V)"
when=$(date -u +%Y-%m-%d)
hdr() { printf '#fixture: %s; captured here on %s (%s) in a fresh network namespace by testdata/capture/firewall-netns.sh\n' "$1" "$when" "$ver"; }

x ip link set lo up
x ip link add veth0 type veth peer name veth1
x ip addr add 192.0.2.10/24 dev veth0
x ip addr add 2001:db8:0:1::10/64 dev veth0
x ip link set veth0 up; x ip link set veth1 up
{ hdr "ip -o addr show"; x ip -o addr show; } >"$out/ip-o-addr.captured.txt"
{ hdr "ifconfig -a (BusyBox $(busybox | head -1 | cut -d' ' -f2))"; x busybox ifconfig -a; } >"$out/busybox-ifconfig.captured.txt"

{ hdr "iptables -V"; x iptables -V; } >"$out/iptables-version-nft.captured.txt"
{ hdr "iptables -V, as iptables-legacy (xtables-legacy-multi) answers under that name"; x iptables-legacy -V; } >"$out/iptables-version-legacy.captured.txt"

x ipset -exist create agent_blocklist_v4 hash:net family inet
x ipset add agent_blocklist_v4 203.0.113.7
x ipset add agent_blocklist_v4 198.51.100.0/24
x ipset -exist create agent_blocklist_v6 hash:net family inet6
x ipset add agent_blocklist_v6 2001:db8:bad::/48
{ hdr "ipset list agent_blocklist_v4"; x ipset list agent_blocklist_v4; } >"$out/ipset-list.captured.txt"
{ hdr "ipset list -t"; x ipset list -t; } >"$out/ipset-list-terse.captured.txt"

x iptables -w -N agent_blocklist
x iptables -w -A agent_blocklist -s 203.0.113.7 -j DROP
x iptables -w -A agent_blocklist -s 198.51.100.0/24 -j DROP
x iptables -w -I INPUT 1 -j agent_blocklist
{ hdr "iptables -w -S agent_blocklist"; x iptables -w -S agent_blocklist; } >"$out/iptables-chain.captured.txt"

x nft add table inet agent_blocklist
x nft add set inet agent_blocklist block_v4 '{ type ipv4_addr ; flags interval ; }'
x nft add element inet agent_blocklist block_v4 '{ 203.0.113.7, 198.51.100.0/24, 192.0.2.128/25 }'
x nft add set inet agent_blocklist block_v6 '{ type ipv6_addr ; flags interval ; }'
x nft add chain inet agent_blocklist input '{ type filter hook input priority -10 ; policy accept ; }'
x nft add rule inet agent_blocklist input ip saddr @block_v4 drop
{ hdr "nft -a list ruleset (nftables, iptables-nft and ipset state of the namespace)"; x nft -a list ruleset; } >"$out/nft-ruleset-sets.captured.txt"

printf 'table inet t {\n\tchain c {\n\t\ttype filter hook input priority 0; policy drop;\n\t\ttcp dport 22 acept\n\t}\n}\n' >"$tmp/bad.nft"
{ hdr "nft -c -f FILE (a rule file with a misspelt verdict; exit $(x nft -c -f "$tmp/bad.nft" >/dev/null 2>&1 || echo $?), stderr)"; x nft -c -f "$tmp/bad.nft" 2>&1 || true; } >"$out/nft-check-error.captured.txt"
printf '*filter\n:INPUT DROP [0:0]\n-A INPUT -p tcp --dprt 22 -j ACCEPT\nCOMMIT\n' >"$tmp/bad.v4"
{ hdr "iptables-restore --test FILE (an option misspelt; exit $(x iptables-restore --test "$tmp/bad.v4" >/dev/null 2>&1 || echo $?), stderr)"; x iptables-restore --test "$tmp/bad.v4" 2>&1 || true; } >"$out/iptables-restore-test-error.captured.txt"

# internet_exposure's inputs, in a second namespace so that each listing
# holds only its own backend: `nft -a list ruleset` of an inet filter table
# (a set, an interval, a jump, a reject, a netdev ingress chain), then, after
# `nft flush ruleset`, `iptables -S` of an iptables-nft rule set with a user
# chain, and `ss -H -tulpn` of listeners that real programs open there.
y() { ip netns exec "$ns2" "$@"; }
y ip link set lo up
y ip link add veth0 type veth peer name veth1
y ip addr add 192.0.2.10/24 dev veth0
y ip addr add 2001:db8:0:1::10/64 dev veth0 nodad
y ip addr add fe80::10/64 dev veth0 nodad
y ip link set veth0 up; y ip link set veth1 up
y nft -f - <<'EOF'
table inet filter {
	set allowed_admin {
		type ipv4_addr
		flags interval
		elements = { 192.168.1.0/24, 10.0.0.5 }
	}
	chain input {
		type filter hook input priority filter; policy drop;
		ct state established,related accept
		iif "lo" accept
		tcp dport 22 ip saddr @allowed_admin accept
		tcp dport { 80, 443 } accept
		udp dport 51820 counter accept
		tcp dport 8000-8100 drop
		iifname "veth0" tcp dport 9100 jump metrics
		ip6 saddr 2001:db8::/32 tcp dport 2222 accept
		meta l4proto icmp accept
	}
	chain metrics {
		ip saddr 10.0.0.0/8 accept
		reject with icmpx admin-prohibited
	}
	chain forward {
		type filter hook forward priority filter; policy drop;
	}
}
table netdev edge {
	chain ingress {
		type filter hook ingress device "veth0" priority -500; policy accept;
		ip saddr 203.0.113.0/24 drop
	}
}
EOF
{ hdr "nft -a list ruleset (an inet filter table and a netdev ingress chain)"; y nft -a list ruleset; } >"$out/nft-ruleset.captured.txt"
y nft flush ruleset
y iptables -w -P INPUT DROP
y iptables -w -P FORWARD DROP
y iptables -w -N f2b-sshd
y iptables -w -A INPUT -i lo -j ACCEPT
y iptables -w -A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
y iptables -w -A INPUT -p tcp -m multiport --dports 80,443 -j ACCEPT
y iptables -w -A INPUT -p tcp --dport 22 -j f2b-sshd
y iptables -w -A INPUT -s 10.0.0.0/8 -p tcp --dport 9100 -j ACCEPT
y iptables -w -A INPUT -p udp --dport 5353 -j DROP
y iptables -w -A f2b-sshd -s 198.51.100.7 -j REJECT
y iptables -w -A f2b-sshd -j RETURN
{ hdr "iptables -S (iptables-nft: filter table, policies, a user chain)"; y iptables -S; } >"$out/iptables-s.captured.txt"

# Listeners: dropbear on both families' wildcard, BusyBox httpd on
# loopback, and python3 sockets for the shapes ss prints differently:
# dual-stack wildcard, one address, ::1, a link-local address with its
# interface, SO_BINDTODEVICE (lo, veth0) and UDP. The python3 process forks
# after binding, so each of its sockets has two owners.
dropbearkey -t ed25519 -f "$tmp/hostkey" >/dev/null 2>&1
y dropbear -r "$tmp/hostkey" -p 22 -P "$tmp/dropbear.pid"
y busybox httpd -p 127.0.0.1:8080 -h "$tmp"
cat >"$tmp/listen.py" <<'EOF'
import os, socket, time
def sock(fam, kind, addr, v6only=None, dev=None):
    s = socket.socket(fam, kind)
    if v6only is not None:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
    if dev:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
    s.bind(addr)
    if kind == socket.SOCK_STREAM:
        s.listen(16)
    return s
T, U, A4, A6 = socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.AF_INET, socket.AF_INET6
keep = [
    sock(A6, T, ("::", 443), v6only=0),
    sock(A4, T, ("192.0.2.10", 8050)),
    sock(A6, T, ("::1", 5432)),
    sock(A6, T, ("fe80::10", 9000, 0, socket.if_nametoindex("veth0"))),
    sock(A4, U, ("0.0.0.0", 51820)),
    sock(A4, U, ("127.0.0.53", 53), dev="lo"),
    sock(A4, U, ("0.0.0.0", 67), dev="veth0"),
    sock(A6, U, ("2001:db8:0:1::10", 123)),
]
os.fork()
print("ready", flush=True)
time.sleep(120)
EOF
y /usr/bin/python3 "$tmp/listen.py" >"$tmp/ready" &
for _ in $(seq 1 100); do [ "$(grep -c ready "$tmp/ready" 2>/dev/null)" = 2 ] && break; sleep 0.1; done
{ hdr "ss -H -tulpn (dropbear $(dropbear -V 2>&1 | sed -n 's/^Dropbear v//p'), BusyBox httpd, python3 $(/usr/bin/python3 -c 'import platform; print(platform.python_version())') sockets)"; y ss -H -tulpn; } >"$out/ss-listen.captured.txt"
