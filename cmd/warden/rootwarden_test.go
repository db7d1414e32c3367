package main

import (
	"os"
	"testing"
)

// TestRootWardenExtraction: a local tar -x keeps the archive's setuid
// modes and owners only when root runs it, so its verdict follows the
// user warden runs as: tier 3 for a root warden (CI runs these tests as
// root; a NAS or router runs warden so), tier 2 otherwise. Clearing the
// modes (--no-same-permissions) and listing keep their tier either way.
func TestRootWardenExtraction(t *testing.T) {
	env, state, _, _ := shimmed(t, "guarded", "")
	s := startStdio(t, env, state, nil)
	dir := t.TempDir()
	extract := float64(2)
	if os.Geteuid() == 0 {
		extract = 3
	}
	for _, tc := range []struct {
		command string
		status  string
		tier    float64
	}{
		{"tar -xf /srv/none.tar -C " + dir, "approval_required", extract},
		{"tar -xf /srv/none.tar -C " + dir + " --no-same-permissions", "approval_required", 2},
		{"tar -tf /srv/none.tar", "ok", 0},
	} {
		t.Run(tc.command, func(t *testing.T) {
			res, got := callTool(t, s.cs, "run_command", map[string]any{"command": tc.command})
			tier := got["tier"]
			if tier == nil {
				tier = float64(0)
			}
			if got["status"] != tc.status || tier != tc.tier {
				t.Errorf("status %v tier %v, want %s tier %v (euid %d): %s", got["status"], got["tier"], tc.status, tc.tier, os.Geteuid(), text(res))
			}
		})
	}
}
