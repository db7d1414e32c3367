package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	tests := []struct {
		name, in, want string
		bad            bool
	}{
		{name: "plain", in: "/srv/data/a.txt", want: "/srv/data/a.txt"},
		{name: "dot-dot climbs lexically", in: "/srv/data/../../etc/shadow", want: "/etc/shadow"},
		{name: "dot-dot cannot pass root", in: "/../../../etc/passwd", want: "/etc/passwd"},
		{name: "double slashes and dots", in: "//srv/./data//x/", want: "/srv/data/x"},
		{name: "root", in: "/", want: "/"},
		{name: "relative", in: "srv/data", bad: true},
		{name: "dot relative", in: "./x", bad: true},
		{name: "dot-dot relative", in: "../etc/passwd", bad: true},
		{name: "tilde", in: "~/.ssh/id_rsa", bad: true},
		{name: "empty", in: "", bad: true},
		{name: "NUL", in: "/srv/a\x00b", bad: true},
		{name: "CR", in: "/srv/a\rb", bad: true},
		{name: "LF", in: "/srv/a\nb", bad: true},
		{name: "too long", in: "/" + strings.Repeat("a", MaxPathBytes), bad: true},
		{name: "shell metacharacters are just bytes", in: "/srv/a b;$(id)`x`", want: "/srv/a b;$(id)`x`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CleanPath(tt.in)
			if tt.bad {
				if err == nil {
					t.Fatalf("CleanPath(%q) = %q, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("CleanPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestPathCheck(t *testing.T) {
	pp, err := NewPathPolicy(PathRules{
		Allow:   []string{"/srv/data", "/home/op", "/proc", "/etc"},
		Deny:    []string{"/srv/data/private"},
		Home:    "/home/op",
		Protect: []string{"/home/op/.local/state/warden", "/etc/warden[1].yaml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		ok         bool
	}{
		{"root itself", "/srv/data", true},
		{"under root", "/srv/data/a/b.txt", true},
		{"look-alike prefix", "/srv/data_evil/x", false},
		{"look-alike prefix exact", "/srv/data_evil", false},
		{"look-alike shorter", "/srv/dat", false},
		{"parent of root", "/srv", false},
		{"outside", "/var/log/syslog", false},
		{"operator deny", "/srv/data/private", false},
		{"under operator deny", "/srv/data/private/key", false},
		{"deny look-alike is allowed", "/srv/data/private2", true},
		{"shadow", "/etc/shadow", false},
		{"gshadow backup", "/etc/gshadow-", false},
		{"passwd is fine", "/etc/passwd", true},
		{"sudoers.d file", "/etc/sudoers.d/90-cloud", false},
		{"host private key", "/etc/ssh/ssh_host_ed25519_key", false},
		{"host public key", "/etc/ssh/ssh_host_ed25519_key.pub", true},
		{"home private key", "/home/op/.ssh/id_ed25519", false},
		{"home known_hosts", "/home/op/.ssh/known_hosts", true},
		{"gnupg", "/home/op/.gnupg/private-keys-v1.d/x.key", false},
		{"proc environ", "/proc/1/environ", false},
		{"proc self environ", "/proc/self/environ", false},
		{"proc task environ", "/proc/1/task/1/environ", false},
		{"proc mem", "/proc/42/mem", false},
		{"kcore", "/proc/kcore", false},
		{"meminfo", "/proc/meminfo", true},
		{"warden state", "/home/op/.local/state/warden/audit.jsonl", false},
		{"warden state dir", "/home/op/.local/state/warden", false},
		{"warden state look-alike", "/home/op/.local/state/warden2", true},
		{"config with brackets is literal", "/etc/warden[1].yaml", false},
		{"bracket pattern does not widen", "/etc/warden1.yaml", true},
		{"not clean", "/srv/data/../../etc/shadow", false},
		{"relative", "srv/data", false},
		{"trailing slash is not clean", "/srv/data/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := pp.Check(tt.path)
			if got := err == nil; got != tt.ok {
				t.Fatalf("Check(%q) = %v; want allowed=%v", tt.path, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrPathDenied) {
				t.Fatalf("Check(%q) error %v does not wrap ErrPathDenied", tt.path, err)
			}
		})
	}
}

func TestPathDefaults(t *testing.T) {
	def, err := NewPathPolicy(PathRules{})
	if err != nil {
		t.Fatal(err)
	}
	repl, err := NewPathPolicy(PathRules{ReplaceDefaults: true, Deny: []string{"/srv/secret"}, Protect: []string{"/var/lib/warden"},
		ProtectPatterns: []string{"/var/log/w/audit-*Z.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/etc/shadow", "/dev/sda", "/sys/kernel", "/root/.ssh/id_rsa", "/proc/1/environ"} {
		if def.Check(p) == nil {
			t.Errorf("default policy allows %s", p)
		}
		if err := repl.Check(p); err != nil {
			t.Errorf("ReplaceDefaults still denies %s: %v", p, err)
		}
	}
	for _, p := range []string{"/srv/secret/x", "/var/lib/warden/token", "/var/log/w/audit-20260101T000000.000Z.jsonl"} {
		if repl.Check(p) == nil {
			t.Errorf("ReplaceDefaults policy allows %s", p)
		}
	}
	if err := def.Check("/"); err != nil {
		t.Errorf("default allow root refuses /: %v", err)
	}
}

func TestNewPathPolicyRejects(t *testing.T) {
	for _, r := range []PathRules{
		{Allow: []string{"srv"}},
		{Allow: []string{"/srv/*"}},
		{Deny: []string{"relative/x"}},
		{Deny: []string{"/srv/["}},
		{Protect: []string{"state"}},
	} {
		if _, err := NewPathPolicy(r); err == nil {
			t.Errorf("NewPathPolicy(%+v) = nil error, want one", r)
		}
	}
}

// FuzzPathCheck holds the policy's invariants for any input: a path that
// passes is clean, absolute, free of NUL/CR/LF and under an allowed root,
// and nothing under a denied prefix passes whatever it is spelled like
// before cleaning.
func FuzzPathCheck(f *testing.F) {
	for _, s := range []string{"/srv/data/x", "/srv/data_evil", "/srv/data/../../etc/shadow", "/etc/shadow", "//srv//data/./private/..", "/proc/self/environ", "/srv/data/\x00", "/srv/data/a\nb", "relative", "/"} {
		f.Add(s)
	}
	pp, err := NewPathPolicy(PathRules{Allow: []string{"/srv/data", "/proc"}, Deny: []string{"/srv/data/private"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := CleanPath(in)
		if err != nil {
			if pp.Check(in) == nil {
				t.Fatalf("Check admits %q, which CleanPath refuses: %v", in, err)
			}
			return
		}
		if c2, err := CleanPath(c); err != nil || c2 != c {
			t.Fatalf("CleanPath not idempotent: %q -> %q -> %q, %v", in, c, c2, err)
		}
		if pp.Check(c) != nil {
			return
		}
		switch {
		case !strings.HasPrefix(c, "/"), strings.ContainsAny(c, "\x00\r\n"), strings.Contains(c, "/../"), strings.HasSuffix(c, "/.."):
			t.Fatalf("Check admits unclean %q", c)
		case !Within(c, "/srv/data") && !Within(c, "/proc"):
			t.Fatalf("Check admits %q outside the roots", c)
		case Within(c, "/srv/data/private"):
			t.Fatalf("Check admits denied %q", c)
		case strings.HasPrefix(c, "/proc/") && strings.HasSuffix(c, "/environ") && strings.Count(c, "/") == 3:
			t.Fatalf("Check admits %q", c)
		}
	})
}
