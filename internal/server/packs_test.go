package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	for _, n := range []string{"appliance_packs", "router_clients", "dhcp_leases", "wan_status", "interfaces", "diagnostics", "router_restart_service", "reboot", "router_updates", "storage_pools", "dsm_update_status", "dsm_exposure"} {
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

// TestHostDeny: hosts[].deny refuses a command on that host only, before
// the host is contacted, and survives a reload that changes it.
func TestHostDeny(t *testing.T) {
	yml := "mode: open\nssh:\n  config: none\nhosts:\n  - name: router\n    address: 192.0.2.1\n    deny: ['^service restart_wan( |$)']\n  - name: other\n    address: 192.0.2.2\n"
	w, c := assemble(t, yml)
	cs := connect(t, w)
	run := func(host, cmd string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"host": host, "command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &got)
		return got
	}
	if got := run("router", "echo x; service restart_wan"); got["status"] != "denied" || !strings.Contains(got["reason"].(string), "host router") {
		t.Errorf("router: %v", got)
	}
	// Elsewhere the rule does not apply: the call goes on to the host
	// (which does not answer here) instead of being denied.
	if got := run("other", "service restart_wan"); got["status"] == "denied" {
		t.Errorf("other: %v", got)
	}
	c2, err := config.Parse("test", []byte(strings.Replace(yml, "restart_wan", "restart_wireless", 1)))
	if err != nil {
		t.Fatal(err)
	}
	c2.StateDir = c.StateDir
	if err := c2.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	if err := w.Reload(c2, ""); err != nil {
		t.Fatal(err)
	}
	if got := run("router", "service restart_wireless"); got["status"] != "denied" {
		t.Errorf("after reload, the new rule: %v", got)
	}
	if got := run("router", "service restart_wan"); got["status"] == "denied" && strings.Contains(got["reason"].(string), "host router") {
		t.Errorf("after reload, the old rule still applies: %v", got)
	}
}
