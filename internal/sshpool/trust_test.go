package sshpool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestKeyCoversTrust: changing anything that decides whom warden trusts or
// who logs in changes the pool key; changing what does not (name, shell,
// mode, timeouts) keeps it.
func TestKeyCoversTrust(t *testing.T) {
	hop := Target{Host: "bastion", Port: 22, User: "ops", KnownHostsFiles: []string{"/k/bastion"}, HostKeyPolicy: HostKeyStrict}
	base := Target{
		Name: "nas", Host: "10.0.0.5", Port: 22, User: "admin",
		IdentityFiles: []string{"/id/a"}, KnownHostsFiles: []string{"/k/a"}, HostKeyPolicy: HostKeyStrict,
		Jump: []Target{hop}, Shell: DefaultShell,
	}
	differ := map[string]func(*Target){
		"user":               func(t *Target) { t.User = "root" },
		"host":               func(t *Target) { t.Host = "10.0.0.6" },
		"port":               func(t *Target) { t.Port = 2222 },
		"known_hosts file":   func(t *Target) { t.KnownHostsFiles = []string{"/k/b"} },
		"known_hosts added":  func(t *Target) { t.KnownHostsFiles = []string{"/k/a", "/etc/ssh/ssh_known_hosts"} },
		"known_hosts none":   func(t *Target) { t.KnownHostsFiles = nil },
		"known_hosts commas": func(t *Target) { t.KnownHostsFiles = []string{"/k/a;1:/x"} },
		"host key policy":    func(t *Target) { t.HostKeyPolicy = HostKeyAcceptNew },
		"identity file":      func(t *Target) { t.IdentityFiles = []string{"/id/b"} },
		"identity added":     func(t *Target) { t.IdentityFiles = []string{"/id/a", "/id/b"} },
		"identities only":    func(t *Target) { t.IdentitiesOnly = true },
		"no jump":            func(t *Target) { t.Jump = nil },
		"jump known_hosts": func(t *Target) {
			h := hop
			h.KnownHostsFiles = []string{"/k/other"}
			t.Jump = []Target{h}
		},
		"jump identity": func(t *Target) {
			h := hop
			h.IdentityFiles = []string{"/id/b"}
			t.Jump = []Target{h}
		},
		"jump policy": func(t *Target) {
			h := hop
			h.HostKeyPolicy = HostKeyAcceptNew
			t.Jump = []Target{h}
		},
	}
	for name, change := range differ {
		t.Run(name, func(t *testing.T) {
			other := base
			other.Jump = slices.Clone(base.Jump)
			change(&other)
			if other.Key() == base.Key() {
				t.Errorf("key %q unchanged", base.Key())
			}
		})
	}
	same := map[string]func(*Target){
		"name":            func(t *Target) { t.Name = "nas-alias" },
		"shell":           func(t *Target) { t.Shell = "/bin/bash" },
		"mode":            func(t *Target) { t.Mode = "readonly" },
		"groups":          func(t *Target) { t.Groups = []string{"lab"} },
		"connect timeout": func(t *Target) { t.ConnectTimeout = time.Second },
	}
	for name, change := range same {
		t.Run(name, func(t *testing.T) {
			other := base
			change(&other)
			if other.Key() != base.Key() {
				t.Errorf("key %q became %q", base.Key(), other.Key())
			}
		})
	}
	if k := base.Key(); !strings.HasPrefix(k, "admin@10.0.0.5:22 via ops@bastion:22 #") {
		t.Errorf("key %q does not start with user@host:port and the hops", k)
	}
}

// trustFixture is one sshd and an inventory of aliases for it that differ
// only in their known_hosts file.
type trustFixture struct {
	srv *sshd.Server
	inv *Inventory
	// known maps an alias to its known_hosts file.
	known map[string]string
}

