package packs

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
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

	allDeny  []string            // every pack's deny rules
	packDeny map[string][]string // each pack's
	hostDeny atomic.Pointer[map[string][]string]

	mu     sync.Mutex
	merged map[string]*policy.Policy // base with a set of rules added, by the set; reset when base or host rules change
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
	g.mu.Lock()
	g.hosts.Store(&m)
	own := maps.Clone(rules)
	g.hostDeny.Store(&own)
	g.merged = nil
	g.mu.Unlock()
	return nil
}

var _ relay.Policy = (*Guard)(nil)

// NewGuard returns base guarded by the deny rules of packs.
func NewGuard(base relay.Policy, packs []*Pack, det *Detector) (*Guard, error) {
	g := &Guard{det: det, byPack: map[string]*policy.Policy{}, packDeny: map[string][]string{}}
	for _, p := range packs {
		if len(p.Deny) == 0 {
			continue
		}
		pp, err := policy.New(policy.Rules{Deny: p.Deny})
		if err != nil {
			return nil, fmt.Errorf("pack %s: %w", p.Name, err)
		}
		g.byPack[p.Name] = pp
		g.packDeny[p.Name] = p.Deny
		g.allDeny = append(g.allDeny, p.Deny...)
	}
	a, err := policy.New(policy.Rules{Deny: g.allDeny})
	if err != nil {
		return nil, err
	}
	g.all = a
	g.SetBase(base)
	g.hosts.Store(&map[string]*policy.Policy{})
	g.hostDeny.Store(&map[string][]string{})
	return g, nil
}

// SetBase swaps the policy the packs' rules are added to (a reload).
func (g *Guard) SetBase(base relay.Policy) {
	g.mu.Lock()
	g.base.Store(&base)
	g.merged = nil
	g.mu.Unlock()
}

// mergedFor returns the base policy with every deny rule that applies to
// host added to it (the host's own, and its detected packs' or, unprobed,
// every pack's), made once per set of rules, or nil when the base policy
// cannot take rules. One evaluation of it says whether any of them denies.
func (g *Guard) mergedFor(host string, detected []string, probed bool) *policy.Policy {
	g.mu.Lock() // held from reading the host's rules to storing what was made of them
	defer g.mu.Unlock()
	own := (*g.hostDeny.Load())[host]
	key := "\x00" // hosts without rules of their own share merged policies
	if len(own) > 0 {
		key = host + "\x00"
	}
	if probed {
		key += strings.Join(detected, ",")
	} else {
		key += "\x00all"
	}
	if p, ok := g.merged[key]; ok {
		return p
	}
	base, ok := (*g.base.Load()).(*policy.Policy)
	if !ok {
		return nil
	}
	rules := slices.Clone(own)
	if probed {
		for _, name := range detected {
			rules = append(rules, g.packDeny[name]...)
		}
	} else {
		rules = append(rules, g.allDeny...)
	}
	p, err := base.WithDeny(rules)
	if err != nil {
		p = nil // rules that compiled once compile again; if not, the slow path holds
	}
	if g.merged == nil {
		g.merged = map[string]*policy.Policy{}
	}
	g.merged[key] = p
	return p
}

// Evaluate classifies in with the base policy, then denies it if a deny
// rule of the host or of its packs matches.
func (g *Guard) Evaluate(in policy.Input) policy.Verdict {
	host := in.Host
	if host == "" {
		host = "local"
	}
	detected, probed := g.det.Known(in.Host)
	// Deny rules only ever deny: when the base policy with every rule
	// that applies denies nothing, that one evaluation is the base's
	// verdict. Otherwise the rule sets are tried one by one below, to name
	// which one denied.
	if m := g.mergedFor(host, detected, probed); m != nil {
		if v := m.Evaluate(in); !v.Denied {
			return v
		}
	}
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
	if p := (*g.hosts.Load())[host]; p != nil && check(p, "a deny rule of host "+host) {
		return v
	}
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
