package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGHUPReloadsInventory: a host added to warden.yaml appears after
// SIGHUP, an inventory that does not check out (a group naming an unknown
// host) changes nothing, and a group added appears.
func TestSIGHUPReloadsInventory(t *testing.T) {
	base := "mode: open\nssh:\n  config: none\nhosts:\n  - {name: nas, address: 127.0.0.1, port: 2201}\n"
	cfgFile := writeFile(t, base)
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfgFile, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	cs := connectHTTP(t, s, "", nil)
	names := func() string {
		res, _ := callTool(t, cs, "hosts_list", nil)
		return text(res)
	}
	if got := names(); !strings.Contains(got, "nas") || strings.Contains(got, "backup") {
		t.Fatalf("initial inventory: %s", got)
	}
	hup := func(content, wait string, n int) {
		t.Helper()
		if err := os.WriteFile(cfgFile, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		s.cmd.Process.Signal(syscall.SIGHUP)
		if !waitFor(20*time.Second, func() bool { return strings.Count(s.stderr.String(), wait) >= n }) {
			t.Fatalf("no %q after SIGHUP:\n%s", wait, s.stderr)
		}
	}
	hup(base+"  - {name: backup, address: 127.0.0.1, port: 2202}\n", "reloaded configuration", 1)
	if got := names(); !strings.Contains(got, "backup") {
		t.Fatalf("added host missing after reload: %s", got)
	}
	hup(base+"groups:\n  - {name: all, hosts: [nas, ghost]}\n", "reload failed", 1)
	if got := names(); !strings.Contains(got, "backup") {
		t.Fatalf("a failed reload changed the inventory: %s", got)
	}
	// warden.yaml's groups are swapped with the hosts.
	hup(base+"  - {name: backup, address: 127.0.0.1, port: 2202}\ngroups:\n  - {name: storage, hosts: [nas, backup]}\n", "reloaded configuration", 2)
	res, got := callTool(t, cs, "hosts_list", nil)
	groups, _ := got["groups"].([]any)
	found := false
	for _, g := range groups {
		if m, ok := g.(map[string]any); ok && m["name"] == "storage" && len(m["hosts"].([]any)) == 2 {
			found = true
		}
	}
	if !found {
		t.Fatalf("the reloaded group is missing from hosts_list: %s", text(res))
	}
}
