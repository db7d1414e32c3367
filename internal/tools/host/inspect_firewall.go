package host

import (
	"context"
	"fmt"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/relay"
)

// Backend is one firewall backend's state.
type Backend struct {
	Name string `json:"name"`
	// Status is ok when the backend could be read, unknown otherwise.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Active is active, inactive or unknown.
	Active      string `json:"active"`
	InputPolicy string `json:"input_policy,omitempty"`
	Chains      int    `json:"chains"`
	Rules       int    `json:"rules"`
}

// FirewallStatus is firewall_status' result.
type FirewallStatus struct {
	// Active is active when any backend filters input, inactive when every
	// backend read says so, unknown otherwise.
	Active   string    `json:"active"`
	Backends []Backend `json:"backends"`
}

var (
	ufwArgv    = []string{"ufw", "status", "verbose"}
	pfInfoArgv = []string{"pfctl", "-s", "info"}
	pfRuleArgv = []string{"pfctl", "-s", "rules"}
)

// fwBackends lists the firewall programs found on t, in a fixed order.
func (d *Deps) fwBackends(ctx context.Context, t *hosts.Host) []string {
	found := d.detect(ctx, t, "nft", "iptables", "ufw", "pfctl")
	var out []string
	for _, n := range []string{"nft", "iptables", "ufw", "pfctl"} {
		if found[n] {
			out = append(out, n)
		}
	}
	return out
}

func fwArgv(backend string, rules bool) [][]string {
	switch backend {
	case "nft":
		return [][]string{nftListArgv}
	case "iptables":
		return [][]string{iptSArgv, ip6tSArgv}
	case "ufw":
		return [][]string{ufwArgv}
	case "pfctl":
		if rules {
			return [][]string{pfRuleArgv}
		}
		return [][]string{pfInfoArgv, pfRuleArgv}
	}
	return nil
}

// readBackend reads one backend's chains and whether it is active.
func (d *Deps) readBackend(ctx context.Context, t *hosts.Host, backend string, rulesOnly bool) (Backend, []Chain) {
	b := Backend{Name: backend, Status: "ok", Active: Unknown}
	var chains []Chain
	for _, argv := range fwArgv(backend, rulesOnly) {
		o := d.exec(ctx, t, argv)
		if !o.ok() {
			if argv[0] == "ip6tables" {
				continue
			}
			b.Status, b.Reason = Unknown, o.why
			return b, nil
		}
		switch argv[0] {
		case "nft":
			chains = parseNftRuleset(o.stdout)
		case "iptables", "ip6tables":
			cs := parseIptablesS(o.stdout)
			for i := range cs {
				cs[i].Family = map[string]string{"iptables": "ip", "ip6tables": "ip6"}[argv[0]]
			}
			chains = append(chains, cs...)
		case "ufw":
			b.Active, chains = parseUfwStatus(o.stdout)
		case "pfctl":
			if argv[2] == "info" {
				b.Active = parsePfInfo(o.stdout)
			} else {
				chains = parsePfRules(o.stdout)
			}
		}
	}
	b.Chains = len(chains)
	for _, c := range chains {
		b.Rules += len(c.Rules)
		if c.Hook == "input" && c.Policy != "" && b.InputPolicy == "" {
			b.InputPolicy = c.Policy
		}
	}
	if backend == "nft" || backend == "iptables" {
		b.Active = "inactive"
		for _, c := range chains {
			if c.Hook != "" && (len(c.Rules) > 0 || c.Policy == "drop") {
				b.Active = "active"
			}
		}
	}
	return b, chains
}

func (d *Deps) planFirewallStatus(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	backends := d.fwBackends(ctx, t)
	argvs := [][]string{detectArgv("nft", "iptables", "ufw", "pfctl")}
	for _, b := range backends {
		argvs = append(argvs, fwArgv(b, false)...)
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		res := FirewallStatus{Active: Unknown, Backends: []Backend{}}
		if len(backends) == 0 {
			return &relay.Outcome{Status: relay.StatusError, Reason: "no nft, iptables, ufw or pfctl found", Result: res}
		}
		allInactive := true
		for _, name := range backends {
			b, _ := d.readBackend(ctx, t, name, false)
			res.Backends = append(res.Backends, b)
			if b.Active == "active" {
				res.Active = "active"
			}
			if b.Active != "inactive" {
				allInactive = false
			}
		}
		if res.Active != "active" && allInactive {
			res.Active = "inactive"
		}
		return &relay.Outcome{Result: res}
	}}, nil
}

// RulesArgs are firewall_rules' arguments.
type RulesArgs struct {
	Host    string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Backend string `json:"backend,omitempty" jsonschema:"nft, iptables, ufw or pfctl; default: every backend found."`
}

// FirewallRules is firewall_rules' result.
type FirewallRules struct {
	Backends []BackendRules `json:"backends"`
}

// BackendRules are one backend's chains.
type BackendRules struct {
	Backend
	ChainList []Chain `json:"chain_list"`
}

func (d *Deps) planFirewallRules(ctx context.Context, _ *relay.Call, a *RulesArgs) (*relay.Plan, error) {
	switch a.Backend {
	case "", "nft", "iptables", "ufw", "pfctl":
	default:
		return nil, fmt.Errorf("backend %q is not nft, iptables, ufw or pfctl", a.Backend)
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	backends := d.fwBackends(ctx, t)
	if a.Backend != "" {
		backends = []string{a.Backend}
	}
	argvs := [][]string{detectArgv("nft", "iptables", "ufw", "pfctl")}
	for _, b := range backends {
		argvs = append(argvs, fwArgv(b, true)...)
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		res := FirewallRules{Backends: []BackendRules{}}
		if len(backends) == 0 {
			return &relay.Outcome{Status: relay.StatusError, Reason: "no nft, iptables, ufw or pfctl found", Result: res}
		}
		for _, name := range backends {
			b, chains := d.readBackend(ctx, t, name, true)
			if chains == nil {
				chains = []Chain{}
			}
			res.Backends = append(res.Backends, BackendRules{Backend: b, ChainList: chains})
		}
		return &relay.Outcome{Result: res}
	}}, nil
}
