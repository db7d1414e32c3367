package policy

import "testing"

// TestBlindSpotURLHostReadings: URL parsers disagree on where a URL's
// host is (a backslash, several '@', one or no slashes after the scheme,
// tabs, percent-encoding, a port with more colons), so a destination
// whose host is denied under any client's reading is denied, on the
// local host and an SSH host; ordinary URLs keep their tier.
func TestBlindSpotURLHostReadings(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`curl 'http://169.254.169.254\@example.com/'`,
		`curl 'http://169.254.169.254\\@example.com/'`,
		`wget -O- 'http://169.254.169.254\@example.com/latest'`,
		`curl 'http://x:y@169.254.169.254\@example.com/'`,
		`curl http://user@169.254.169.254@example.com/`,
		`curl 'http://a@b@169.254.169.254@example.com/'`,
		`curl 'http://%31%36%39.254.169.254/'`,
		`curl 'http://%31%36%39%2e%32%35%34%2e%31%36%39%2e%32%35%34/latest'`,
		`curl 'http://169.254.169.254%2f@example.com/'`,
		`curl 'http://169.254.169.254%40example.com/'`,
		`curl 'http:/169.254.169.254/latest'`,
		`curl 'http:169.254.169.254/latest'`,
		`curl http:169.254.169.254`,
		`curl 'http:\\169.254.169.254/latest'`,
		`curl 'http:\/169.254.169.254/'`,
		`curl 'http:///169.254.169.254/'`,
		`curl '//169.254.169.254/latest'`,
		`curl 'HTTP://169.254.169.254/'`,
		`curl 'http://169.254.169.254:80:80/'`,
		`curl 'http://169.254.169.254:80@x/'`,
		"curl 'http://169.254.16\t9.254/'",
		"curl 'http://169.254.\n169.254/'",
		`wget -qO- 'http:/169.254.169.254/'`,
		`lynx -dump 'http:\\169.254.169.254/'`,
		`pip install --index-url 'http:/169.254.169.254/simple' x`,
		`pip install --index-url 'http://x\@169.254.169.254/simple' x`,
		`git clone 'http://169.254.169.254\@github.com/x/y'`,
		`ssh 'u@169.254.169.254\@host'`,
		`curl 'http://example.com#@169.254.169.254/'`,
		`curl 'http://example.com?@169.254.169.254/'`,
		`curl 'http://1.1.1.1 &@169.254.169.254# @example.com/'`,
		`wget -O- 'http://example.com?x=1@169.254.169.254/'`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"plain", `curl https://example.com/a:/b`, TierBenign},
		{"user", `curl http://user@example.com/`, TierBenign},
		{"encoded path", `curl 'https://example.com/a%2fb?q=%40'`, TierBenign},
		{"port", `curl http://127.0.0.1:8080/health`, TierBenign},
		{"ipv6 loopback", `curl 'http://[::1]:8080/'`, TierBenign},
		{"query at", `curl 'https://example.com/?u=a@169.254.169.254'`, TierBenign},
		{"fragment", `curl 'https://example.com/#a@b'`, TierBenign},
		{"query no path", `curl 'https://example.com?u=a@example.org'`, TierBenign},
		{"mail link", `curl 'https://example.com/x?to=ops@example.com&q=1'`, TierBenign},
		{"drive path", `ls C:/foo`, TierRead},
	})
}

// TestBlindSpotEmbeddedAddresses: an IPv6 address that carries packets
// to an IPv4 address (IPv4-compatible, 6to4, Teredo, NAT64 local-use,
// ISATAP) and a name that resolves to an address it spells (the
// wildcard DNS services' dotted, dashed, mixed, hex and IPv6 labels) are
// denied as the address is, on the local host and an SSH host; the
// loopback, ordinary names and labels that only look numeric keep their
// tier.
func TestBlindSpotEmbeddedAddresses(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`ssh ::169.254.169.254`,
		`ssh ::a9fe:a9fe`,
		`curl 'http://[::169.254.169.254]/'`,
		`curl 'http://[0:0:0:0:0:0:a9fe:a9fe]/'`,
		`ssh 2002:a9fe:a9fe::1`,
		`curl 'http://[2002:a9fe:a9fe::]/'`,
		`wget -O- 'http://[2002:a9fe:a9fe:1::1]/'`,
		`ssh 2001:0:4136:e378:8000:63bf:5601:5601`,
		`curl 'http://[2001:0:a9fe:a9fe::1]/'`,
		`curl 'http://[64:ff9b:1::a9fe:a9fe]/'`,
		`ssh fe80::5efe:a9fe:a9fe`,
		`curl 'http://[fe80::200:5efe:169.254.169.254]/'`,
		`curl http://0xa9fea9fe.nip.io/`,
		`curl http://app-a9fea9fe.nip.io/`,
		`curl http://app-0xa9fea9fe.nip.io/`,
		`curl http://2852039166.nip.io/`,
		`curl http://make-169.254.169.254-rr.1u.ms/`,
		`curl http://x-169.254-169.254.sslip.io/`,
		`curl http://169-254.169-254.nip.io/`,
		`curl http://--ffff-a9fe-a9fe.sslip.io/`,
		`curl http://0-0-0-0-0-ffff-a9fe-a9fe.sslip.io/`,
		`curl http://2002-a9fe-a9fe--1.sslip.io/`,
		`curl http://www.--ffff-a9fe-a9fe.sslip.io/`,
		`curl http://api.v1.2002-a9fe-a9fe--1.sslip.io/`,
		`ssh a9fea9fe.rbndr.us`,
		`ssh 169-254-169-254.traefik.me`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"ssh loopback", `ssh ::1 uptime`, TierBenign},
		{"curl loopback", `curl 'http://[::1]/'`, TierBenign},
		{"ipv6 host", `curl 'http://[2001:db8::1]/'`, TierBenign},
		{"6to4 other", `curl 'http://[2002:c000:201::1]/'`, TierBenign},
		{"hex word", `curl http://deadbeef.example.com/`, TierBenign},
		{"date label", `curl http://2024-01-01.example.com/`, TierBenign},
		{"dashed name", `curl http://my-web-app.example.com/`, TierBenign},
		{"other nip", `curl http://10.0.0.1.nip.io/`, TierBenign},
		{"version name", `curl https://v1-2-3-4.example.com/`, TierBenign},
	})
}

