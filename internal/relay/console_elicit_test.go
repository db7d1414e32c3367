package relay

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/policy"
)

// elicitConsoleRig registers a tier 3 tool on a relay whose tier 3 lists
// console and elicit, and connects a 2025-11-25 client whose user answers
// elicitation requests with answer.
func elicitConsoleRig(t *testing.T, answer func(context.Context) (*mcp.ElicitResult, error)) (*rig, *approvals.Queue, *mcp.ClientSession) {
	t.Helper()
	q := approvals.New(approvals.Options{Wait: time.Minute})
	g := newRig(t, func(o *Options) {
		o.Approval = map[policy.Tier][]Mechanism{policy.TierDestructive: {MechConsole, MechElicit}}
		o.Console = q
	})
	g.pol.verdict = policy.Verdict{Tier: policy.TierDestructive, Reason: "rm -rf"}
	type in struct {
		Command string `json:"command"`
	}
	Add[in, struct{}](g.r, Spec{Name: "t3"}, func(ctx context.Context, c *Call, v *in) (*Plan, error) {
		return &Plan{Input: policy.Input{Command: v.Command}, Run: g.run}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := g.r.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(ctx)
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return g, q, cs
}

func statusOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var h struct{ Status string }
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	return h.Status
}

// With [console, elicit] the client's user is asked at once too: their
// answer wins, and the operator's queue is left empty.
func TestConsoleAndElicitUserAnswersFirst(t *testing.T) {
	g, q, cs := elicitConsoleRig(t, func(context.Context) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t3", Arguments: map[string]any{"command": "rm -rf /x"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := statusOf(t, res); s != "ok" || g.runs.Load() != 1 {
		t.Fatalf("status %s runs %d, want ok and one run", s, g.runs.Load())
	}
	rec := g.log.records()[0]
	if rec.Extra["approval"] != "elicit" || rec.Extra["approver"] == nil {
		t.Errorf("record = %+v, want approved through elicit", rec)
	}
	if q.Len() != 0 {
		t.Errorf("%d left in the operator's queue", q.Len())
	}
}

// The operator answers first: the call runs on the console's answer and
// the question to the client's user is withdrawn.
func TestConsoleAndElicitOperatorAnswersFirst(t *testing.T) {
	asked := make(chan struct{}, 1)
	g, q, cs := elicitConsoleRig(t, func(ctx context.Context) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		<-ctx.Done() // the user never answers
		return nil, ctx.Err()
	})
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t3", Arguments: map[string]any{"command": "rm -rf /y"}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-asked
	p := pendingN(t, q, 1)[0]
	if err := q.Answer(p.ID, approvals.Decision{Approve: true, Approver: "local:op", Mechanism: "console", Digest: p.Digest}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res == nil {
		t.FailNow()
	}
	if s := statusOf(t, res); s != "ok" || g.runs.Load() != 1 {
		t.Fatalf("status %s runs %d", s, g.runs.Load())
	}
	if rec := g.log.records()[0]; rec.Extra["approval"] != "console" || rec.Extra["approver"] != "local:op" {
		t.Errorf("record = %+v, want approved by local:op through console", rec)
	}
}
