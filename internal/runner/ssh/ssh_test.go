package ssh

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// testUser logs in to test servers: a user of its own whose login shell
// is /bin/sh, so no dotfile of the machine's accounts runs in tests.
const testUser = "wardentest"

// fixture is one sshd with a pool and target that trust it.
type fixture struct {
	srv    *sshd.Server
	pool   *sshpool.Pool
	target sshpool.Target
}

func newFixture(t testing.TB, opts sshd.Options) *fixture {
	t.Helper()
	s := sshd.Start(t, opts)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(known, s); err != nil {
		t.Fatal(err)
	}
	p := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { p.Close() })
	return &fixture{srv: s, pool: p, target: sshpool.Target{
		Name:            "sshd-" + s.Host,
		Host:            s.Host,
		Port:            s.Port,
		User:            s.User,
		IdentityFiles:   []string{s.UserKey.Path},
		KnownHostsFiles: []string{known},
		HostKeyPolicy:   sshpool.HostKeyStrict,
		Shell:           sshpool.DefaultShell,
	}}
}

func (f *fixture) runner(opts Options) *Runner { return New(f.pool, f.target, opts) }

func suiteOptions() runnertest.Options {
	return runnertest.Options{
		KillGrace:     500 * time.Millisecond,
		ProgressEvery: 200 * time.Millisecond,
		// Through encryption on two cores, 256 MiB takes a while.
		LargeOutput: 64 << 20,
	}
}

// TestConformance runs the runner suite as an ordinary user, for whom
// OpenSSH honours signal requests.
func TestConformance(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		return f.runner(Options{KillGrace: 500 * time.Millisecond, ProgressEvery: 200 * time.Millisecond})
	}, suiteOptions())
}

// TestConformanceRoot runs it as root, for whom OpenSSH refuses signal
// requests ("session signalling requires privilege separation"), so the
// kills must go by process group from a second session.
func TestConformanceRoot(t *testing.T) {
	f := newFixture(t, sshd.Options{})
	if f.srv.User != "root" {
		t.Skip("not running as root")
	}
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		return f.runner(Options{KillGrace: 500 * time.Millisecond, ProgressEvery: 200 * time.Millisecond})
	}, suiteOptions())
}
