package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/config"
)

// TestPackToolsServed: the built-in pack tools are served beside the
// others with no name served twice, packs.disable switches a tool off
// entirely, and a bad operator pack file stops the server with its
// problem named.
func TestPackToolsServed(t *testing.T) {
	w, _ := assemble(t, "mode: guarded\n")
	tools := w.Relay.Tools()
	seen := map[string]bool{}
	for _, n := range tools {
		if seen[n] {
			t.Errorf("tool %s is registered twice", n)
		}
		seen[n] = true
	}
	for _, n := range []string{"appliance_packs", "router_clients", "dhcp_leases", "wan_status", "interfaces", "diagnostics", "router_restart_service", "reboot"} {
		if !seen[n] {
			t.Errorf("pack tool %s is not served", n)
		}
	}

	w, _ = assemble(t, "mode: open\npacks:\n  disable: [reboot]\n")
	if slices.Contains(w.Relay.Tools(), "reboot") {
		t.Error("packs.disable: [reboot] still serves reboot")
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: x\nfamily: toaster\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse("test", []byte("packs:\n  files: ["+bad+"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.StateDir = t.TempDir()
	if err := c.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{Config: c, Version: "test", Transport: "memory"}); err == nil || !strings.Contains(err.Error(), "family") {
		t.Errorf("bad pack file: %v, want an error naming family", err)
	}
}