// newTrustFixture starts a server and names it four times: "trusted" and
// "trusted2" with known_hosts files of their own that list its key,
// "stranger" with a file that does not exist, and "imposter" with a file
// that lists another key for its address.
func newTrustFixture(t *testing.T) *trustFixture {
	t.Helper()
	s := sshd.Start(t, sshd.Options{User: testUser})
	dir := t.TempDir()
	f := &trustFixture{srv: s, known: map[string]string{}}
	for _, name := range []string{"trusted", "trusted2", "stranger", "imposter"} {
		f.known[name] = filepath.Join(dir, name+"_known_hosts")
	}
	for _, name := range []string{"trusted", "trusted2"} {
		if err := sshd.WriteKnownHosts(f.known[name], s); err != nil {
			t.Fatal(err)
		}
	}
	other := sshd.NewKey(t)
	line := fmt.Sprintf("[%s]:%d %s", s.Host, s.Port, ssh.MarshalAuthorizedKey(other.Public()))
	if err := os.WriteFile(f.known["imposter"], []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	var hosts []HostEntry
	for _, name := range []string{"trusted", "trusted2", "stranger", "imposter"} {
		hosts = append(hosts, HostEntry{
			Name: name, Address: s.Host, Port: s.Port, User: s.User,
			IdentityFiles: []string{s.UserKey.Path}, KnownHostsFile: f.known[name],
		})
	}
	inv, err := NewInventory(InventoryOptions{HomeDir: dir, LocalUser: "nobody", Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	f.inv = inv
	return f
}

func (f *trustFixture) target(t *testing.T, name string) Target {
	t.Helper()
	tgt, err := f.inv.Resolve(name)
	if err != nil {
		t.Fatal(err)
	}
	return tgt
}

// TestAliasesWithOtherKnownHostsNeverShare: a connection verified for one
// alias is never handed to another alias of the same address whose
// known_hosts would refuse the server, whichever connects first; the
// refusal names the refused alias's own file and not the other's.
func TestAliasesWithOtherKnownHostsNeverShare(t *testing.T) {
	f := newTrustFixture(t)
	refusals := map[string]error{"stranger": ErrUnknownHost, "imposter": ErrHostKeyChanged}
	for _, order := range [][]string{
		{"trusted", "stranger", "imposter"},
		{"stranger", "imposter", "trusted"},
		{"imposter", "trusted", "stranger"},
	} {
		t.Run(strings.Join(order, "-then-"), func(t *testing.T) {
			p := newPool(t, Options{})
			var held []*Lease
			defer func() {
				for _, l := range held {
					l.Release()
				}
			}()
			for _, name := range order {
				l, err := p.Acquire(t.Context(), f.target(t, name))
				want := refusals[name]
				if want == nil {
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					held = append(held, l) // keep it open for the next aliases
					continue
				}
				if err == nil {
					l.Release()
					t.Fatalf("%s: connected through a server its known_hosts does not trust", name)
				}
				if !errors.Is(err, want) {
					t.Fatalf("%s: err = %v, want %v", name, err, want)
				}
				msg := err.Error()
				if !strings.Contains(msg, f.known[name]) {
					t.Errorf("%s: message does not name its known_hosts %s: %s", name, f.known[name], msg)
				}
				if strings.Contains(msg, f.known["trusted"]) {
					t.Errorf("%s: message names another alias's known_hosts: %s", name, msg)
				}
			}
			if st := p.Stats(); st.Open != 1 {
				t.Errorf("stats = %+v, want the trusted alias's connection only", st)
			}
		})
	}
}

// TestTrustedAliasesGetTheirOwnConnections: two aliases of one address,
// both trusting it through files of their own, get a connection each.
func TestTrustedAliasesGetTheirOwnConnections(t *testing.T) {
	f := newTrustFixture(t)
	p := newPool(t, Options{})
	for _, name := range []string{"trusted", "trusted2", "trusted", "trusted2"} {
		if got := run(t, p, f.target(t, name), "echo "+name); got != name+"\n" {
			t.Errorf("%s: got %q", name, got)
		}
	}
	if st := p.Stats(); st.Open != 2 || st.Dials != 2 {
		t.Errorf("stats = %+v, want 2 open from 2 dials", st)
	}
}

// TestAliasesWithOtherIdentitiesNeverShare: an alias whose key the server
// does not accept fails to log in even while another alias of the same
// user@host:port is connected with a key it accepts.
func TestAliasesWithOtherIdentitiesNeverShare(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{})
	good := testTarget(t, s)
	bad := good
	bad.IdentityFiles = []string{sshd.NewKey(t).Path}
	bad.IdentitiesOnly = true
	l, err := p.Acquire(t.Context(), good)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	_, err = p.Acquire(t.Context(), bad)
	var de *DialError
	if !errors.As(err, &de) || de.Stage != StageAuth {
		t.Fatalf("other identity: err = %v, want an authentication failure", err)
	}
}

// TestKnownHostsOptionReplacesUserFile: with InventoryOptions.KnownHosts
// (ssh.known_hosts) set, the user's ~/.ssh/known_hosts and ssh_config's
// UserKnownHostsFile are not read, though both trust the server.
func TestKnownHostsOptionReplacesUserFile(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	home := t.TempDir()
	userKnown := filepath.Join(home, ".ssh", "known_hosts")
	if err := os.MkdirAll(filepath.Dir(userKnown), 0o700); err != nil {
		t.Fatal(err)
	}
	configKnown := filepath.Join(home, "config_known_hosts")
	for _, f := range []string{userKnown, configKnown} {
		if err := sshd.WriteKnownHosts(f, s); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(home, ".ssh", "config")
	alias := fmt.Sprintf("Host aliased\n  HostName %s\n  Port %d\n  User %s\n  IdentityFile %s\n  UserKnownHostsFile %s\n",
		s.Host, s.Port, s.User, s.UserKey.Path, configKnown)
	if err := os.WriteFile(cfg, []byte(alias), 0o600); err != nil {
		t.Fatal(err)
	}
	hosts := []HostEntry{{Name: "entry", Address: s.Host, Port: s.Port, User: s.User, IdentityFiles: []string{s.UserKey.Path}}}
	operator := filepath.Join(t.TempDir(), "warden_known_hosts") // does not list the server

	for _, tc := range []struct {
		name       string
		knownHosts []string
		alias      string
		wantFiles  []string
	}{
		{"user file when unset", nil, "entry", []string{userKnown}},
		{"ssh_config file when unset", nil, "aliased", []string{configKnown}},
		{"operator file replaces the user's", []string{operator}, "entry", []string{operator}},
		{"operator file replaces ssh_config's", []string{operator}, "aliased", []string{operator}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := NewInventory(InventoryOptions{SSHConfig: cfg, HomeDir: home, LocalUser: "nobody", Hosts: hosts, KnownHosts: tc.knownHosts})
			if err != nil {
				t.Fatal(err)
			}
			tgt, err := inv.Resolve(tc.alias)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tgt.KnownHostsFiles, tc.wantFiles) {
				t.Fatalf("known_hosts files = %v, want %v", tgt.KnownHostsFiles, tc.wantFiles)
			}
			_, err = newPool(t, Options{}).Client(t.Context(), tgt)
			if tc.knownHosts == nil {
				if err != nil {
					t.Fatalf("trusted through %v: %v", tc.wantFiles, err)
				}
				return
			}
			if !errors.Is(err, ErrUnknownHost) {
				t.Fatalf("err = %v, want ErrUnknownHost: the user's files were read", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, operator+" (does not exist)") || strings.Contains(msg, userKnown) || strings.Contains(msg, configKnown) {
				t.Errorf("message should name %s only: %s", operator, msg)
			}
		})
	}
}

// TestHostKeyErrorWithoutKnownHosts: a host whose known_hosts is "none"
// is refused with a message that names no file warden does not read.
func TestHostKeyErrorWithoutKnownHosts(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	tgt := testTarget(t, s)
	tgt.KnownHostsFiles = nil
	_, err := newPool(t, Options{}).Client(t.Context(), tgt)
	if !errors.Is(err, ErrUnknownHost) {
		t.Fatalf("err = %v, want ErrUnknownHost", err)
	}
	if msg := err.Error(); strings.Contains(msg, "~/.ssh/known_hosts") || !strings.Contains(msg, "no known_hosts file is read") {
		t.Errorf("message = %s", msg)
	}
}
