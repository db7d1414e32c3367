package fleet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// KeyscanArgs are ssh_keyscan's arguments.
type KeyscanArgs struct {
	Hosts []string `json:"hosts" jsonschema:"Host names or addresses to scan, or inventory names and groups (scanned at their address and port)."`
	Port  int      `json:"port,omitempty" jsonschema:"Port to scan; default 22, or an inventory host's own port."`
}

// ScannedKey is one host key a server offered.
type ScannedKey struct {
	Type        string `json:"type"`
	Fingerprint string `json:"fingerprint" jsonschema:"SHA256 fingerprint, to compare with what the host's console shows."`
	KnownHosts  string `json:"known_hosts_line" jsonschema:"The known_hosts line that would trust this key."`
}

// Scan is one host's keys.
type Scan struct {
	Host    string       `json:"host"`
	Status  string       `json:"status"`
	Address string       `json:"address,omitempty"`
	Keys    []ScannedKey `json:"keys,omitempty"`
	Error   string       `json:"error,omitempty"`
}

// KeyscanResult is ssh_keyscan's result.
type KeyscanResult struct {
	Results []Scan `json:"results"`
	// Note reminds the caller that nothing was trusted.
	Note string `json:"note"`
}

const keyscanNote = "Nothing was trusted or written. A human should compare these fingerprints with the host's own " +
	"(ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub on its console) and only then append the lines to known_hosts."

func (f *Fleet) registerKeyscan(r *relay.Relay) {
	d := &f.d
	relay.AddFanout[KeyscanArgs, KeyscanResult](r, relay.Spec{
		Name: "ssh_keyscan", Title: "Fetch SSH host keys", Tier: policy.TierBenign,
		Description: "Fetch the SSH host keys servers offer, with their fingerprints and known_hosts lines, for a human " +
			"to review. It never authenticates and never writes known_hosts: warden refuses unknown hosts until an " +
			"operator adds their keys.",
		Annotations: &mcp.ToolAnnotations{Title: "Fetch SSH host keys", ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, d.planKeyscan)
}

// scanTarget is one address to scan.
type scanTarget struct {
	name, host string
	port       int
}

func (d *Deps) planKeyscan(ctx context.Context, _ *relay.Call, a *KeyscanArgs) (*relay.FanoutPlan, error) {
	if a.Port < 0 || a.Port > 65535 {
		return nil, fmt.Errorf("port %d is out of range", a.Port)
	}
	if len(a.Hosts) == 0 {
		return nil, errors.New("hosts is empty")
	}
	// Every entry is checked before anything is scanned: a name that
	// another program could read as an option, or that holds shell or
	// control characters, refuses the whole call.
	for _, h := range a.Hosts {
		if err := sshpool.ValidateHost(h); err != nil {
			return nil, fmt.Errorf("hosts: %w", err)
		}
	}
	var targets []scanTarget
	seen := map[string]bool{}
	add := func(t scanTarget) {
		key := net.JoinHostPort(t.host, strconv.Itoa(t.port))
		if !seen[key] {
			seen[key] = true
			targets = append(targets, t)
		}
	}
	for _, h := range a.Hosts {
		if members := d.group(h); len(members) > 0 {
			for _, m := range members {
				if t, err := d.Inventory.Resolve(m); err == nil {
					add(scanTarget{name: m, host: t.Host, port: pick(a.Port, t.Port)})
				}
			}
			continue
		}
		if t, err := d.Inventory.Resolve(h); err == nil {
			add(scanTarget{name: h, host: t.Host, port: pick(a.Port, t.Port)})
			continue
		}
		add(scanTarget{name: h, host: h, port: pick(a.Port, 22)})
	}
	if len(targets) > MaxHosts {
		return nil, fmt.Errorf("hosts: %d to scan; at most %d per call", len(targets), MaxHosts)
	}
	plans := make([]relay.HostPlan, len(targets))
	for i, t := range targets {
		plans[i] = relay.HostPlan{
			Host:  t.name,
			Input: policy.Input{Host: t.name, HostAddrs: []string{t.host}},
			Run: func(ctx context.Context) *relay.Outcome {
				s := Scan{Host: t.name, Address: net.JoinHostPort(t.host, strconv.Itoa(t.port))}
				keys, err := d.Pool.Keyscan(ctx, t.host, t.port)
				if err != nil {
					s.Error = oneLine(err.Error())
					o := relay.Fail(relay.StatusError, "%s", s.Error)
					o.Result = s
					return o
				}
				var lines strings.Builder
				for _, k := range keys {
					s.Keys = append(s.Keys, ScannedKey{Type: k.Type, Fingerprint: k.Fingerprint, KnownHosts: k.Line})
					lines.WriteString(k.Line + "\n")
				}
				return &relay.Outcome{Result: s, Output: []byte(lines.String())}
			},
		}
	}
	return &relay.FanoutPlan{Hosts: plans, Concurrency: DefaultConcurrency, Combine: combineKeyscan}, nil
}

func pick(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func combineKeyscan(results []relay.HostOutcome) *relay.Outcome {
	res := KeyscanResult{Results: make([]Scan, 0, len(results)), Note: keyscanNote}
	var b strings.Builder
	for _, r := range results {
		s, ok := r.Result.(Scan)
		if !ok {
			s = Scan{Host: r.Host, Error: r.Reason}
		}
		s.Status = string(r.Status)
		res.Results = append(res.Results, s)
		if s.Error != "" {
			fmt.Fprintf(&b, "# %s: %s\n", s.Host, s.Error)
			continue
		}
		for _, k := range s.Keys {
			fmt.Fprintf(&b, "# %s (%s) %s %s\n%s\n", s.Host, s.Address, k.Type, k.Fingerprint, k.KnownHosts)
		}
	}
	b.WriteString("# " + keyscanNote)
	return &relay.Outcome{Result: res, Text: b.String()}
}
