package server

import (
	"fmt"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/tools/fleet"
)

// Reload applies the reloadable part of a new, already validated config:
// the policy rules (deny, allow, deny_hosts, hosts[].deny, with warden's own paths still
// protected) and the SSH inventory (warden.yaml hosts, their
// files_transport, ~/.ssh/config, and warden.yaml groups, with the SSH
// keys they log in with kept from reads); the appliance
// packs detected per host are forgotten, since a name may now be another
// machine.
// Both are built and checked completely before either is swapped in, so a
// bad rule or host changes nothing; calls see the old rules and hosts or
// the new ones, never a mixture. Other keys take effect on restart.
func (w *Warden) Reload(cfg *config.Config, configPath string) error {
	pol, err := policy.New(policyRules(cfg, configPath, w.opts.Getenv, w.conf, w.started))
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	inv, err := newInventory(cfg, w.opts)
	if err != nil {
		return err
	}
	groups := groupsOf(cfg)
	if err := fleet.ValidateGroups(inv.Resolve, groups); err != nil {
		return err
	}
	if err := w.packs.reload(w.Relay, cfg, pol); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	w.ssh.Reload(inv, transports(cfg))
	// The new inventory may log in with other keys: reads lose them from
	// their next program on.
	w.hostsCfg.Store(cfg)
	w.conf.Rebuild()
	w.groups.set(groups)
	d := cfg.Digest()
	w.digest.Store(&d)
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
	return Stats{TerminalSessions: len(w.sessions.List()), SSHConnections: w.ssh.Pool().Stats().Open}
}
