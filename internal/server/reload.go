package server

import (
	"fmt"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/policy"
)

// Reload applies the reloadable part of a new, already validated config:
// the policy rules (deny, allow, deny_hosts, with warden's own paths still
// protected). The new policy is built completely before it is swapped in,
// so a bad rule changes nothing; calls see the old rules or the new ones,
// never a mixture. Other keys take effect on restart.
func (w *Warden) Reload(cfg *config.Config, configPath string) error {
	pol, err := policy.New(policy.Rules{Deny: selfDeny(cfg, configPath), Allow: cfg.Policy.Allow, DenyHosts: cfg.Policy.DenyHosts})
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	w.Relay.SetPolicy(pol)
	return nil
}

// AuditLog is the audit log, for records that are not tool calls (the
// HTTP edge's lockouts).
func (w *Warden) AuditLog() *audit.Log { return w.audit }

// Stats is what the metrics gauges read.
type Stats struct {
	// TerminalSessions counts open interactive sessions.
	TerminalSessions int
	// SSHConnections counts open pooled SSH connections.
	SSHConnections int
}

// Stats reports the current sessions and pooled connections.
func (w *Warden) Stats() Stats {
	return Stats{TerminalSessions: len(w.sessions.List()), SSHConnections: w.hosts.pool.Stats().Open}
}
