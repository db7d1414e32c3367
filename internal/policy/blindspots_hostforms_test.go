package policy

import "testing"

// TestBlindSpotMoreDestinationForms: the other ways a destination
// reaches a denied host — ssh's options after its destination (OpenSSH
// reads them there: ssh host -J H, and a ProxyCommand runs here), the
// Debian variants of a client (nc.openbsd), the clients and scanners
// whose operands are hosts (tftp, grpcurl, kcat, ztcp…), gawk's
// /inet network files, ssh's %h tokens before a name that spells an
// address, and a web scheme with no slashes (http:HOST) — are denied on
// the local host and an SSH host, while their everyday forms keep their
// tier.
func TestBlindSpotMoreDestinationForms(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`ssh host -J 169.254.169.254`,
		`ssh host -L 8080:169.254.169.254:80`,
		`ssh host -v -W 169.254.169.254:80`,
		`ssh host -oHostName=169.254.169.254`,
		`ssh host -oProxyCommand='sh -c reboot'`,
		`ssh -v host -o 'ProxyJump a9fea9fe.nip.io' uptime`,
		`autossh -M 0 host -L 8080:169.254.169.254:80`,
		`nc.openbsd 169.254.169.254 80`,
		`nc.traditional -v 169.254.169.254 80`,
		`netcat.openbsd -x 169.254.169.254:1080 example.com 80`,
		`tftp 169.254.169.254`,
		`atftp --get -r x 169.254.169.254`,
		`httping -c1 169.254.169.254`,
		`grpcurl -plaintext 169.254.169.254:80 list`,
		`kcat -b 169.254.169.254:9092 -L`,
		`kafkacat -b169.254.169.254:9092 -L`,
		`rpcinfo -p 169.254.169.254`,
		`gnutls-cli 169.254.169.254`,
		`zsh -c 'zmodload zsh/net/tcp; ztcp 169.254.169.254 80'`,
		`gawk 'BEGIN{s="/inet/tcp/0/169.254.169.254/80"; print "GET /" |& s}'`,
		`awk 'BEGIN { s = "/inet4/tcp/0/169.254.169.254/80"; s |& getline }'`,
		`gawk 'BEGIN{print "x" |& "/inet6/udp/0/::ffff:a9fe:a9fe/53"}'`,
		`ssh -o 'Hostname %h.169.254.169.254.nip.io' x`,
		`ssh -o 'HostName %n.a9fea9fe.nip.io' x`,
		`w3m -dump http:169.254.169.254`,
		`lynx -dump HTTPS:169.254.169.254/x`,
		`pip install --index-url http:169.254.169.254/simple x`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"ssh verbose command", `ssh host -v uptime`, TierBenign},
		{"ssh command options", `ssh host ls -W`, TierBenign},
		{"ssh dashdash", `ssh host -- ls -l`, TierBenign},
		{"ssh forward after", `ssh host -L 8080:localhost:80`, TierMutate},
		{"nc variant", `nc.openbsd -zv 10.0.0.5 22`, TierBenign},
		{"grpcurl", `grpcurl -plaintext localhost:50051 list`, TierMutate},
		{"awk match", `awk '$1 == "169.254.169.254"' /var/log/x`, TierRead},
		{"ssh %h", `ssh -o 'HostName %h.example.com' x`, TierBenign},
		{"lynx", `lynx -dump https://example.com/`, TierMutate},
	})
}

// TestBlindSpotBracketedAndComputedForms: git's scp-like remote with a
// bracketed address ([::ffff:a9fe:a9fe]:x, u@[…]:x), SIIT's
// IPv4-translated ::ffff:0:a.b.c.d, ssh-keyscan's operands, and a
// quoted /dev/tcp or device path computed at run time (exec
// 3<>"/dev/tcp/$h/80", which kept its quotes and so looked like any
// file) are denied or tier 3 on the local host and an SSH host.
func TestBlindSpotBracketedAndComputedForms(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`git clone 'u@[::ffff:a9fe:a9fe]:x'`,
		`git clone '[::ffff:169.254.169.254]:x'`,
		`git fetch '[::169.254.169.254]:x/y'`,
		`git remote add o 'git@[2002:a9fe:a9fe::1]:x.git'`,
		`curl 'http://[::ffff:0:a9fe:a9fe]/'`,
		`ssh ::ffff:0:169.254.169.254`,
		`ssh-keyscan 169.254.169.254`,
		`ssh-keyscan -p 22 a9fea9fe.nip.io`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`exec 3<>"/dev/tcp/$h/80"`,
		`echo x > "/dev/udp/$h/53"`,
		`printf 'GET /' >"/dev/tcp/${h}/80"`,
		`echo x > "/dev/$d"`,
		`cat < "/dev/tcp/$h/80"`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"git scp-like", `git clone git@github.com:x/y.git`, TierMutate},
		{"git bracketed other", `git clone '[2001:db8::1]:x'`, TierMutate},
		{"keyscan", `ssh-keyscan github.com`, TierBenign},
		{"quoted file", `echo x > "/tmp/$f"`, TierMutate},
	})
}

