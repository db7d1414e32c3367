package sshpool

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// sampleConfig puts "Host *" last: as in OpenSSH, the first value found
// for a key wins.
const sampleConfig = `Host nas
  HostName 192.168.1.10
  Port 2222
  User admin
  IdentityFile ~/.ssh/nas_key
  IdentitiesOnly yes
  UserKnownHostsFile ~/.ssh/known_nas %d/other_known
  ConnectTimeout 7

Host bastion
  HostName bastion.example.com

Host deep
  HostName 10.0.0.9
  ProxyJump ops@bastion:2200,nas

Host loop1
  ProxyJump loop2
Host loop2
  ProxyJump loop1

Host web-* !web-secret
  User webadmin

Host evil
  HostName -oProxyCommand=touch

Host *
  User defaultuser
  ServerAliveInterval 30
`

func newTestInventory(t *testing.T, hosts ...HostEntry) *Inventory {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	if err := os.WriteFile(cfg, []byte(sampleConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	inv, err := NewInventory(InventoryOptions{SSHConfig: cfg, HomeDir: "/home/op", LocalUser: "op", Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func TestResolveSSHConfigAlias(t *testing.T) {
	inv := newTestInventory(t)
	got, err := inv.Resolve("nas")
	if err != nil {
		t.Fatal(err)
	}
	want := Target{
		Name: "nas", Source: "ssh_config", Host: "192.168.1.10", Port: 2222, User: "admin",
		IdentityFiles:   []string{"/home/op/.ssh/nas_key"},
		IdentitiesOnly:  true,
		KnownHostsFiles: []string{"/home/op/.ssh/known_nas", "/home/op/other_known"},
		HostKeyPolicy:   HostKeyStrict,
		ConnectTimeout:  7 * time.Second,
		Shell:           DefaultShell,
	}
	if got.Key() != want.Key() || !slices.Equal(got.IdentityFiles, want.IdentityFiles) ||
		!slices.Equal(got.KnownHostsFiles, want.KnownHostsFiles) || got.IdentitiesOnly != want.IdentitiesOnly ||
		got.ConnectTimeout != want.ConnectTimeout || got.Shell != want.Shell || got.HostKeyPolicy != want.HostKeyPolicy {
		t.Errorf("Resolve(nas) =\n%+v\nwant\n%+v", got, want)
	}
}

func TestResolveDefaults(t *testing.T) {
	inv := newTestInventory(t)
	got, err := inv.Resolve("bastion")
	if err != nil {
		t.Fatal(err)
	}
	if got.Addr() != "bastion.example.com:22" || got.User != "defaultuser" {
		t.Errorf("addr, user = %s, %s", got.Addr(), got.User)
	}
	wantIDs := []string{"/home/op/.ssh/id_ed25519", "/home/op/.ssh/id_ecdsa", "/home/op/.ssh/id_rsa"}
	if !slices.Equal(got.IdentityFiles, wantIDs) {
		t.Errorf("identity files = %v, want %v", got.IdentityFiles, wantIDs)
	}
	if !slices.Equal(got.KnownHostsFiles, []string{"/home/op/.ssh/known_hosts"}) {
		t.Errorf("known hosts = %v", got.KnownHostsFiles)
	}
}

func TestResolveProxyJumpChain(t *testing.T) {
	inv := newTestInventory(t)
	got, err := inv.Resolve("deep")
	if err != nil {
		t.Fatal(err)
	}
	var hops []string
	for _, j := range got.Jump {
		hops = append(hops, j.User+"@"+j.Addr())
	}
	want := []string{"ops@bastion.example.com:2200", "admin@192.168.1.10:2222"}
	if !slices.Equal(hops, want) {
		t.Errorf("hops = %v, want %v", hops, want)
	}
	if k := got.Key(); !strings.Contains(k, " via ops@bastion.example.com:2200,admin@192.168.1.10:2222") {
		t.Errorf("key %q does not name the chain", k)
	}
	if h := got.hop(1); len(h.Jump) != 1 || h.Jump[0].Host != "bastion.example.com" {
		t.Errorf("second hop is reached through %+v, want the first", h.Jump)
	}
}

func TestResolveRefuses(t *testing.T) {
	inv := newTestInventory(t, HostEntry{Name: "box", Address: "10.1.1.1"})
	for _, tc := range []struct {
		name string
		want error
	}{
		{"-oProxyCommand=touch /tmp/x", ErrInvalidName},
		{"nas;id", ErrInvalidName},
		{"nas box", ErrInvalidName},
		{"nas\n", ErrInvalidName},
		{"$(id)", ErrInvalidName},
		{"", ErrInvalidName},
		{"web-*", ErrInvalidName},
		{"unlisted.example.com", ErrUnknownTarget},
		{"web-1", ErrUnknownTarget}, // matches only a wildcard pattern
		{"evil", ErrInvalidName},    // its HostName would be an option
	} {
		if _, err := inv.Resolve(tc.name); !errors.Is(err, tc.want) {
			t.Errorf("Resolve(%q): err = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := inv.Resolve("loop1"); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("Resolve(loop1): err = %v, want a ProxyJump loop", err)
	}
}

func TestWardenEntryLayersOverSSHConfig(t *testing.T) {
	inv := newTestInventory(t,
		HostEntry{Name: "nas", User: "root", Shell: "/opt/bin/sh", Groups: []string{"storage"}, Mode: "readonly", HostKeyPolicy: "accept-new"},
		HostEntry{Name: "router", Address: "192.168.1.1", Groups: []string{"net", "storage"}, ProxyJump: "nas"},
	)
	nas, err := inv.Resolve("nas")
	if err != nil {
		t.Fatal(err)
	}
	if nas.Source != "warden" || nas.User != "root" || nas.Host != "192.168.1.10" || nas.Port != 2222 ||
		nas.Shell != "/opt/bin/sh" || nas.Mode != "readonly" || nas.HostKeyPolicy != HostKeyAcceptNew {
		t.Errorf("nas = %+v", nas)
	}
	router, err := inv.Resolve("router")
	if err != nil {
		t.Fatal(err)
	}
	if router.Addr() != "192.168.1.1:22" || router.User != "defaultuser" || len(router.Jump) != 1 || router.Jump[0].User != "root" {
		t.Errorf("router = %+v", router)
	}
	if got := inv.Group("storage"); !slices.Equal(got, []string{"nas", "router"}) {
		t.Errorf("group storage = %v", got)
	}
	var names []string
	for _, l := range inv.List() {
		names = append(names, l.Name)
	}
	want := []string{"nas", "router", "bastion", "deep", "loop1", "loop2", "evil"}
	if !slices.Equal(names, want) {
		t.Errorf("List names = %v, want %v", names, want)
	}
}

func TestNewInventoryRejectsBadEntries(t *testing.T) {
	for _, e := range []HostEntry{
		{Name: "-x", Address: "1.2.3.4"},
		{Name: "a", Address: "-oProxyCommand=x"},
		{Name: "a", Address: "h", User: "-l"},
		{Name: "a", Address: "h", Shell: "sh"},
		{Name: "a", Address: "h", Shell: "/bin/sh;id"},
		{Name: "a", Address: "h", HostKeyPolicy: "no"},
		{Name: "a", Address: "h", Port: 70000},
		{Name: "a", Address: "h", ProxyJump: "-J"},
		{Name: "a", Address: "h", IdentityFiles: []string{"%C"}},
	} {
		if _, err := NewInventory(InventoryOptions{Hosts: []HostEntry{e}}); err == nil {
			t.Errorf("NewInventory(%+v): want an error", e)
		}
	}
	if _, err := NewInventory(InventoryOptions{Hosts: []HostEntry{{Name: "a"}, {Name: "a"}}}); err == nil {
		t.Error("duplicate names: want an error")
	}
}

func FuzzValidateHost(f *testing.F) {
	for _, s := range []string{"example.com", "-oProxyCommand=x", "a b", "fe80::1%eth0", "$(id)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidateHost(s) != nil {
			return
		}
		if s == "" || s[0] == '-' || strings.ContainsAny(s, " \t\r\n;|&$`'\"\\<>(){}*?!~#=,/@") {
			t.Errorf("ValidateHost(%q) accepted", s)
		}
	})
}

// TestResolvedTargetsAreTheCallers: every host is resolved once, so what
// Resolve and List hand out must be copies; a caller that changes its
// target must not change the next caller's.
func TestResolvedTargetsAreTheCallers(t *testing.T) {
	inv := newTestInventory(t, HostEntry{Name: "box", Address: "10.1.1.1", ProxyJump: "deep", Groups: []string{"g"}, Tags: []string{"t"}})
	first, err := inv.Resolve("box")
	if err != nil {
		t.Fatal(err)
	}
	want := first.Key()
	first.IdentityFiles[0] = "/tmp/other"
	first.KnownHostsFiles[0] = "/tmp/other"
	first.Jump[0].Host = "elsewhere"
	first.Jump[0].IdentityFiles[0] = "/tmp/other"
	first.Groups[0], first.Tags[0] = "x", "x"
	_ = append(first.hop(0).Jump, Target{Host: "appended"})
	for _, l := range inv.List() {
		if l.Name == "box" {
			l.Target.Jump[1].Host = "elsewhere"
		}
	}
	again, err := inv.Resolve("box")
	if err != nil {
		t.Fatal(err)
	}
	if again.Key() != want || again.Groups[0] != "g" || again.Tags[0] != "t" || again.Jump[0].Host != "bastion.example.com" {
		t.Errorf("Resolve(box) after a caller changed its copy = %+v", again)
	}
	if got := inv.Group("g"); len(got) != 1 {
		t.Fatalf("Group(g) = %v", got)
	} else {
		got[0] = "changed"
		if inv.Group("g")[0] != "box" {
			t.Error("Group hands out the inventory's own slice")
		}
	}
}
