package policy

import "testing"

// TestBlindSpotWebClientHosts: a web client reaches a host the rules deny
// through a URL without its scheme, a curl glob in the host, or a host
// computed at run time without a scheme; each is denied or tier 3, on the
// local host and an SSH host, while ordinary requests keep their tier.
func TestBlindSpotWebClientHosts(t *testing.T) {
	p := protectedPolicy(t)
	var cases []blindCase
	for _, c := range []string{
		`curl 169.254.169.254/latest/meta-data/`,
		`curl -s 169.254.169.254`,
		`curl -sS 169.254.169.254:80/latest`,
		`curl user@169.254.169.254/`,
		`curl 2852039166/latest`,
		`curl '[::ffff:169.254.169.254]/latest'`,
		`wget -qO- 169.254.169.254/latest`,
		`wget 169.254.169.254`,
		`http 169.254.169.254/latest`,
		`https 169.254.169.254/latest`,
		`xh 169.254.169.254/latest`,
		`xh :@169.254.169.254`,
		`lynx -dump 169.254.169.254`,
		`w3m -dump 169.254.169.254/latest`,
		`links -dump 169.254.169.254`,
		`elinks -dump 169.254.169.254`,
		`curlie 169.254.169.254`,
		`wget2 169.254.169.254/latest`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, true})
	}
	for _, c := range []string{
		`curl 'http://169.254.169.{254}/'`,
		`curl 'http://{169.254.169.254,example.com}/'`,
		`curl '{169.254.169.254,x}/latest'`,
		`curl 'http://169.254.169.[254-254]/'`,
		`curl 'http://[169-169].254.169.254/latest'`,
		`curl 'http://169.254.169.2[5-5]4/'`,
		`curl "http://169.254.{169,170}.254/"`,
		`curl --url 'http://169.254.169.{254}/'`,
		`curl --url='http://169.254.169.{254}/'`,
		`curl -s 'user@{169.254.169.254}/'`,
		`curl -sg 'http://{169.254.169.254}/'`,
		`h=$(cat /tmp/h); curl $h/latest`,
		`curl "$(cat /tmp/h)"`,
		`curl -s "$1"`,
		`curl -sSL "$h/latest"`,
		"curl `cat /tmp/h`",
		`wget -q "$1"`,
		`wget $h`,
		`http "$h/latest"`,
		`curl -x "$p" http://example.com/`,
		`curl --url "$u"`,
		`curl --resolve "$r" http://example.com/`,
	} {
		cases = append(cases, blindCase{c, c, TierDestructive, false})
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"json body", `curl -s -d '{"a":1}' http://example.com/`, TierMutate},
		{"json option", `curl --json '{"a":[1,2]}' https://example.com/`, TierMutate},
		{"header computed", `curl -H "Authorization: Bearer $T" https://api.example.com/`, TierBenign},
		{"long header computed", `curl --header "$h" https://example.com/`, TierBenign},
		{"no scheme", `curl -s example.com`, TierBenign},
		{"globoff ipv6", `curl -g 'http://[::1]/'`, TierBenign},
		{"ipv6 port", `curl 'http://[::1]:8080/'`, TierBenign},
		{"braces in the query", `curl 'https://example.com/api?q={x}'`, TierBenign},
		{"range in the path", `curl -s 'http://example.com/file[1-5].txt'`, TierBenign},
		{"user computed", `curl -u "$u:$p" https://example.com/`, TierBenign},
		{"wget header", `wget -q --header "$h" -O - https://example.com/`, TierBenign},
	})
}

// TestWebClientHostsNeedRules: without host rules nothing is denied by
// host, so a computed or globbed URL keeps the tier curl gets anyway.
func TestWebClientHostsNeedRules(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	runExactHosts(t, p, []exactCase{
		{"computed", `curl -s "$1"`, TierMutate},
		{"glob", `curl -s 'http://10.0.0.{1,2}/'`, TierBenign},
		{"no scheme", `curl -s 169.254.169.254/x`, TierBenign},
	})
}
