package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestKnownHostsSettingReplacesHome: ssh.known_hosts in warden.yaml is the
// whole of what warden trusts. HOME's ~/.ssh/known_hosts trusts the
// server; with ssh.known_hosts naming a file that does not, the host is
// refused with a message naming that file, and without the setting the
// same HOME lets the call through.
func TestKnownHostsSettingReplacesHome(t *testing.T) {
	srv := sshd.Start(t, sshd.Options{User: sshUser})
	home := t.TempDir()
	userKnown := filepath.Join(home, ".ssh", "known_hosts")
	if err := os.MkdirAll(filepath.Dir(userKnown), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := sshd.WriteKnownHosts(userKnown, srv); err != nil {
		t.Fatal(err)
	}
	operator := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(operator, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	host := fmt.Sprintf("hosts:\n  - name: box\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n",
		srv.Host, srv.Port, sshUser, srv.UserKey.Path)

	for _, tc := range []struct {
		name   string
		ssh    string
		wantOK bool
	}{
		{"setting replaces HOME's file", "ssh:\n  config: none\n  known_hosts: " + operator + "\n", false},
		{"HOME's file without the setting", "ssh:\n  config: none\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "warden.yaml")
			if err := os.WriteFile(cfg, []byte(tc.ssh+host), 0o600); err != nil {
				t.Fatal(err)
			}
			env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg, "HOME="+home)
			s := startStdio(t, env, state, nil)
			res, got := callTool(t, s.cs, "run_command", map[string]any{"host": "box", "command": "echo reached"})
			txt := text(res)
			if tc.wantOK {
				if got["status"] != "ok" || got["stdout"] != "reached\n" {
					t.Fatalf("trusted through HOME's known_hosts: %s", txt)
				}
				return
			}
			if got["status"] == "ok" {
				t.Fatalf("connected although ssh.known_hosts does not trust the server: %s", txt)
			}
			if !strings.Contains(txt, "not known") || !strings.Contains(txt, operator) || strings.Contains(txt, userKnown) {
				t.Errorf("refusal should name %s and not %s: %s", operator, userKnown, txt)
			}
		})
	}
}
