package snapshot

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// zfsAnswers answers the pinned listing of tank/home and fails every other
// command, and records what it was asked.
type zfsAnswers struct {
	mu  sync.Mutex
	ran []string
}

func (z *zfsAnswers) Run(_ context.Context, req runner.Request) (runner.Result, error) {
	line := strings.Join(req.Argv, " ")
	z.mu.Lock()
	z.ran = append(z.ran, line)
	z.mu.Unlock()
	if strings.HasPrefix(line, "zfs list -H -p -o name,creation,used,referenced") {
		return runner.Result{Stdout: []byte("tank/home@s1\t1761966000\t0\t1\ntank/home@s2\t1762052400\t0\t1\n")}, nil
	}
	return runner.Result{ExitCode: 1, Stderr: []byte("not scripted")}, nil
}

func (z *zfsAnswers) ran1(prefix string) bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	for _, l := range z.ran {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

type auditList struct {
	mu   sync.Mutex
	recs []audit.Record
}

func (a *auditList) Append(_ context.Context, r audit.Record) (audit.Record, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, r)
	return r, nil
}

func (a *auditList) Healthy() (bool, string) { return true, "" }

// TestProbeDenyRules: every command a snapshot tool runs is shown to the
// policy, so an operator deny rule on zpool refuses snapshot_pools and one
// on zfs get refuses size_delta — audited as denied, with nothing run —
// while the dataset's other tools, which run neither, are still served;
// and the whole probe list is tier 0, so readonly mode admits it.
func TestProbeDenyRules(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		deny      string
		tool      string
		args      map[string]any
		notRun    string
		stillRuns string
	}{
		"zpool":   {`^zpool\b`, "snapshot_pools", map[string]any{"dataset": "home"}, "zpool", "snapshot_list"},
		"zfs get": {`^zfs get\b`, "size_delta", map[string]any{"dataset": "home", "from": "s1", "to": "s2"}, "zfs get", "snapshot_list"},
	} {
		t.Run(name, func(t *testing.T) {
			pol, err := policy.New(policy.Rules{Deny: []string{c.deny}})
			if err != nil {
				t.Fatal(err)
			}
			rec := &auditList{}
			srv := mcp.NewServer(&mcp.Implementation{Name: "probes", Version: "1"}, nil)
			r := relay.New(srv, relay.Options{Policy: pol, Audit: rec, Mode: policy.Readonly})
			run := &zfsAnswers{}
			if err := Register(r, Deps{Runner: run, Sources: []Source{{SourceConfig: engine.SourceConfig{Name: "home", Kind: engine.KindZFS, Path: dir, Dataset: "tank/home"}}}}); err != nil {
				t.Fatal(err)
			}
			cs := connect(t, srv)
			res := callTool(t, cs, c.tool, c.args)
			if !res.IsError || !strings.Contains(text(res), "denied") {
				t.Errorf("%s under deny %q: %s", c.tool, c.deny, text(res))
			}
			if run.ran1(c.notRun) {
				t.Errorf("%s ran although denied", c.notRun)
			}
			if last := rec.recs[len(rec.recs)-1]; last.Tool != c.tool || last.Decision != "denied" {
				t.Errorf("audit = %s %s, want %s denied", last.Tool, last.Decision, c.tool)
			}
			if res := callTool(t, cs, c.stillRuns, map[string]any{"dataset": "home"}); res.IsError {
				t.Errorf("%s refused under deny %q: %s", c.stillRuns, c.deny, text(res))
			}
		})
	}
	// Without a deny rule, readonly admits every probe of each tool.
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []engine.SourceConfig{
		{Kind: engine.KindZFS, Path: "/tank/home", Dataset: "tank/home"},
		{Kind: engine.KindBtrfs, Path: "/srv/.snapshots"},
	} {
		for _, tool := range []string{"snapshot_list", "size_delta", "snapshot_pools"} {
			in := probeInput(src, &zfsAnswers{}, tool, "s1", engine.LiveSnapshot)
			if d := policy.Admit(policy.Readonly, pol.Evaluate(in)); d != policy.Allow {
				t.Errorf("%s %s: readonly decision %s for %+v", src.Kind, tool, d, in)
			}
			if tool != "snapshot_list" && !strings.Contains(in.Command, "\n") {
				t.Errorf("%s %s: input %+v names one command, want each it runs", src.Kind, tool, in)
			}
		}
	}
}

func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.StructuredContent != nil {
		j, _ := json.Marshal(res.StructuredContent)
		b.Write(j)
	}
	return b.String()
}
