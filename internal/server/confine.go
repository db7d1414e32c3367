package server

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/tools/operator"
)

// newConfiner builds the kernel confinement of local programs: warden's
// own paths out of every child's reach, the staged scripts readable, and
// the operator's confine block for approved programs. With confinement
// required it fails when the kernel cannot hold it; with auto it warns.
func newConfiner(cfg *config.Config, o Options) (*confine.Confiner, error) {
	approved := confineProfile(cfg.Confine.Writable, cfg.Confine.Network)
	tools := map[string]confine.Profile{}
	for name, t := range cfg.Confine.Tools {
		tools[name] = confineProfile(t.Writable, t.Network)
	}
	enter := 0
	if cfg.HostNamespace == "pid1" {
		enter = 1
	}
	c, err := confine.New(confine.Options{
		Enter:   enter,
		Protect: ownPaths(cfg, o.ConfigPath),
		// Rotated audit files beside an audit log kept outside the state dir.
		Protected: func() []string { files, _ := audit.Files(cfg.Audit.Path); return files },
		Approved:  approved,
		Tools:     tools,
		Logger:    o.Logger,
	}, confine.Requirement(cfg.Confinement))
	if err != nil {
		return nil, err
	}
	st := c.Status()
	if !st.Active {
		o.Logger.Warn("local programs run UNCONFINED: only the command classifier stands between a call and the machine; set confinement: required to refuse to serve instead", "reason", st.Mechanism)
	} else {
		o.Logger.Info("local programs confined", "mechanism", st.Mechanism, "gaps", st.Gaps)
	}
	return c, nil
}

func confineProfile(writable []string, network *bool) confine.Profile {
	return confine.Profile{Writable: writable, NoNetwork: network != nil && !*network}
}

// ownPaths are warden's own files: state dir (token, audit log,
// recordings, approvals), audit log, config file, token and key files,
// and the client keys warden presents to its audit collectors (a child
// holding one could send records as warden).
func ownPaths(cfg *config.Config, configPath string) []string {
	var out []string
	paths := []string{cfg.StateDir, cfg.Audit.Path, configPath, cfg.HTTP.TokenFile, cfg.Audit.KeyFile, cfg.HTTP.TLSKeyFile}
	for _, e := range cfg.Audit.Export {
		paths = append(paths, e.KeyFile)
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

// scriptDir is where run_script stages script bodies for the interpreter
// to read: beside the state dir, since no child may read inside it.
func scriptDir(cfg *config.Config) string {
	return filepath.Join(filepath.Dir(cfg.StateDir), filepath.Base(cfg.StateDir)+"-scripts")
}

// confinementInfo is server_info's account of st.
func confinementInfo(st confine.Status, cfg *config.Config) operator.Confinement {
	ci := operator.Confinement{Mechanism: st.Mechanism, Active: st.Active, Required: cfg.Confinement == string(confine.Required), Gaps: append([]string(nil), st.Gaps...)}
	if cfg.HostNamespace == "pid1" && !st.Active {
		ci.Gaps = append(ci.Gaps, "everything on local runs entered into PID 1's namespaces (host_namespace: pid1): commands, sessions and host tools there are held by the classifier only")
	}
	if !st.Active {
		ci.Warning = fmt.Sprintf("local programs run unconfined (%s): only the command classifier holds what a call was admitted as", st.Mechanism)
	}
	return ci
}

// inspectRunner runs the typed probes warden builds itself (host tools,
// snapshot sources): a call admitted as a read runs them at
// confine.Inspect, read-only but keeping the capabilities inspection needs.
type inspectRunner struct{ runner.Runner }

func (r inspectRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if a, _ := confine.From(ctx); a.Level == confine.Read {
		ctx = confine.WithLevel(ctx, confine.Inspect)
	}
	return r.Runner.Run(ctx, req)
}
