package packs

import (
	"fmt"
	"sync/atomic"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
)

// Guard adds per-host deny rules to a policy: the operator's for a host
// (hosts[].deny), and the packs' — on a host where
// packs were detected, the rules of those packs; on a host not probed yet,
// the rules of every pack (a router's "nvram erase" is denied before
// warden knows the host is a router; on other hosts the words mean
// nothing). The deny rules beat every mode and approval, as policy.deny
// does. It reads only what detection remembered and never contacts a host.
type Guard struct {
	base   atomic.Pointer[relay.Policy]
	hosts  atomic.Pointer[map[string]*policy.Policy]
	det    *Detector
	all    *policy.Policy
	byPack map[string]*policy.Policy
}

// SetHostDeny replaces the operator's per-host deny rules (host name to
// regexes, as policy.deny); an invalid regex changes nothing.
func (g *Guard) SetHostDeny(rules map[string][]string) error {
	m := map[string]*policy.Policy{}
	for h, deny := range rules {
		if len(deny) == 0 {
			continue
		}
		p, err := policy.New(policy.Rules{Deny: deny})
		if err != nil {
			return fmt.Errorf("hosts %s deny: %w", h, err)
		}
		m[h] = p
	}
	g.hosts.Store(&m)
	return nil
}

var _ relay.Policy = (*Guard)(nil)

// NewGuard returns base guarded by the deny rules of packs.
func NewGuard(base relay.Policy, packs []*Pack, det *Detector) (*Guard, error) {
	g := &Guard{det: det, byPack: map[string]*policy.Policy{}}
	var all []string
	for _, p := range packs {
		if len(p.Deny) == 0 {
			continue
		}
		pp, err := policy.New(policy.Rules{Deny: p.Deny})
		if err != nil {
			return nil, fmt.Errorf("pack %s: %w", p.Name, err)
		}
		g.byPack[p.Name] = pp
		all = append(all, p.Deny...)
	}
	a, err := policy.New(policy.Rules{Deny: all})
	if err != nil {
		return nil, err
	}
	g.all = a
	g.SetBase(base)
	g.hosts.Store(&map[string]*policy.Policy{})
	return g, nil
}

// SetBase swaps the policy the packs' rules are added to (a reload).
func (g *Guard) SetBase(base relay.Policy) { g.base.Store(&base) }

// Evaluate classifies in with the base policy, then denies it if a deny
// rule of the host or of its packs matches.
func (g *Guard) Evaluate(in policy.Input) policy.Verdict {
	v := (*g.base.Load()).Evaluate(in)
	if v.Denied {
		return v
	}
	check := func(p *policy.Policy, why string) bool {
		fv := p.Evaluate(in)
		if fv.Denied {
			v.Denied, v.Tier = true, max(v.Tier, fv.Tier)
			v.Reason = fmt.Sprintf("%s (%s)", fv.Reason, why)
		}
		return fv.Denied
	}
	host := in.Host
	if host == "" {
		host = "local"
	}
	if p := (*g.hosts.Load())[host]; p != nil && check(p, "a deny rule of host "+host) {
		return v
	}
	detected, probed := g.det.Known(in.Host)
	if !probed {
		check(g.all, "an appliance pack's rule; applied until the host's packs are detected")
		return v
	}
	for _, name := range detected {
		if p := g.byPack[name]; p != nil && check(p, "a rule of the "+name+" pack detected on the host") {
			return v
		}
	}
	return v
}
