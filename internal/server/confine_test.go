package server

import (
	"slices"
	"testing"

	"github.com/warden-mcp/warden/internal/config"
)

// TestOwnPathsHoldEverySecretFile: each file whose content is one of
// warden's secrets is among the paths no child may reach.
func TestOwnPathsHoldEverySecretFile(t *testing.T) {
	cfg := &config.Config{StateDir: "/var/lib/warden"}
	cfg.Audit.Path = "/var/log/warden/audit.jsonl"
	cfg.Audit.KeyFile = "/etc/warden/audit.key"
	cfg.HTTP.TokenFile = "/etc/warden/token"
	cfg.HTTP.TLSKeyFile = "/etc/warden/tls.key"
	cfg.Audit.Export = []config.AuditExport{{KeyFile: "/etc/warden/otlp-client.key"}, {KeyFile: "/etc/warden/syslog-client.key"}}
	got := ownPaths(cfg, "/etc/warden/config.yaml")
	for _, want := range []string{"/var/lib/warden", "/var/log/warden/audit.jsonl", "/etc/warden/config.yaml", "/etc/warden/audit.key",
		"/etc/warden/token", "/etc/warden/tls.key", "/etc/warden/otlp-client.key", "/etc/warden/syslog-client.key"} {
		if !slices.Contains(got, want) {
			t.Errorf("ownPaths lacks %s: %v", want, got)
		}
	}
}