// TestBlindSpotLoopbackSpellings: with the loopback denied, the names
// every resolver answers with it (localhost, *.localhost, ip6-localhost,
// localtest.me, lvh.me) and the unspecified address a connection to
// which reaches it (0.0.0.0, [::], 0:8080, and a bare 0 where only a host
// can be: ssh 0, nc 0 80, /dev/tcp/0/80, -h 0) are denied, on the local
// host and an SSH host; a bare 0 elsewhere is a count (curl -m 0, nc -w
// 0), not a host.
func TestBlindSpotLoopbackSpellings(t *testing.T) {
	p, err := New(Rules{DenyHosts: []string{"127.0.0.0/8"}})
	if err != nil {
		t.Fatal(err)
	}
	var cases []blindCase
	for _, c := range []string{
		`curl http://localhost:8080/`,
		`curl http://LOCALHOST./`,
		`curl http://api.localhost/`,
		`wget -qO- http://localhost.localdomain/`,
		`ssh ip6-localhost`,
		`curl http://localtest.me/`,
		`curl http://x.lvh.me:8080/`,
		`curl http://0.0.0.0:8080/`,
		`curl 'http://[::]:8080/'`,
		`curl http://0:8080/`,
		`nc 0.0.0.0 8080`,
		`cat < /dev/tcp/0.0.0.0/8080`,
		`ssh -L 8080:localhost:80 host`,
		// A bare 0 where only a host can be is 0.0.0.0 (inet_aton).
		`ssh 0`,
		`ssh root@0`,
		`ssh -J 0 host`,
		`sftp 0`,
		`scp f 0:/srv/`,
		`nc 0 80`,
		`nc -v 000 22`,
		`ncat 0 6379`,
		`nc -zv 0 20-80`,
		`telnet 0`,
		`telnet -l root 0`,
		`telnet 0 25`,
		`socat - TCP:0:22`,
		`socat - tcp4:0:6379`,
		`ssh -L 8080:0:80 host`,
		`cat < /dev/tcp/0/8080`,
		`exec 3<>/dev/udp/0/53`,
		`redis-cli -h 0 flushall`,
		`psql -h 0 -p 5432`,
		`mysql --host=0`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"retry zero", `curl --retry 0 https://example.com/`, TierBenign},
		{"max time zero", `curl -m 0 https://example.com`, TierBenign},
		{"other host", `curl http://example.com/`, TierBenign},
		{"nc wait zero", `nc -w 0 example.com 80`, TierMutate},
		{"nc port zero", `nc example.com 0`, TierMutate},
		{"socat listen zero", `socat TCP-LISTEN:0 -`, TierMutate},
		{"ping count zero", `ping -c 0 example.com`, TierRead},
		{"redis port zero", `redis-cli -p 0 -h example.com`, TierMutate},
		{"ssh forward any port", `ssh -L 0:example.com:80 host`, TierMutate},
	})
}

// TestBlindSpotUnknownProgramHosts: a program the classifier does not
// know has no table of which words are destinations, so a denied host
// among its words or its options' values is denied, in every spelling the
// rules read; other addresses and words keep an unknown program's tier.
func TestBlindSpotUnknownProgramHosts(t *testing.T) {
	p, err := New(Rules{DenyHosts: []string{"169.254.169.254", "10.0.0.0/8", "db.internal"}})
	if err != nil {
		t.Fatal(err)
	}
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`probe 169.254.169.254`,
		`probe 169.254.169.254:80`,
		`probe '[::ffff:169.254.169.254]:80'`,
		`probe --target=169.254.169.254`,
		`probe --target 10.1.2.3`,
		`/opt/tools/scan -t 10.20.30.40`,
		`./agent db.internal`,
		`probe DB.INTERNAL.`,
		`probe metadata.google.internal`,
		`sudo probe 10.0.0.1`,
	))
	runExactHosts(t, p, []exactCase{
		{"other address", `probe 192.168.1.10`, TierMutate},
		{"file name", `probe README.md`, TierMutate},
		{"count", `probe -n 10`, TierMutate},
		{"version", `probe 10.2`, TierMutate},
		{"number", `probe 2852039166`, TierMutate},
		{"subcommand", `probe metadata`, TierMutate},
		{"hex id", `probe 0xa9fea9fe`, TierMutate},
		{"version option", `probe --min=10.1`, TierMutate},
	})
}