// TestBlindSpotHostFiles: clients and scanners that read the hosts or
// URLs they reach from a file (nmap -iL, masscan -iL, fping -f or its
// standard input, ssh-keyscan -f, pssh -h, pdsh -w ^FILE, aria2c -i)
// are at least tier 2 with host rules set, and denied when the file's
// text is known (a file the script wrote, standard input) and names a
// denied host, on the local host and an SSH host.
func TestBlindSpotHostFiles(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`echo 169.254.169.254 > /tmp/h; nmap -iL /tmp/h`,
		`echo 169.254.169.254 | nmap -sn -iL -`,
		`printf 'a9fea9fe.nip.io\n' | masscan -iL - -p80`,
		`echo 169.254.169.254 | fping`,
		`fping -f /dev/stdin <<< 169.254.169.254`,
		`echo 169.254.169.254 | ssh-keyscan -f -`,
		`printf 'root@169.254.169.254\n' > /tmp/h; pssh -h /tmp/h uptime`,
		`printf 'host\n169.254.169.254\n' > /tmp/h; pdsh -w ^/tmp/h uptime`,
		`printf 'http://169.254.169.254/\n' > /tmp/u; aria2c -i /tmp/u`,
		`aria2c --input-file=- <<< 'http://[::ffff:a9fe:a9fe]/'`,
		`stunnel -fd 0 <<< 'connect = 169.254.169.254:80'`,
		`printf '[x]\naccept = 8080\nconnect = a9fea9fe.nip.io:443\n' > /tmp/s.conf; stunnel /tmp/s.conf`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`nmap -iL /tmp/hosts`,
		`fping -f /tmp/hosts`,
		`ssh-keyscan -f /tmp/hosts`,
		`pssh -h /tmp/hosts uptime`,
		`pdsh -w ^/tmp/hosts uptime`,
		`aria2c -i /tmp/urls`,
	} {
		cases = append(cases, blindCase{c, c, TierMutate, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"keyscan", `ssh-keyscan -t ed25519 github.com`, TierBenign},
		{"keyscan file known", `echo github.com | ssh-keyscan -f -`, TierMutate},
	})
	free, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	runExactHosts(t, free, []exactCase{
		{"keyscan file without rules", `ssh-keyscan -f /tmp/hosts`, TierBenign},
	})
}

// TestBlindSpotServiceClientHosts: database, cache and mail clients whose
// operands or options name their server (cqlsh HOST, sqlcmd -S,
// memcached-tool HOST:PORT, swaks --server, msmtp --host=, sendmail's
// recipient at an address) and the DNS servers resolvectl and nmcli set
// are held to the host rules on the local host and an SSH host; their
// words computed at run time raise nothing for a mail or network
// manager client, whose words are mostly not hosts.
func TestBlindSpotServiceClientHosts(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`cqlsh 169.254.169.254`,
		`sqlcmd -S 169.254.169.254 -Q 'select 1'`,
		`sqlcmd -S tcp:169.254.169.254,1433 -Q x`,
		`memcached-tool 169.254.169.254:11211 stats`,
		`swaks --server 169.254.169.254 --to a@b`,
		`swaks --to 'a@[169.254.169.254]'`,
		`msmtp --host=169.254.169.254 a@b`,
		`sendmail 'root@[169.254.169.254]' < /tmp/m`,
		`resolvectl dns eth0 169.254.169.254`,
		`systemd-resolve --set-dns=169.254.169.254 --interface=eth0`,
		`nmcli con mod x ipv4.dns 169.254.169.254`,
		`nmcli con mod x ipv4.dns '10.0.0.1,169.254.169.254'`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"nmcli computed", `nmcli con up "$c"`, TierMutate},
		{"resolvectl status", `resolvectl status`, TierRead},
		{"resolvectl query", `resolvectl query 169.254.169.254`, TierRead},
		{"swaks other", `swaks --server smtp.example.com --to a@b`, TierMutate},
	})
}

// TestBlindSpotCodeLiterals: an interpreter's code on its command line
// names the host it connects to as a string literal as often as a URL;
// a quoted literal that is a denied host's spelling is denied, on the
// local host and an SSH host, while code that only mentions the address
// inside longer text keeps its tier.
func TestBlindSpotCodeLiterals(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`python3 -c 'import socket; socket.create_connection(("169.254.169.254", 80))'`,
		`python3.12 -c "import socket; s=socket.socket(); s.connect(('a9fea9fe.nip.io', 80))"`,
		`python3 -c 'import http.client as h; h.HTTPConnection("2852039166").request("GET", "/")'`,
		`perl -MIO::Socket -e 'IO::Socket::INET->new("169.254.169.254:80")'`,
		"node -e \"require('net').connect(80, '169.254.169.254')\"",
		`ruby -rsocket -e 'TCPSocket.new("[::ffff:a9fe:a9fe]", 80)'`,
		`php -r '$s = fsockopen("169.254.169.254", 80);'`,
		"python3 <<'EOF'\n# don't worry\nimport socket\nsocket.create_connection(('169.254.169.254', 80))\nEOF",
		"printf 'import socket\\nsocket.create_connection((\"169.254.169.254\", 80))\\n' > /tmp/x.py; python3 /tmp/x.py",
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"mention", `python3 -c 'print("metadata is at 169.254.169.254")'`, TierDestructive},
		{"plain", `python3 -c 'print("hello")'`, TierDestructive},
	})
}
