package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// TestFanoutHostDeniedWhileAnotherRuns: each host is its own admission; a
// denied host is reported and audited as denied and nothing runs there,
// while the admitted host runs and is audited as allowed.
func TestFanoutHostDeniedWhileAnotherRuns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   func(*Options)
		audit  func(*fakeAudit)
		byHost map[string]policy.Verdict
		reason string // the bad host's
	}{{
		name:   "deny rule",
		byHost: map[string]policy.Verdict{"bad": {Tier: 0, Denied: true, Reason: "host denied by rule"}},
		reason: "host denied by rule",
	}, {
		name: "host mode",
		opts: func(o *Options) {
			o.HostMode = func(h string) policy.Mode { return map[string]policy.Mode{"bad": policy.Readonly}[h] }
		},
		byHost: map[string]policy.Verdict{"bad": {Tier: 1}, "good": {Tier: 1}},
		reason: "mode readonly",
	}, {
		name:   "audit down and the host's tier is 2",
		opts:   func(o *Options) { o.Mode, o.RefuseWhenAuditDown = policy.Open, true },
		audit:  func(a *fakeAudit) { a.down = "disk full" },
		byHost: map[string]policy.Verdict{"bad": {Tier: 2}},
		reason: "audit log cannot be written",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRig(t, tc.opts)
			g.pol.byHost = tc.byHost
			if tc.audit != nil {
				tc.audit(g.log)
			}
			var hosts []HostOutcome
			got := g.fanout([]string{"bad", "good"}, map[string]any{"x": 1}, nil, &hosts)
			if got.status != StatusOK || got.ran != 1 {
				t.Errorf("call: status %s (%s), ran %d; want ok, ran 1", got.status, got.reason, got.ran)
			}
			if len(hosts) != 2 {
				t.Fatalf("%d host outcomes, want 2", len(hosts))
			}
			if h := hosts[0]; h.Host != "bad" || h.Ran || h.Status != StatusDenied || h.Decision != "denied" || !strings.Contains(h.Reason, tc.reason) {
				t.Errorf("bad: %+v %+v", h, h.Outcome)
			}
			if h := hosts[1]; h.Host != "good" || !h.Ran || h.Status != StatusOK || h.Decision != "allow" {
				t.Errorf("good: %+v %+v", h, h.Outcome)
			}
			if len(got.recs) != 2 || len(got.obs) != 2 {
				t.Fatalf("%d records and %d observations, want 2 each", len(got.recs), len(got.obs))
			}
			byHost := map[string]audit.Record{}
			for _, r := range got.recs {
				byHost[r.Host] = r
			}
			bad, good := byHost["bad"], byHost["good"]
			if bad.Decision != "denied" || bad.Status != "denied" || !strings.Contains(bad.Reason, tc.reason) {
				t.Errorf("bad's record: %+v", bad)
			}
			if good.Decision != "allow" || good.Status != "ok" || good.OutputLen != int64(len("ran")) {
				t.Errorf("good's record: %+v", good)
			}
			call := strings.TrimSuffix(bad.ID, ".1")
			if bad.ID != call+".1" || good.ID != call+".2" || bad.Extra["fanout"] != call || good.Extra["fanout"] != call || good.Extra["fanout_hosts"] != 2 {
				t.Errorf("records do not name their fan-out: %+v %+v", bad, good)
			}
		})
	}
}

// TestReadAdmittedAsTierZero reads a resource and fetches a prompt through
// a real MCP server: each is admitted as a tier 0 read, even in readonly
// mode and with a policy that denies every program (a read runs none), and
// audited with the digest of what was served.
func TestReadAdmittedAsTierZero(t *testing.T) {
	g := newRig(t, func(o *Options) { o.Mode = policy.Readonly })
	g.pol.verdict = policy.Verdict{Tier: 3, Denied: true, Reason: "denies everything"}
	server := g.r.server
	g.r.AddResource(&mcp.Resource{URI: "warden://test", Name: "test"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "warden://test", Text: readText}}}, nil
	})
	g.r.AddPrompt(&mcp.Prompt{Name: "guide"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "warden://test"}); err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "guide"}); err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	digest := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	for i, w := range []struct{ tool, served, args string }{
		{"resource:warden://test", "warden://test\n" + readText, `{"uri":"warden://test"}`},
		{"prompt:guide", "user:hello\n", ""},
	} {
		recs := g.log.records()
		if len(recs) != 2 {
			t.Fatalf("%d records, want 2", len(recs))
		}
		r := recs[i]
		if r.Tool != w.tool || r.Host != "local" || r.Tier != 0 || r.Decision != "allow" || r.Status != "ok" || r.Client != "c/1" {
			t.Errorf("record %d: %+v", i, r)
		}
		if r.OutputSHA256 != digest(w.served) || r.OutputLen != int64(len(w.served)) {
			t.Errorf("%s: output %s/%d, want the digest of %q", w.tool, r.OutputSHA256, r.OutputLen, w.served)
		}
		if w.args != "" && string(r.Args) != w.args {
			t.Errorf("%s: args %s, want %s", w.tool, r.Args, w.args)
		}
	}
	if n := g.pol.asked(); n != 0 {
		t.Errorf("the policy was asked %d times for reads", n)
	}
	if obs := g.observations(); len(obs) != 2 || obs[0].Tool != "resource:warden://test" || obs[1].Tool != "prompt:guide" {
		t.Errorf("observations: %+v", obs)
	}
}

// TestShutdownAccounting: on every path, whatever runs counts as a call in
// flight (so a graceful shutdown waits for it) and is cancelled by Abort,
// and its outcome is still audited.
func TestShutdownAccounting(t *testing.T) {
	for _, p := range paths {
		t.Run(string(p), func(t *testing.T) {
			g := newRig(t, nil)
			var inflight int
			var cancelled bool
			work := func(ctx context.Context) {
				_, inflight = g.r.Activity().Last()
				g.r.Abort()
				select {
				case <-ctx.Done():
					cancelled = true
				case <-time.After(10 * time.Second):
				}
			}
			switch p {
			case pathRead:
				err := g.r.read(context.Background(), readRequest{name: readName, what: "resource read"}, func(ctx context.Context) (string, error) {
					work(ctx)
					return "", ctx.Err()
				})
				if err == nil {
					t.Error("a cancelled read returned no error")
				}
			default:
				run := func(ctx context.Context) *Outcome {
					work(ctx)
					return Fail(StatusError, "cancelled")
				}
				var h mcp.ToolHandler
				if p == pathCall {
					h = g.r.handler(Spec{Name: callTool}, func(json.RawMessage) (any, error) { return nil, nil },
						func(context.Context, *Call, any) (*Plan, error) { return &Plan{Run: run}, nil })
				} else {
					h = g.r.fanoutHandler(Spec{Name: fanoutTool}, func(context.Context, *Call) (*FanoutPlan, error) {
						return &FanoutPlan{Hosts: []HostPlan{{Host: "h1", Run: run}}}, nil
					})
				}
				if _, err := h(context.Background(), req(toolOf(p), nil, nil)); err != nil {
					t.Fatal(err)
				}
			}
			if inflight != 1 || !cancelled {
				t.Errorf("while running: %d in flight (want 1), cancelled by Abort: %v", inflight, cancelled)
			}
			if _, n := g.r.Activity().Last(); n != 0 {
				t.Errorf("%d calls in flight after the call returned", n)
			}
			if recs := g.log.records(); len(recs) != 1 || recs[0].Status != string(StatusError) {
				t.Errorf("records after Abort: %+v", recs)
			}
		})
	}
}
