package hosts_test

import (
	"context"
	"os"
	"os/user"
	"strconv"
	"testing"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// TestMain lets this test binary be the warden build the agent host
// kind uploads: started as `<binary> agent` on the far side, it serves
// the agent protocol as `warden agent` does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == agent.Arg {
		os.Exit(agent.Main(context.Background(), os.Args[2:], os.Stdin, os.Stdout, os.Stderr, "test"))
	}
	os.Exit(m.Run())
}

// setupAgent serves an OpenSSH host through warden's agent there
// (agent: required, so a fallback to plain SSH fails the suite): this
// test binary uploaded to a cache directory of the login user's.
func setupAgent(t *testing.T, srv *sshd.Server) kind {
	k, _ := setupAgentProvider(t, srv)
	return k
}

// setupAgentProvider is setupAgent that returns the agent provider too.
func setupAgentProvider(t *testing.T, srv *sshd.Server) (kind, *agenthost.Provider) {
	u, err := user.Lookup(suiteUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	name, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	pool, inv, _ := sshpooltest.Server(t, srv, "box")
	cache, err := os.MkdirTemp("", "warden-agent-cache-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	if err := os.Chown(cache, uid, -1); err != nil {
		t.Fatal(err)
	}
	lp, err := localhost.New(localRunners())
	if err != nil {
		t.Fatal(err)
	}
	sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: pool,
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"}})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := agenthost.New(agenthost.Options{SSH: sp, Modes: map[string]string{"box": agenthost.Required}, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	s := hosts.New(lp, ap, sp)
	t.Cleanup(func() { s.Close() })
	h, err := s.Resolve(context.Background(), "box")
	if err != nil || h.Kind != hosts.KindAgent {
		t.Fatalf("box resolves to %+v, %v; want the agent kind", h, err)
	}
	t.Cleanup(func() {
		if h, err := s.Resolve(context.Background(), "box"); err == nil && h.FilesTransport() != "agent" {
			t.Errorf("after the suite box's files went over %q, not the agent (%s)", h.FilesTransport(), h.Confinement)
		}
	})
	return kind{set: s, name: "box", hostname: name, marker: "ssh", dir: fixture(t, "ssh", uid)}, ap
}
