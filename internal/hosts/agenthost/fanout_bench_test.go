package agenthost_test

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// fanoutHosts is how many agent hosts the fan-out benchmark reaches.
const fanoutHosts = 50

// fleet is fanoutHosts loopback sshds, each on an address of its own,
// and an inventory naming them with agent: required.
type fleet struct {
	inv   *sshpool.Inventory
	names []string
	cache string
}

func newFleet(b *testing.B) *fleet {
	if os.Geteuid() != 0 {
		b.Skip("needs root")
	}
	var servers []*sshd.Server
	var key *sshd.Key
	for i := range fanoutHosts {
		srv := sshd.Start(b, sshd.Options{User: testUser, ListenAddress: fmt.Sprintf("127.0.23.%d", 10+i), UserKey: key})
		key = srv.UserKey
		servers = append(servers, srv)
	}
	dir := b.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	known := filepath.Join(dir, "known_hosts")
	if err := sshd.WriteKnownHosts(known, servers...); err != nil {
		b.Fatal(err)
	}
	f := &fleet{}
	var entries []sshpool.HostEntry
	for i, srv := range servers {
		name := fmt.Sprintf("a%02d", i)
		f.names = append(f.names, name)
		entries = append(entries, sshpool.HostEntry{Name: name, Address: srv.Host, Port: srv.Port, User: srv.User,
			IdentityFiles: []string{srv.UserKey.Path}, KnownHostsFile: known, Agent: agenthost.Required})
	}
	var err error
	if f.inv, err = sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: dir, LocalUser: testUser, Hosts: entries}); err != nil {
		b.Fatal(err)
	}
	u, err := user.Lookup(testUser)
	if err != nil {
		b.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	base, err := os.MkdirTemp("/var/lib", "warden-agent-fanout-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	f.cache = filepath.Join(base, "cache")
	os.Mkdir(f.cache, 0o755)
	os.Chown(f.cache, uid, -1)
	return f
}

// set is a fresh pool and host set over the fleet: nothing dialled, no
// agent started.
func (f *fleet) set(b *testing.B) (*hosts.Set, *sshhost.Provider) {
	pool := sshpool.New(sshpool.Options{MaxConns: 4 * fanoutHosts})
	sp, err := sshhost.New(sshhost.Options{Inventory: f.inv, Pool: pool, Env: env})
	if err != nil {
		b.Fatal(err)
	}
	ap, err := agenthost.New(agenthost.Options{SSH: sp, CacheDir: f.cache})
	if err != nil {
		b.Fatal(err)
	}
	return hosts.New(ap, sp), sp
}

// all runs fn for every host at once and returns how long the slowest
// took.
func (f *fleet) all(b *testing.B, fn func(name string) error) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, len(f.names))
	for _, name := range f.names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(name); err != nil {
				errs <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return time.Since(start)
}

// BenchmarkFanout50 runs `uname` on 50 agent hosts at once, beside its
// floor in the same iteration: warm, through running agents vs 50 bare
// sessions on open pooled connections; cold, from nothing dialled and no
// agent running (the build already in the cache) vs 50 dials each
// running one bare session.
func BenchmarkFanout50(b *testing.B) {
	f := newFleet(b)
	ctx := confine.With(context.Background(), confine.Admission{Level: confine.Read, Tool: "fanout"})
	req := runner.Request{Argv: []string{"uname"}, Env: env, Timeout: 60 * time.Second}
	viaAgent := func(set *hosts.Set) func(string) error {
		return func(name string) error {
			h, err := set.Resolve(ctx, name)
			if err != nil {
				return err
			}
			res, err := h.Runner.Run(ctx, req)
			if err == nil && string(res.Stdout) != "Linux\n" {
				err = fmt.Errorf("stdout %q", res.Stdout)
			}
			if err == nil && h.FilesTransport() != "agent" {
				err = fmt.Errorf("not through the agent: %s", h.Confinement)
			}
			return err
		}
	}
	bare := func(sp *sshhost.Provider) func(string) error {
		return func(name string) error {
			t, err := sp.Target(name)
			if err != nil {
				return err
			}
			c, err := sp.Pool().Client(ctx, t)
			if err != nil {
				return err
			}
			s, err := c.NewSession()
			if err != nil {
				return err
			}
			defer s.Close()
			_, err = s.Output("uname")
			return err
		}
	}
	// Upload the build once, so cold runs measure starts, not uploads.
	warmSet, warmSP := f.set(b)
	defer warmSet.Close()
	f.all(b, viaAgent(warmSet))
	f.all(b, bare(warmSP))
	var warm, warmFloor, cold, coldFloor []time.Duration
	for b.Loop() {
		warm = append(warm, f.all(b, viaAgent(warmSet)))
		warmFloor = append(warmFloor, f.all(b, bare(warmSP)))
		set, _ := f.set(b)
		cold = append(cold, f.all(b, viaAgent(set)))
		set.Close()
		_, sp := f.set(b)
		coldFloor = append(coldFloor, f.all(b, bare(sp)))
		sp.Close()
	}
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	w, wf, c, cf := p50(warm), p50(warmFloor), p50(cold), p50(coldFloor)
	b.ReportMetric(w, "warm-ms")
	b.ReportMetric(wf, "warm-floor-ms")
	b.ReportMetric(w/wf, "warm/floor")
	b.ReportMetric(c, "cold-ms")
	b.ReportMetric(cf, "cold-floor-ms")
	b.ReportMetric(c/cf, "cold/floor")
	b.ReportMetric(0, "ns/op")
}
