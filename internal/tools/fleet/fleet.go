// Package fleet owns the tools that look at and act on many SSH hosts at
// once or on the connections themselves: hosts_list (also the MCP resource
// warden://hosts), hosts_check, fanout, ssh_keyscan, and the port-forward
// tools forward_open, forward_list and forward_close. Every one runs through
// the relay; the multi-host tools through its fan-out path, so each host is
// admitted by policy under its own mode and audited in its own record.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// MaxHosts bounds the hosts one fan-out, check or keyscan may name after
// groups are expanded.
const MaxHosts = 100

// DefaultMaxForwards bounds open port forwards when Deps names no limit.
const DefaultMaxForwards = 16

// Inventory is what the fleet tools need of sshpool.Inventory.
type Inventory interface {
	List() []sshpool.Listing
	Resolve(name string) (sshpool.Target, error)
	Group(group string) []string
}

// Pool is what the fleet tools need of sshpool.Pool.
type Pool interface {
	Check(ctx context.Context, t sshpool.Target) sshpool.CheckResult
	Keyscan(ctx context.Context, host string, port int) ([]sshpool.ScannedKey, error)
	LocalForward(ctx context.Context, t sshpool.Target, bindAddr, remoteAddr string) (*sshpool.Forward, error)
	RemoteForward(ctx context.Context, t sshpool.Target, remoteBind, localAddr string) (*sshpool.Forward, error)
	DynamicForward(ctx context.Context, t sshpool.Target, bindAddr string, allow func(addr string) error) (*sshpool.Forward, error)
}

// Deps is what the fleet tools need from the rest of warden.
type Deps struct {
	Inventory Inventory
	Pool      Pool
	// Groups returns warden.yaml's groups as they stand (a reload swaps
	// them): name to member host names. They add to the groups hosts name
	// themselves in. Nil means none.
	Groups func() map[string][]string
	// Hosts resolves a host to where fanout runs its command, as
	// run_command does.
	Hosts hosts.Resolver
	// Limits are run_command's; fanout applies them per host.
	Limits command.Limits
	// MaxForwards bounds open forwards (DefaultMaxForwards when zero).
	MaxForwards int
	// AllowNonLoopbackForwards lets a forward listen on a non-loopback
	// address; off, only loopback binds are accepted.
	AllowNonLoopbackForwards bool
	// LocalConfinement is what confines programs on this machine, as
	// hosts_list reports it for the local host.
	LocalConfinement string
	// FilesTransport says how a host's files are reached (sftp or exec),
	// or "" while that is not known yet; nil reports nothing.
	FilesTransport func(host string) string
	// Packs are the appliance packs detected on a host, without contacting
	// it (nil until it was probed); nil reports nothing.
	Packs  func(host string) []string
	Now    func() time.Time
	Logger *slog.Logger
}

// Fleet is the registered fleet tools; Close ends every open forward.
type Fleet struct {
	d        Deps
	forwards *forwards
}

// Close closes every open forward.
func (f *Fleet) Close() error { return f.forwards.closeAll() }

// expand turns the hosts argument — inventory names and group names — into
// unique host names in the order given, at most MaxHosts.
func (d *Deps) expand(names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, errors.New("hosts is empty: name inventory hosts or groups (see hosts_list)")
	}
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range names {
		if err := sshpool.ValidateAlias(n); err != nil {
			return nil, fmt.Errorf("hosts: %w", err)
		}
		if members := d.group(n); len(members) > 0 {
			for _, m := range members {
				add(m)
			}
			continue
		}
		add(n)
		if len(out) > MaxHosts {
			break
		}
	}
	if len(out) > MaxHosts {
		return nil, fmt.Errorf("hosts: %d hosts after expanding groups; at most %d per call", len(out), MaxHosts)
	}
	return out, nil
}

// group returns the members of group: warden.yaml's groups entry and the
// hosts that name the group themselves. A host name is never a group.
func (d *Deps) group(name string) []string {
	if _, err := d.Inventory.Resolve(name); err == nil {
		return nil
	}
	members := append([]string(nil), d.groups()[name]...)
	for _, h := range d.Inventory.Group(name) {
		if !slices.Contains(members, h) {
			members = append(members, h)
		}
	}
	return members
}

// groups is warden.yaml's groups now.
func (d *Deps) groups() map[string][]string {
	if d.Groups == nil {
		return nil
	}
	return d.Groups()
}

// groupsByHost indexes warden.yaml's groups by member: host name to the
// groups that list it, each once.
func (d *Deps) groupsByHost() map[string][]string {
	out := map[string][]string{}
	for g, members := range d.groups() {
		for _, m := range members {
			if !slices.Contains(out[m], g) {
				out[m] = append(out[m], g)
			}
		}
	}
	return out
}

// withGroups returns a host's own groups and the warden.yaml groups that
// list it (yaml, from groupsByHost), sorted.
func withGroups(own, yaml []string) []string {
	gs := append([]string(nil), own...)
	for _, g := range yaml {
		if !slices.Contains(gs, g) {
			gs = append(gs, g)
		}
	}
	slices.Sort(gs)
	return gs
}

// ValidateGroups checks warden.yaml's groups against the inventory at
// startup: every member must resolve and no group may share a host's name.
func ValidateGroups(target func(name string) (sshpool.Target, error), groups map[string][]string) error {
	var errs []error
	for g, members := range groups {
		if _, err := target(g); err == nil {
			errs = append(errs, fmt.Errorf("groups: %q is also a host name", g))
		}
		for _, m := range members {
			if _, err := target(m); err != nil {
				errs = append(errs, fmt.Errorf("groups.%s: member %q: %w", g, m, err))
			}
		}
	}
	return errors.Join(errs...)
}

func ptr[T any](v T) *T { return &v }

// addrsOf lists a target's addresses for host deny rules: its own and every
// jump hop's, so a host reached through a denied hop is denied too.
func addrsOf(t sshpool.Target) []string {
	addrs := []string{t.Host}
	for _, j := range t.Jump {
		addrs = append(addrs, j.Host)
	}
	return addrs
}

// oneLine keeps an error message to one line for tables.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
