package relay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/policy"
)

// consoleRig is a relay whose tier 3 calls wait for an operator on a real
// approvals queue.
func consoleRig(t *testing.T, wait time.Duration) (*rig, *approvals.Queue) {
	t.Helper()
	q := approvals.New(approvals.Options{Wait: wait})
	g := newRig(t, func(o *Options) {
		o.Approval = map[policy.Tier][]Mechanism{policy.TierDestructive: {MechConsole}}
		o.Console = q
		o.ProgressEvery = 10 * time.Millisecond
	})
	g.pol.verdict = policy.Verdict{Tier: policy.TierDestructive, Reason: "rm -rf"}
	return g, q
}

// pendingOne waits until n calls wait in q and returns them.
func pendingN(t *testing.T, q *approvals.Queue, n int) []approvals.Pending {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ps := q.List(""); len(ps) == n {
			return ps
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d calls pending, want %d", q.Len(), n)
	return nil
}

// callAsync runs g.call in the background.
func callAsync(g *rig, args map[string]any) <-chan result {
	ch := make(chan result, 1)
	go func() { ch <- g.call(args, nil) }()
	return ch
}

func TestConsoleApproveRunsOnce(t *testing.T) {
	g, q := consoleRig(t, time.Minute)
	done := callAsync(g, map[string]any{"command": "rm -rf /srv/old"})
	p := pendingN(t, q, 1)[0]
	if p.Tool != callTool || p.Tier != 3 || p.Reason != "rm -rf" || !strings.Contains(string(p.Args), "/srv/old") {
		t.Errorf("pending = %+v, want the call's tool, tier, reason and arguments", p)
	}
	if g.runs.Load() != 0 {
		t.Fatal("the call ran before it was approved")
	}
	if err := q.Answer(p.ID, approvals.Decision{Approve: true, Approver: "local:alice (uid 1000)", Mechanism: "console", Digest: p.Digest}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.status != StatusOK || res.ran != 1 {
		t.Fatalf("status %s ran %d, want ok and one run", res.status, res.ran)
	}
	rec := res.recs[0]
	if rec.Decision != "approved" || rec.Extra["approval"] != "console" || rec.Extra["approver"] != "local:alice (uid 1000)" || rec.Extra["approval_id"] != p.ID {
		t.Errorf("audit record = %+v, want approved by local:alice through console", rec)
	}
	if err := q.Answer(p.ID, approvals.Decision{Approve: true}); !errors.Is(err, approvals.ErrUnknown) {
		t.Errorf("second answer: %v, want ErrUnknown", err)
	}
}

func TestConsoleDenyCarriesReason(t *testing.T) {
	g, q := consoleRig(t, time.Minute)
	done := callAsync(g, map[string]any{"command": "x"})
	p := pendingN(t, q, 1)[0]
	if err := q.Answer(p.ID, approvals.Decision{Approver: "local:bob", Mechanism: "console", Reason: "not on a Friday"}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.status != StatusDenied || res.ran != 0 || !strings.Contains(res.reason, "not on a Friday") || !strings.Contains(res.reason, "local:bob") {
		t.Fatalf("status %s reason %q ran %d, want denied by local:bob with the reason", res.status, res.reason, res.ran)
	}
	if rec := res.recs[0]; rec.Status != "denied" || rec.Extra["approver"] != "local:bob" || rec.Extra["approval_reason"] != "not on a Friday" {
		t.Errorf("audit record = %+v", rec)
	}
}

// An approval is bound to its call: the answer for A, or A's digest, never
// lets B run.
func TestConsoleApprovalForAOnlyApprovesA(t *testing.T) {
	g, q := consoleRig(t, time.Minute)
	doneA := callAsync(g, map[string]any{"command": "rm -rf /a"})
	pa := pendingN(t, q, 1)[0]
	doneB := callAsync(g, map[string]any{"command": "rm -rf /b"})
	ps := pendingN(t, q, 2)
	pb := ps[0]
	if pb.ID == pa.ID {
		pb = ps[1]
	}
	if pa.Digest == pb.Digest {
		t.Fatal("two different calls share a digest")
	}
	// The operator was shown A but the answer names B's id.
	if err := q.Answer(pb.ID, approvals.Decision{Approve: true, Digest: pa.Digest}); !errors.Is(err, approvals.ErrMismatch) {
		t.Fatalf("answer for B with A's digest: %v, want ErrMismatch", err)
	}
	if err := q.Answer(pa.ID, approvals.Decision{Approve: true, Digest: pa.Digest}); err != nil {
		t.Fatal(err)
	}
	if res := <-doneA; res.status != StatusOK {
		t.Fatalf("A: %s %s", res.status, res.reason)
	}
	if err := q.Answer(pb.ID, approvals.Decision{Approve: false, Reason: "no"}); err != nil {
		t.Fatal(err)
	}
	// B's run count includes A's, which ran while B waited; the total
	// below says B never ran.
	if res := <-doneB; res.status != StatusDenied {
		t.Fatalf("B: %s, want denied", res.status)
	}
	if n := g.runs.Load(); n != 1 {
		t.Errorf("%d runs, want 1 (A only)", n)
	}
}

func TestConsoleExpiredFailsClosed(t *testing.T) {
	g, q := consoleRig(t, 50*time.Millisecond)
	res := g.call(map[string]any{"command": "x"}, nil)
	if res.status != StatusDenied || res.ran != 0 || !strings.Contains(res.reason, "expired") {
		t.Fatalf("status %s reason %q ran %d, want denied as expired", res.status, res.reason, res.ran)
	}
	if q.Len() != 0 {
		t.Errorf("%d approvals left pending after expiry", q.Len())
	}
	if id, _ := res.recs[0].Extra["approval_id"].(string); id == "" {
		t.Error("the expired call's record does not name its approval")
	} else if err := q.Answer(id, approvals.Decision{Approve: true}); !errors.Is(err, approvals.ErrUnknown) {
		t.Errorf("approving an expired call: %v, want ErrUnknown", err)
	}
}

// The waiting call's client goes away: the call is refused, audited, and
// leaves nothing pending that an operator could approve for no one.
func TestConsoleCancelLeavesNoOrphan(t *testing.T) {
	g, q := consoleRig(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	h := g.r.handler(Spec{Name: callTool}, func(raw json.RawMessage) (any, error) { return map[string]any{}, nil },
		func(ctx context.Context, c *Call, v any) (*Plan, error) {
			return &Plan{Input: policy.Input{Command: "cmd"}, Run: g.run}, nil
		})
	done := make(chan error, 1)
	go func() {
		_, err := h(ctx, req(callTool, map[string]any{"command": "x"}, nil))
		done <- err
	}()
	p := pendingN(t, q, 1)[0]
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if q.Len() != 0 {
		t.Fatalf("%d approvals pending after the client went away", q.Len())
	}
	if err := q.Answer(p.ID, approvals.Decision{Approve: true}); !errors.Is(err, approvals.ErrUnknown) {
		t.Errorf("approving a withdrawn call: %v, want ErrUnknown", err)
	}
	recs := g.log.records()
	if len(recs) != 1 || recs[0].Status != "denied" || !strings.Contains(recs[0].Reason, "cancelled") || g.runs.Load() != 0 {
		t.Errorf("records %+v runs %d, want one denied (cancelled) record and no run", recs, g.runs.Load())
	}
}

func TestConsoleWithoutConsoleRefuses(t *testing.T) {
	g := newRig(t, func(o *Options) {
		o.Approval = map[policy.Tier][]Mechanism{policy.TierDestructive: {MechConsole}}
	})
	g.pol.verdict = policy.Verdict{Tier: policy.TierDestructive, Reason: "rm"}
	res := g.call(map[string]any{"command": "x"}, nil)
	if res.status != StatusDenied || res.ran != 0 || !strings.Contains(res.reason, "no operator console") {
		t.Fatalf("status %s reason %q, want denied: no console", res.status, res.reason)
	}
}

func TestConsoleTooManyPending(t *testing.T) {
	q := approvals.New(approvals.Options{Wait: time.Minute, MaxPending: 1})
	g := newRig(t, func(o *Options) {
		o.Approval = map[policy.Tier][]Mechanism{policy.TierDestructive: {MechConsole}}
		o.Console = q
	})
	g.pol.verdict = policy.Verdict{Tier: policy.TierDestructive, Reason: "rm"}
	first := callAsync(g, map[string]any{"command": "a"})
	p := pendingN(t, q, 1)[0]
	res := g.call(map[string]any{"command": "b"}, nil)
	if res.status != StatusDenied || !strings.Contains(res.reason, "too many") {
		t.Fatalf("second call: %s %q, want denied: too many waiting", res.status, res.reason)
	}
	_ = q.Answer(p.ID, approvals.Decision{})
	<-first
}
