package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// stuckPolicy's evaluations of a command named stuck wait until release
// is closed, as the classifier's file lookups on a mount that does not
// answer wait in the kernel; any other command is read-only.
type stuckPolicy struct {
	stuck   string
	release chan struct{}
}

func (p *stuckPolicy) Evaluate(in policy.Input) policy.Verdict {
	if in.Command == p.stuck {
		<-p.release
	}
	return policy.Verdict{Tier: policy.TierRead, Reason: "read-only"}
}

// TestClassificationBounded: a call whose classification does not finish
// within ClassifyTimeout is refused, audited as a refusal at tier 3, and
// runs nothing — through a tool call and each host of a fan-out — while
// other calls are classified and run meanwhile; once the evaluation ends,
// the same call runs.
func TestClassificationBounded(t *testing.T) {
	pol := &stuckPolicy{stuck: "cmd", release: make(chan struct{})}
	defer func() {
		select {
		case <-pol.release:
		default:
			close(pol.release)
		}
	}()
	const timeout = 200 * time.Millisecond
	g := newRig(t, func(o *Options) {
		o.Policy = pol
		o.Mode = policy.Open
		o.ClassifyTimeout = timeout
	})

	start := time.Now()
	res := g.call(map[string]any{}, nil)
	if res.status != StatusDenied || !strings.Contains(res.reason, "classifying the call did not finish within 200ms") || res.ran != 0 {
		t.Fatalf("a call whose classification hangs: %+v; want it refused, nothing run", res)
	}
	if waited := time.Since(start); waited > 30*time.Second {
		t.Errorf("the refusal took %s", waited)
	}
	if len(res.recs) != 1 || res.recs[0].Decision != string(policy.Deny) || res.recs[0].Tier != int(policy.TierDestructive) || res.recs[0].Status != string(StatusDenied) {
		t.Errorf("audit records %+v; want one refusal at tier 3", res.recs)
	}

	var hosts []HostOutcome
	res = g.fanout([]string{"a", "b"}, map[string]any{}, nil, &hosts)
	if res.ran != 0 || len(hosts) != 2 {
		t.Fatalf("a fan-out whose classifications hang: %+v, hosts %+v; want nothing run", res, hosts)
	}
	for _, h := range hosts {
		if h.Ran || h.Outcome == nil || h.Status != StatusDenied || !strings.Contains(h.Reason, "did not finish") {
			t.Errorf("host %s: %+v; want it refused as not classified", h.Host, h)
		}
	}

	// Other commands are classified and run while three evaluations wait.
	other := g.r.handler(Spec{Name: callTool}, func(json.RawMessage) (any, error) { return nil, nil },
		func(_ context.Context, _ *Call, _ any) (*Plan, error) {
			return &Plan{Input: policy.Input{Command: "other"}, Run: g.run}, nil
		})
	if res := g.tool(other, callTool, map[string]any{}, nil); res.status != StatusOK || res.ran != 1 {
		t.Fatalf("another command while classifications hang: %+v; want it run", res)
	}

	// A call that ends while it is classified (its client cancelled it)
	// is refused as well, and runs nothing.
	stuck := g.r.handler(Spec{Name: callTool}, func(json.RawMessage) (any, error) { return nil, nil },
		func(_ context.Context, _ *Call, _ any) (*Plan, error) {
			return &Plan{Input: policy.Input{Command: "cmd"}, Run: g.run}, nil
		})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	r, err := stuck(ctx, req(callTool, map[string]any{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsError || !strings.Contains(fmt.Sprintf("%s", r.StructuredContent), "ended while it was classified") || g.runs.Load() != 1 {
		t.Errorf("a call cancelled while classified: %s; want it refused, nothing run", r.StructuredContent)
	}

	close(pol.release)
	if res := g.call(map[string]any{}, nil); res.status != StatusOK || res.ran != 1 {
		t.Fatalf("the same call once its classification ends: %+v; want it run", res)
	}
}
