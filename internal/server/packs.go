package server

import (
	"fmt"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/tools/packs"
)

// appliancePacks are the loaded packs, the detection every pack tool and
// hosts_list share, and the guard that adds the packs' deny rules to the
// policy per host.
type appliancePacks struct {
	packs   []*packs.Pack
	disable []string
	det     *packs.Detector
	guard   *packs.Guard
	env     []string
}

// newPacks loads the built-in packs and the operator's (packs.files),
// every problem of a bad file named, and guards pol with their rules.
func newPacks(cfg *config.Config, o Options, pol *policy.Policy) (*appliancePacks, error) {
	ps, err := packs.Load(packs.Options{Files: cfg.Packs.Files, Disable: cfg.Packs.Disable})
	if err != nil {
		return nil, fmt.Errorf("packs: %w", err)
	}
	env := baseEnv(cfg, o.Getenv)
	det := packs.NewDetector(ps, env, 0)
	g, err := packs.NewGuard(pol, ps, det)
	if err != nil {
		return nil, err
	}
	if err := g.SetHostDeny(hostDeny(cfg)); err != nil {
		return nil, err
	}
	return &appliancePacks{packs: ps, disable: cfg.Packs.Disable, det: det, guard: g, env: env}, nil
}

// register adds the pack tools.
func (a *appliancePacks) register(r *relay.Relay, hs *hosts.Set) {
	packs.Register(r, packs.Deps{Hosts: hs.Resolve, Packs: a.packs, Detector: a.det, Disable: a.disable, Env: a.env})
}

// reload guards a new policy with the new per-host rules and forgets what
// detection found: an inventory name may now be another machine.
func (a *appliancePacks) reload(r *relay.Relay, cfg *config.Config, pol *policy.Policy) error {
	if err := a.guard.SetHostDeny(hostDeny(cfg)); err != nil {
		return err
	}
	a.guard.SetBase(pol)
	r.SetPolicy(a.guard)
	a.det.Forget()
	return nil
}

// hostDeny are the operator's per-host deny rules (hosts[].deny).
func hostDeny(cfg *config.Config) map[string][]string {
	m := map[string][]string{}
	for _, h := range cfg.Hosts {
		if len(h.Deny) > 0 {
			m[h.Name] = h.Deny
		}
	}
	return m
}

// detected are the packs found on a host, for hosts_list; nil if it was
// not probed.
func (a *appliancePacks) detected(host string) []string {
	p, ok := a.det.Known(host)
	if !ok {
		return nil
	}
	return p
}
