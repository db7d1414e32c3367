package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/tools/exec"
)

// admitAll is a classifier that sees nothing: every command is admitted at
// one tier, so only the kernel stands between the command and the machine.
type admitAll policy.Tier

func (a admitAll) Evaluate(policy.Input) policy.Verdict {
	return policy.Verdict{Tier: policy.Tier(a), Reason: "test: the classifier is out of the loop"}
}

type discard struct{}

func (discard) Append(_ context.Context, r audit.Record) (audit.Record, error) { return r, nil }
func (discard) Healthy() (bool, string)                                        { return true, "" }

// client serves run_command and run_script through the real relay with a
// confined local runner, every call admitted at tier.
func client(t *testing.T, tier policy.Tier, mode policy.Mode, protect ...string) *mcp.ClientSession {
	t.Helper()
	c, err := confine.New(confine.Options{Protect: protect}, confine.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		if os.Getenv("WARDEN_REQUIRE_LANDLOCK") == "1" {
			t.Fatalf("confinement required but unavailable: %s", c.Status().Mechanism)
		}
		t.Skipf("confinement unavailable here: %s", c.Status().Mechanism)
	}
	run := local.New(local.Options{Confine: c})
	srv := mcp.NewServer(&mcp.Implementation{Name: "warden-test"}, nil)
	r := relay.New(srv, relay.Options{Policy: admitAll(tier), Audit: discard{}, Mode: mode})
	exec.Register(r, exec.Deps{
		Limits:    exec.Limits{DefaultTimeout: 20 * time.Second, MaxTimeout: 20 * time.Second, DefaultMaxBytes: 1 << 16, MaxBytes: 1 << 16, MaxStdinBytes: 1 << 16},
		Env:       []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/root", "LANG=C.UTF-8"},
		ScriptDir: t.TempDir(),
		Hosts: func(context.Context, string) (*hosts.Host, error) {
			return &hosts.Host{Name: "local", Kind: hosts.KindLocal, Runner: run, Inspect: run, Shell: "/bin/sh", StageScripts: true}, nil
		},
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// markerDir is a directory outside the temporary ones that the test's user
// may write: only confinement keeps a command out of it.
func markerDir(t *testing.T) string {
	t.Helper()
	for _, base := range []string{"/var/lib", os.Getenv("HOME")} {
		if d, err := os.MkdirTemp(base, "warden-exec-confine-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	t.Skip("no writable directory outside the temporary directories")
	return ""
}

// sneaky are commands that write; the classifier is out of the loop, so
// each is admitted and runs, and only the kernel can refuse the write.
var sneaky = []string{
	`echo pwned > $M/a`,
	`printf x | tee $M/b >/dev/null`,
	`cp /etc/passwd $M/c`,
	`mkdir $M/d`,
	`ln -s /etc/passwd $M/e`,
	`python3 -c 'import sys; open(sys.argv[1]+"/f","w")' $M`,
	`sh -c 'exec 3>$M/g'`,
	`git init -q $M/h`,
	`x='a[$(touch $M/i)]'; bash -c "echo \$(( $x ))"`,
	`awk 'BEGIN { print "x" > ENVIRON["M"] "/j" }'`,
	`sed -n 'w '$M/k /etc/passwd`,
	`find /etc/passwd -fprint $M/l`,
	`dd if=/etc/passwd of=$M/m status=none`,
	`tar -C /etc -cf $M/n.tar passwd`,
	`sort -o $M/o /etc/passwd`,
	`(sleep 0.3; echo late > $M/p) &`,
}

func TestReadAdmittedCommandsCannotWrite(t *testing.T) {
	cs := client(t, policy.TierRead, policy.Readonly)
	m := markerDir(t)
	for _, cmd := range sneaky {
		call(t, cs, "run_command", map[string]any{"command": cmd, "env": map[string]any{"M": m}})
		call(t, cs, "run_script", map[string]any{"script": cmd + "\n", "interpreter": "bash", "env": map[string]any{"M": m}})
	}
	time.Sleep(500 * time.Millisecond) // the background writer's turn
	if entries, _ := os.ReadDir(m); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("commands admitted as reads wrote %v", names)
	}
}

func TestBenignAdmittedCommandsWriteOnlyTemp(t *testing.T) {
	cs := client(t, policy.TierBenign, policy.Guarded)
	m := markerDir(t)
	tmp, err := os.MkdirTemp("/tmp", "warden-exec-temp-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for _, cmd := range sneaky {
		call(t, cs, "run_command", map[string]any{"command": cmd, "env": map[string]any{"M": m}})
	}
	out := call(t, cs, "run_command", map[string]any{"command": "echo ok > $M/a && cat $M/a", "env": map[string]any{"M": tmp}})
	if !strings.HasPrefix(out, "ok\n") {
		t.Errorf("a benign call could not write its temporary directory: %s", out)
	}
	time.Sleep(500 * time.Millisecond)
	if entries, _ := os.ReadDir(m); len(entries) != 0 {
		t.Errorf("commands admitted as benign wrote outside the temporary directories: %d entries", len(entries))
	}
}

func TestApprovedCommandsWriteButNotWardensState(t *testing.T) {
	state := markerDir(t)
	if err := os.WriteFile(filepath.Join(state, "token"), []byte("tok-4e1d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := client(t, policy.TierMutate, policy.Open, state)
	m := markerDir(t)
	out := call(t, cs, "run_command", map[string]any{"command": "echo ok > $M/a && cat $M/a; cat $S/token; rm -f $S/token", "env": map[string]any{"M": m, "S": state}})
	if !strings.HasPrefix(out, "ok\n") || strings.Contains(out, "tok-4e1d") {
		t.Errorf("approved call: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(state, "token")); err != nil || string(b) != "tok-4e1d\n" {
		t.Errorf("an approved call changed warden's state: %q %v", b, err)
	}
}
