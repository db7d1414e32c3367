package snapshot

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/relay"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// TestReacher reports the local datasets and reuses a report for a
// minute.
func TestReacher(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "s1", "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	rc := NewReacher()
	if got := rc.Report(context.Background()); got != nil {
		t.Fatalf("report before Register = %+v", got)
	}
	d := Deps{
		Sources: []Source{
			{SourceConfig: engine.SourceConfig{Name: "local", Kind: engine.KindDir, Path: dir}},
			{SourceConfig: engine.SourceConfig{Name: "gone", Kind: engine.KindDir, Path: filepath.Join(dir, "missing")}},
		},
		Reach: rc,
		Now:   func() time.Time { return now },
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	if err := Register(relay.New(srv, relay.Options{}), d); err != nil {
		t.Fatal(err)
	}
	got := rc.Report(context.Background())
	if len(got) != 2 || got[0].Dataset != "gone" || len(got[0].Tools) == 0 || got[1].Dataset != "local" || len(got[1].Tools) != 0 {
		t.Fatalf("report = %+v", got)
	}
	// Within a minute the same report is returned, even if the disk changed.
	if err := os.MkdirAll(filepath.Join(dir, "missing", "s1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if again := rc.Report(context.Background()); len(again[0].Tools) == 0 {
		t.Error("report was not reused within the minute")
	}
	now = now.Add(2 * time.Minute)
	if later := rc.Report(context.Background()); len(later[0].Tools) != 0 {
		t.Errorf("after a minute the report was not refreshed: %+v", later[0])
	}
}

// silentHost accepts TCP connections and never says a word, as a host
// whose sshd hangs does; it counts the connections.
func silentHost(t *testing.T) (port int, accepted func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().(*net.TCPAddr).Port, func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(conns)
	}
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

// TestReacherRemote reports the datasets of SSH hosts in server_info,
// probed over the host's connection to a real OpenSSH server: a readable
// source is fully served, a missing one has its tools unavailable (so the
// probe really ran there), a host nothing listens on and a host that
// accepts but never answers are "unknown: <reason>" — the silent one by
// the wait, not by the dial's own 15 s timeout — and a report, unknowns
// included, is reused for a minute.
func TestReacherRemote(t *testing.T) {
	srv := sshd.Start(t, sshd.Options{})
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	silent, accepted := silentHost(t)
	entry := func(name string, port int) sshpool.HostEntry {
		return sshpool.HostEntry{Name: name, Address: "127.0.0.1", Port: port, User: srv.User, IdentityFiles: []string{srv.UserKey.Path}, KnownHostsFile: known}
	}
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: home, LocalUser: srv.User, Hosts: []sshpool.HostEntry{
		entry("box", srv.Port), entry("down", closedPort(t)), entry("hung", silent)}})
	if err != nil {
		t.Fatal(err)
	}
	pool := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { pool.Close() })

	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	if err := os.MkdirAll(filepath.Join(backups, "snap-1", "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 18, 0, 0, 0, time.UTC)
	register := func(wait time.Duration, sources ...Source) *Reacher {
		rc := NewReacher()
		rc.wait = wait
		srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
		if err := Register(relay.New(srv, relay.Options{}), Deps{Sources: sources, Remote: SSHRemote(pool, inv, nil, sshrunner.Options{}),
			Reach: rc, Now: func() time.Time { return now }}); err != nil {
			t.Fatal(err)
		}
		return rc
	}
	dirSource := func(name, host, path string) Source {
		return Source{Host: host, SourceConfig: engine.SourceConfig{Name: name, Kind: engine.KindDir, Path: path}}
	}

	// Hosts that answer, or refuse at once: a wait no loaded machine
	// reaches, so that only the host decides.
	rc := register(time.Minute, dirSource("backups", "box", backups), dirSource("gone", "box", filepath.Join(dir, "missing")),
		dirSource("down", "down", backups), dirSource("here", "", backups))
	got := map[string]engine.Reach{}
	for _, r := range rc.Report(context.Background()) {
		got[r.Dataset] = r
	}
	if r := got["backups"]; r.Status != engine.ReachProbed || r.Host != "box" || len(r.Tools) != 0 || len(r.Probes) != 2 || !r.Probes[0].OK || !r.Probes[1].OK {
		t.Errorf("a readable source on box = %+v, want probed there, every tool served", r)
	}
	unavailable := func(r engine.Reach) []string {
		var out []string
		for _, tr := range r.Tools {
			if tr.Reach == engine.ReachUnavailable {
				out = append(out, tr.Tool)
			}
		}
		return out
	}
	if r := got["gone"]; r.Status != engine.ReachProbed || r.Host != "box" || len(r.Probes) == 0 || r.Probes[0].OK ||
		!slices.Contains(unavailable(r), "snapshot_list") || !slices.Contains(unavailable(r), "file_history") {
		t.Errorf("a missing source on box = %+v, want probed there, its tools unavailable", r)
	}
	if r := got["down"]; !strings.HasPrefix(r.Status, "unknown: host down could not be reached: ") || len(r.Tools) != 0 || r.Host != "down" {
		t.Errorf("a source on a host nothing listens on = %+v, want unknown with the reason", r)
	}
	if r := got["here"]; r.Status != engine.ReachProbed || r.Host != "local" || len(r.Tools) != 0 {
		t.Errorf("the local source = %+v", r)
	}

	// A host that accepts and never answers: the report comes at the
	// wait, the dial still pending.
	rc = register(time.Second, dirSource("stuck", "hung", backups))
	first := rc.Report(context.Background())
	if len(first) != 1 || first[0].Status != "unknown: host hung did not answer within 1s" || first[0].Host != "hung" || len(first[0].Tools) != 0 {
		t.Fatalf("a source on a silent host = %+v, want unknown: did not answer within the wait", first)
	}
	for deadline := time.Now().Add(30 * time.Second); accepted() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the silent host was never dialled")
		}
	}
	// Within the minute the unknown is reused, not probed again.
	if again := rc.Report(context.Background()); len(again) != 1 || &again[0] != &first[0] {
		t.Errorf("report within the minute = %+v, want the cached one", again)
	}
	now = now.Add(2 * time.Minute)
	if later := rc.Report(context.Background()); len(later) != 1 || &later[0] == &first[0] || !strings.HasPrefix(later[0].Status, "unknown: ") {
		t.Errorf("report after a minute = %+v, want a fresh probe, still unknown", later)
	}
}
