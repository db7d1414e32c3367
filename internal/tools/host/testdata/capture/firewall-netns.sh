#!/bin/sh
# Captures the real output of the Linux firewall programs firewall_block
# and firewall_diagnose parse, inside a throw-away network namespace (as
# root). Usage: firewall-netns.sh OUTDIR
set -eu
out=${1:?usage: $0 OUTDIR}
ns=warden-capture-$$
ip netns add "$ns"
trap 'ip netns del "$ns"' EXIT
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

tmp=$(mktemp -d)
printf 'table inet t {\n\tchain c {\n\t\ttype filter hook input priority 0; policy drop;\n\t\ttcp dport 22 acept\n\t}\n}\n' >"$tmp/bad.nft"
{ hdr "nft -c -f FILE (a rule file with a misspelt verdict; exit $(x nft -c -f "$tmp/bad.nft" >/dev/null 2>&1 || echo $?), stderr)"; x nft -c -f "$tmp/bad.nft" 2>&1 || true; } >"$out/nft-check-error.captured.txt"
printf '*filter\n:INPUT DROP [0:0]\n-A INPUT -p tcp --dprt 22 -j ACCEPT\nCOMMIT\n' >"$tmp/bad.v4"
{ hdr "iptables-restore --test FILE (an option misspelt; exit $(x iptables-restore --test "$tmp/bad.v4" >/dev/null 2>&1 || echo $?), stderr)"; x iptables-restore --test "$tmp/bad.v4" 2>&1 || true; } >"$out/iptables-restore-test-error.captured.txt"
rm -r "$tmp"
