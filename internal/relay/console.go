package relay

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/display"
	"github.com/warden-mcp/warden/internal/policy"
)

// Console is what the relay needs of the operator console: a place in the
// queue of calls waiting for a human (approvals.Queue).
type Console interface {
	Open(q approvals.Request) (*approvals.Ticket, error)
	Wait() time.Duration
}

// inputRequiredVersion is the first protocol version in which a server
// may not send its own elicitation request: the client's user is asked
// through an input-required result instead.
const inputRequiredVersion = "2026-07-28"

// approveConsole holds the call for an operator's answer: it waits, telling
// the client it is still waiting, until an operator approves or denies it,
// the approval expires, or the client goes away. With alsoElicit the
// client's user is asked at the same time where the client can be asked
// mid-call; the first answer wins. It returns nil when the call is
// approved.
func (r *Relay) approveConsole(ctx context.Context, c *Call, host string, digest [32]byte, v policy.Verdict, alsoElicit bool, rec *audit.Record) *Outcome {
	if r.opts.Console == nil {
		return Fail(StatusDenied, "tier %d call needs an operator's approval, but no operator console is running (set console.enabled); refused", v.Tier)
	}
	t, err := r.opts.Console.Open(approvals.Request{
		CallID: c.ID, Tool: c.Tool, Host: host, Identity: c.Identity, Client: c.Client,
		Tier: int(v.Tier), Reason: c.redactText(v.Reason), Args: c.shownArgs(r.opts.MaxArgBytes), Digest: digest,
	})
	if err != nil {
		if errors.Is(err, approvals.ErrTooManyPending) {
			return Fail(StatusDenied, "tier %d call needs an operator's approval, but too many calls are already waiting; refused", v.Tier)
		}
		return Fail(StatusDenied, "cannot hold the call for an operator: %v", err)
	}
	defer t.Close()
	rec.Extra["approval_id"] = t.ID()
	wait := r.opts.Console.Wait()
	waitCtx, stop := context.WithCancel(ctx)
	defer stop()
	go r.remind(waitCtx, c, t.ID(), wait)
	if alsoElicit && canElicitNow(c) {
		go r.elicitInto(waitCtx, c, t, v)
	}
	a := t.Wait(ctx)
	if a.Mechanism != "" {
		rec.Extra["approval"] = a.Mechanism
	}
	if a.Approver != "" {
		rec.Extra["approver"] = a.Approver
	}
	if a.Reason != "" {
		rec.Extra["approval_reason"] = a.Reason
	}
	switch a.Verdict {
	case approvals.Approved:
		// The queue binds the answer to the ticket; checking the digest
		// again costs nothing and keeps an answer for another call out
		// whatever the queue does.
		if subtle.ConstantTimeCompare(a.Digest[:], digest[:]) != 1 {
			return Fail(StatusDenied, "the approval was for a different call; refused")
		}
		return nil
	case approvals.Denied:
		reason := a.Reason
		if reason == "" {
			reason = "no reason given"
		}
		return Fail(StatusDenied, "denied by %s: %s", a.Approver, reason)
	case approvals.Expired:
		return Fail(StatusDenied, "approval %s expired: no operator answered within %s, so the call did not run", t.ID(), wait)
	default:
		return Fail(StatusDenied, "the call was cancelled while it waited for an operator's approval; it did not run")
	}
}

// remind tells the client every ProgressEvery that the call is still
// waiting, so that it does not time out, until ctx ends.
func (r *Relay) remind(ctx context.Context, c *Call, id string, wait time.Duration) {
	start := time.Now()
	msg := func() string {
		return fmt.Sprintf("waiting for an operator's approval of %s (id %s; run: warden approvals show %s); %s left",
			c.Tool, id, id, (wait - time.Since(start)).Round(time.Second))
	}
	total := wait.Seconds()
	c.Progress(ctx, 0, msg())
	tick := time.NewTicker(r.opts.ProgressEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			c.Progress(ctx, min(time.Since(start).Seconds(), total), msg())
		}
	}
}

// canElicitNow reports whether the client can be asked mid-call with a
// server-initiated elicitation request.
func canElicitNow(c *Call) bool {
	if c.req == nil || c.req.Session == nil {
		return false
	}
	p := c.req.Session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.ProtocolVersion < inputRequiredVersion
}

// elicitInto asks the client's user about the call and gives the answer to
// the ticket, unless an operator answers first (which ends ctx).
func (r *Relay) elicitInto(ctx context.Context, c *Call, t *approvals.Ticket, v policy.Verdict) {
	res, err := c.req.Session.Elicit(ctx, &mcp.ElicitParams{
		Mode:            "form",
		Message:         elicitMessage(c, v),
		RequestedSchema: approveSchema(),
	})
	if err != nil || ctx.Err() != nil {
		return
	}
	approved, _ := res.Content["approve"].(bool)
	d := approvals.Decision{
		Approve:   res.Action == "accept" && approved,
		Approver:  "user of " + c.Client + " (" + c.Identity + ")",
		Mechanism: string(MechElicit),
	}
	if !d.Approve {
		d.Reason = "the user did not approve the call"
	}
	_ = t.Answer(d)
}

// elicitMessage is what the client's user is shown.
func elicitMessage(c *Call, v policy.Verdict) string {
	// The client shows the message to its user: nothing the agent wrote
	// may drive their terminal or reorder what they read (display).
	return fmt.Sprintf("warden: approve this tier %d call?\ntool: %s\nwhy it needs approval: %s\narguments: %s",
		v.Tier, c.Tool, display.Line(c.redactText(v.Reason)), display.Text(string(c.shownArgs(2048))))
}

// approveSchema is the form the client's user answers.
func approveSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"approve": map[string]any{"type": "boolean", "title": "Run this call", "description": "Tick to run the call once."},
		},
		"required": []string{"approve"},
	}
}

// SetConsole sets Options.Console; call it before serving.
func (r *Relay) SetConsole(c Console) { r.opts.Console = c }
