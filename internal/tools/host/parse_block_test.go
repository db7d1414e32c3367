package host

import (
	"strings"
	"testing"
)

// TestParseBlockEdges covers forms the captures lack. The inputs are
// constructed in each program's format, not captured.
func TestParseBlockEdges(t *testing.T) {
	// pfctl prints a negated entry with "!" in the second column.
	if got := parsePfTableShow("No ALTQ support in kernel\n   10.0.0.0/8\n  !10.1.0.0/16\n   2001:db8::1\n"); strings.Join(got, ",") != "10.0.0.0/8,!10.1.0.0/16,2001:db8::1" {
		t.Errorf("parsePfTableShow = %q", got)
	}
	for _, tc := range []struct {
		in, verb string
		n, of    int
		ok       bool
	}{
		{"0/1 addresses added.\n", "added", 0, 1, true},
		{"1 table created.\n2/3 addresses added.\n", "added", 2, 3, true},
		{"12 addresses deleted.\n", "deleted", 12, 12, true},
		{"pfctl: Table does not exist.\n", "deleted", 0, 0, false},
		{"1/1 addresses deleted.\n", "added", 0, 0, false},
		{"No ALTQ support in kernel\n1/1 addresses added.", "added", 1, 1, true},
	} {
		if n, of, ok := parsePfTableChange(tc.in, tc.verb); n != tc.n || of != tc.of || ok != tc.ok {
			t.Errorf("parsePfTableChange(%q, %s) = %d, %d, %v; want %d, %d, %v", tc.in, tc.verb, n, of, ok, tc.n, tc.of, tc.ok)
		}
	}
	if got := parsePfTables("bruteforce\nsshguard\n-bad\nwith space\n"); strings.Join(got, ",") != "bruteforce,sshguard" {
		t.Errorf("parsePfTables = %q", got)
	}
	if !pfRulesUse("block drop in quick from <agent_blocklist> to any\n", "agent_blocklist") || pfRulesUse("block drop in quick from <agent_blocklist2> to any\n", "agent_blocklist") {
		t.Error("pfRulesUse misreads table references")
	}
	if got := parseIpsetMembers("Name: s\nMembers:\n203.0.113.7 timeout 29\n198.51.100.0/24 packets 0 bytes 0\nnot-an-address\n"); len(got) != 2 || got[0].String() != "203.0.113.7/32" {
		t.Errorf("parseIpsetMembers with options = %v", got)
	}
	if got := parseIptChainSources("-N agent_blocklist\n-A agent_blocklist -s 203.0.113.7/32 -j DROP\n-A agent_blocklist -s 198.51.100.0/24 -p tcp -j DROP\n-A other -s 192.0.2.1/32 -j DROP\n", "agent_blocklist"); len(got) != 1 {
		t.Errorf("parseIptChainSources kept %v; want only warden's plain drop rule", got)
	}
}

// FuzzFirewallParsers: no input makes a parser panic, and what they keep
// is well formed.
func FuzzFirewallParsers(f *testing.F) {
	for _, s := range []string{"   192.168.56.2\n", "1/1 addresses added.\n", "Members:\n203.0.113.7\n", "Name: x\nNumber of entries: 3\n",
		"table inet t {\n set s {\n elements = { 1.2.3.4,\n 5.6.7.8 }\n }\n}\n", "root sshd 1 4 tcp4 *:22 *:*\n", "inet addr:10.0.0.1\n", "-A c -s 1.2.3.4/32 -j DROP\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range parsePfTableShow(s) {
			if _, ok := parsePrefix(strings.TrimPrefix(e, "!")); !ok {
				t.Fatalf("parsePfTableShow kept %q", e)
			}
		}
		for _, n := range parsePfTables(s) {
			if checkPfTable(n) != nil {
				t.Fatalf("parsePfTables kept %q", n)
			}
		}
		parsePfTableChange(s, "added")
		parseIpsetMembers(s)
		parseIpsetTerse(s)
		parseIptChainSources(s, "agent_blocklist")
		for _, r := range parseSockstat(s) {
			if r.Port < 0 {
				t.Fatalf("negative port in %+v", r)
			}
		}
		sockstatListeners(parseSockstat(s))
		parseIfAddrs(s)
		for _, n := range parseNftSets(s) {
			if n.Elements < 0 {
				t.Fatalf("negative count %+v", n)
			}
		}
	})
}

// FuzzPfTableName: an accepted table name can never read as a pfctl flag
// or carry blanks, quotes or shell syntax.
func FuzzPfTableName(f *testing.F) {
	for _, s := range []string{"bruteforce", "sshguard", "-F", "a b", "x;y", "t.1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if checkPfTable(s) != nil {
			return
		}
		if s == "" || len(s) > 31 || s[0] == '-' || strings.ContainsAny(s, " \t\n\"'`$;&|<>(){}[]*?!\\/") {
			t.Fatalf("checkPfTable accepted %q", s)
		}
	})
}
