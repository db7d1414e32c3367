package main

import (
	"fmt"
	"testing"
)

// TestRestartToolsOnWardenItself: restart_service and restart_container
// hand their name to the service manager or runtime, which takes warden's
// own unit and container in more spellings than the bare word: each is
// tier 3 (warden would stop, with its sessions and approvals), other
// services and containers tier 2. Guarded mode, so nothing runs.
func TestRestartToolsOnWardenItself(t *testing.T) {
	cfg := writeFile(t, "mode: guarded\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	check := func(tool, name string, want float64) {
		t.Run(fmt.Sprintf("%s/%s", tool, name), func(t *testing.T) {
			res, got := callTool(t, s.cs, tool, map[string]any{"name": name})
			if got["status"] != "approval_required" || got["tier"] != want {
				t.Errorf("%s %q: status %v tier %v, want approval_required at tier %v: %s", tool, name, got["status"], got["tier"], want, text(res))
			}
		})
	}
	for _, n := range []string{"warden", "warden.service", "warden@1.service", "warden@x", "warden.socket", "warden-mcp", "warden-mcp.service", "warden_mcp"} {
		check("restart_service", n, 3)
	}
	for _, n := range []string{"warden", "deploy-warden-1", "deploy_warden_1", "warden-1", "myproj-warden-2"} {
		check("restart_container", n, 3)
	}
	for _, n := range []string{"nginx", "nginx.service", "vaultwarden", "getty@tty1", "sshd.service"} {
		check("restart_service", n, 2)
	}
	for _, n := range []string{"web-1", "vaultwarden", "db.prod"} {
		check("restart_container", n, 2)
	}
}
