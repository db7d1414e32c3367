package hosts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/runner"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Options configure a Set.
type Options struct {
	// Inventory is the SSH inventory; Reload replaces it.
	Inventory *sshpool.Inventory
	// Transports are each inventory host's files_transport; Reload
	// replaces them.
	Transports map[string]remotefs.Transport
	// Pool reaches inventory hosts; the Set closes it.
	Pool *sshpool.Pool
	// Local is this machine, as its programs are started.
	Local Local
	// Env is the base environment of programs on remote hosts (warden's
	// own HOME left out: it means nothing there).
	RemoteEnv []string
	// Prestart is how long a remote command's start may be prepared ahead
	// (ssh.prestart).
	Prestart time.Duration
	Logger   *slog.Logger
}

// Set resolves host names. It is safe for concurrent use; a reload swaps
// the inventory whole, so a call sees the old hosts or the new ones.
type Set struct {
	inv        atomic.Pointer[sshpool.Inventory]
	transports atomic.Pointer[map[string]remotefs.Transport]
	pool       *sshpool.Pool
	files      *remotefs.Picker
	local      *Host
	remoteEnv  []string
	prestart   time.Duration
	log        *slog.Logger

	mu      sync.Mutex
	runners map[string]*sshrunner.Runner
}

// New returns a Set.
func New(o Options) (*Set, error) {
	if o.Inventory == nil || o.Pool == nil {
		return nil, errors.New("hosts: an inventory and a pool are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	local, err := NewLocal(o.Local)
	if err != nil {
		return nil, err
	}
	s := &Set{pool: o.Pool, local: local, remoteEnv: o.RemoteEnv, prestart: o.Prestart, log: o.Logger,
		runners: map[string]*sshrunner.Runner{}}
	s.inv.Store(o.Inventory)
	s.setTransports(o.Transports)
	s.files = remotefs.NewPicker(o.Pool, s.transport, o.Logger)
	return s, nil
}

// Resolve returns the host a call names. This machine resolves without
// work; an inventory name resolves without dialing (the connection is made
// once the call is admitted), in time independent of the inventory's size.
func (s *Set) Resolve(_ context.Context, name string) (*Host, error) {
	if IsLocal(name) {
		return s.local, nil
	}
	t, err := s.inv.Load().Resolve(name)
	if err != nil {
		return nil, fmt.Errorf("host %q: %w (see hosts_list)", name, err)
	}
	return s.remote(t), nil
}

// Reload swaps in a new inventory and files transports, already validated.
func (s *Set) Reload(inv *sshpool.Inventory, transports map[string]remotefs.Transport) {
	s.inv.Store(inv)
	s.setTransports(transports)
}

// Pool is the shared SSH pool, for the tools that manage connections
// themselves (checks, key scans, forwards).
func (s *Set) Pool() *sshpool.Pool { return s.pool }

// Mode is a host's own policy mode, which narrows the global one.
func (s *Set) Mode(name string) policy.Mode {
	if IsLocal(name) {
		return ""
	}
	t, err := s.inv.Load().Resolve(name)
	if err != nil {
		return ""
	}
	m, _ := policy.ParseMode(t.Mode)
	return m
}

// Addrs returns the addresses of a host for host deny rules: none for this
// machine or a name that does not resolve (the call fails on it anyway).
func (s *Set) Addrs(name string) []string {
	if IsLocal(name) {
		return nil
	}
	t, err := s.inv.Load().Resolve(name)
	if err != nil {
		return nil
	}
	return targetAddrs(t)
}

// FilesTransport is how a host's files are reached: sftp or exec for an
// inventory host whose transport is configured or has been picked, else "".
func (s *Set) FilesTransport(name string) string {
	if IsLocal(name) {
		return s.local.files()
	}
	if tr := s.files.Chosen(name); tr != remotefs.Auto {
		return string(tr)
	}
	return ""
}

// Close closes the pool and with it every connection.
func (s *Set) Close() error { return s.pool.Close() }

func (s *Set) setTransports(m map[string]remotefs.Transport) {
	if m == nil {
		m = map[string]remotefs.Transport{}
	}
	s.transports.Store(&m)
}

// transport is a host's configured files_transport; Auto when it has none.
func (s *Set) transport(name string) remotefs.Transport {
	if tr, ok := (*s.transports.Load())[name]; ok {
		return tr
	}
	return remotefs.Auto
}

// runner returns the SSH runner of a target, one per target.
func (s *Set) runner(t sshpool.Target) runner.Runner {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := t.Name + "|" + t.Key()
	r, ok := s.runners[key]
	if !ok {
		r = sshrunner.New(s.pool, t, sshrunner.Options{Logger: s.log, KeepHome: true, Prestart: s.prestart})
		s.runners[key] = r
	}
	return r
}

// targetAddrs lists a target's address and its jump hops', for host deny
// rules: a host reached through a denied hop is denied too.
func targetAddrs(t sshpool.Target) []string {
	addrs := []string{t.Host}
	for _, j := range t.Jump {
		addrs = append(addrs, j.Host)
	}
	return addrs
}

// List lists the current inventory.
func (s *Set) List() []sshpool.Listing { return s.inv.Load().List() }

// Group lists the members of a group in the current inventory.
func (s *Set) Group(group string) []string { return s.inv.Load().Group(group) }

// Target is an inventory host's SSH target, for the tools that manage
// connections themselves.
func (s *Set) Target(name string) (sshpool.Target, error) { return s.inv.Load().Resolve(name) }
