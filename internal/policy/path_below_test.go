package policy

import "testing"

// TestDeniedBelow holds the deny rules seen from a directory to what
// Check says of the absolute path each relative name stands for.
func TestDeniedBelow(t *testing.T) {
	pp, err := NewPathPolicy(PathRules{Home: "/home/op", Protect: []string{"/var/lib/warden", "/etc/warden/warden.yaml"},
		ProtectPatterns: []string{"/var/log/warden/audit.jsonl.*"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		base, rel string
		denied    bool
	}{
		{"/", "var/lib/warden", true},
		{"/", "var/lib/warden/token", true},
		{"/", "var/lib/warden-other/token", false},
		{"/", "var/lib", false},
		{"/", ".", false},
		{"/", "proc/42/environ", true},
		{"/", "proc/42/task/42/environ", true},
		{"/", "proc/42/status", false},
		{"/", "etc/shadow", true},
		{"/", "etc/shadows", false},
		{"/", "etc/warden/warden.yaml", true},
		{"/", "etc/warden/other.yaml", false},
		{"/", "var/log/warden/audit.jsonl.1", true},
		{"/", "dev/sda", true},
		{"/var", "lib/warden/audit.jsonl", true},
		{"/var/lib", "warden", true},
		{"/var/lib", "wardens", false},
		{"/var/lib/warden", ".", true},
		{"/var/lib/warden/approvals", "x", true},
		{"/home", "op/.ssh/id_ed25519", true},
		{"/home", "someone/.ssh/id_rsa", true},
		{"/home", "op/.ssh/known_hosts.txt", false},
		{"/home/op", ".gnupg/x", true},
		{"/srv", "etc/shadow", false},
	} {
		got := pp.Below(c.base).Rule(c.rel) != ""
		if got != c.denied {
			t.Errorf("Below(%q).Rule(%q) denied = %v, want %v", c.base, c.rel, got, c.denied)
		}
	}
	// A snapshot directory in the live data holds the tree again.
	d := pp.Below("/")
	u := d.Join(d.Under([]string{".snapshots", "*", "snapshot"}))
	for rel, want := range map[string]bool{
		".snapshots/1/snapshot/var/lib/warden/token": true,
		".snapshots/1/snapshot/etc/shadow":           true,
		".snapshots/1/snapshot/etc/hostname":         false,
		".snapshots/1/info.xml":                      false,
		"var/lib/warden":                             true,
	} {
		if got := u.Rule(rel) != ""; got != want {
			t.Errorf("under .snapshots: Rule(%q) denied = %v, want %v", rel, got, want)
		}
	}
	if r := pp.Below("/var/lib/warden").Under([]string{".zfs", "snapshot", "*"}).Rule(".zfs/snapshot/a/x"); r == "" {
		t.Errorf("a denied base's snapshot copies are not denied")
	}
}
