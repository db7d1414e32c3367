package sshpool_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// oddConfig has what the generated fleet lacks: jump loops, a HostName
// that would be an option, values that do not parse, unknown tokens and a
// negated wildcard, each listed with its error.
const oddConfig = `Host loop1
  ProxyJump loop2
Host loop2
  ProxyJump loop1
Host evil
  HostName -oProxyCommand=touch
Host slow
  ConnectTimeout soon
Host badport
  Port twenty
Host token
  IdentityFile ~/.ssh/%C
Host deepchain
  ProxyJump c1
Host c1
  ProxyJump c2
Host c2
  ProxyJump c3
Host c3
  ProxyJump c4
Host c4
  ProxyJump c5
Host c5
  ProxyJump c6
Host c6
  ProxyJump c7
Host c7
  ProxyJump c8
Host c8
  ProxyJump c9
Host c9
  HostName 10.9.9.9
Host web-* !web-secret
  User webadmin
Host web-1 web-secret nas
  HostName %h.lan
Host nas
  Port 2222
  UserKnownHostsFile none %d/known
Host *
  User defaultuser
`

// TestInventoryGolden resolves every host of two mixed inventories and
// compares everything resolution decides — the full target, its pool key
// or the error — with testdata/inventory.golden, written by the resolver
// as it was before resolution was precomputed. Refresh it with -update
// only when a change to resolution is meant.
func TestInventoryGolden(t *testing.T) {
	dir := t.TempDir()
	f, err := sshpooltest.NewFleet(dir, 210)
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "odd_config")
	if err := os.WriteFile(odd, []byte(oddConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	oddOpts := sshpool.InventoryOptions{SSHConfig: odd, HomeDir: "/home/op", LocalUser: "op", Hosts: []sshpool.HostEntry{
		{Name: "nas", User: "root", Groups: []string{"storage"}, Mode: "readonly"},
		{Name: "router", Address: "192.168.1.1", ProxyJump: "nas,web-1:2200"},
		{Name: "web-secret", Tags: []string{"secret"}},
	}}
	withKnown := f.Options
	withKnown.KnownHosts = []string{"/etc/warden/known_hosts", "%d/.ssh/extra_%n"}

	var got bytes.Buffer
	for _, tc := range []struct {
		name  string
		opts  sshpool.InventoryOptions
		extra []string
	}{
		{"fleet", f.Options, []string{"s0000", "unknown", "web-1", "-x", "s01*"}},
		{"fleet with ssh.known_hosts", withKnown, nil},
		{"odd", oddOpts, []string{"web-1", "web-2", "c9", "nas", "10.0.0.1"}},
	} {
		inv, err := sshpool.NewInventory(tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got.WriteString("# " + tc.name + "\n")
		for _, l := range inv.List() {
			writeResolved(t, &got, "list", l.Name, l.Target, l.Err)
		}
		for _, name := range append(f.Warden[:3:3], tc.extra...) {
			target, err := inv.Resolve(name)
			var tp *sshpool.Target
			if err == nil {
				tp = &target
			}
			writeResolved(t, &got, "resolve", name, tp, err)
		}
		for _, g := range []string{"rack3", "db", "storage", "none"} {
			b, _ := json.Marshal(inv.Group(g))
			got.WriteString("group " + g + " " + string(b) + "\n")
		}
	}
	golden := filepath.Join("testdata", "inventory.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w []byte
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if !bytes.Equal(g, w) {
				t.Fatalf("resolution differs from %s at line %d:\ngot  %s\nwant %s", golden, i+1, g, w)
			}
		}
	}
}

func writeResolved(t *testing.T, w *bytes.Buffer, op, name string, target *sshpool.Target, err error) {
	t.Helper()
	rec := struct {
		Op, Name string
		Err      string          `json:",omitempty"`
		Key      string          `json:",omitempty"`
		Target   *sshpool.Target `json:",omitempty"`
	}{Op: op, Name: name, Target: target}
	if err != nil {
		rec.Err = err.Error()
	}
	if target != nil {
		rec.Key = target.Key()
	}
	b, jerr := json.Marshal(rec)
	if jerr != nil {
		t.Fatal(jerr)
	}
	w.Write(b)
	w.WriteByte('\n')
}
