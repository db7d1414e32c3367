package relay

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// This file is the one admission path: tool calls, each host of a fan-out
// and resource/prompt reads are opened by begin, admitted by admit and
// closed by finish, so the allowed users, the token's tier ceiling, the
// modes, the refusal while the audit log is down, audit-write failures,
// metrics and shutdown accounting cannot drift apart between them.

// admission is the relay's decision on one call, or on one host of a
// fan-out, before anything runs.
type admission struct {
	// verdict is the policy's, its tier raised to the call's least tier.
	verdict policy.Verdict
	mode    policy.Mode
	// decision is what the audit record says: allow, approval_required
	// or denied.
	decision policy.Decision
	// refused, when set, is the outcome to return instead of running.
	refused *Outcome
}

// stamp writes the admission into rec.
func (a admission) stamp(rec *audit.Record) {
	rec.Tier = int(a.verdict.Tier)
	rec.Decision = string(a.decision)
	rec.Reason = a.verdict.Reason
}

// admit decides whether the call c of tool may run on host, in this order,
// failing closed at each step:
//
//  1. the caller must be one of the allowed users (admitCaller);
//  2. in is classified by the policy in force (with its Host defaulted to
//     host) and the tier raised to minTier; a nil in runs no program
//     (a resource or prompt read) and has tier minTier;
//  3. the tier must be within the ceiling of the caller's verified token;
//  4. the narrowest of the global, tool and host modes admits, denies or
//     asks for approval;
//  5. a call of tier >= 2 is refused while the audit log cannot be written,
//     if the operator asked for that — before the approval gate, so no
//     token is issued or spent for a call that could not run.
//
// A refusal carries the call's tier. Approval itself is the caller's next
// step (approve), because a fan-out approves all its hosts at once.
func (r *Relay) admit(ctx context.Context, c *Call, tool, host string, in *policy.Input, minTier policy.Tier) admission {
	a := admission{verdict: policy.Verdict{Tier: minTier}}
	refuse := func(out *Outcome) admission {
		out.tier = a.verdict.Tier
		a.decision, a.refused = policy.Deny, out
		return a
	}
	if out := r.admitCaller(c); out != nil {
		return refuse(out)
	}
	if in != nil {
		q := *in
		if q.Host == "" {
			q.Host = host
		}
		if r.opts.HostRoot != nil && !q.Root {
			q.Root = r.opts.HostRoot(q.Host)
		}
		if r.opts.HostShell != nil && q.HostShell == "" {
			q.HostShell = r.opts.HostShell(q.Host)
		}
		v, err := r.classify.evaluate(ctx, r.currentPolicy(), q, r.opts.ClassifyTimeout)
		if err != nil {
			// Fail closed: a call not classified is refused, and
			// audited at the top tier.
			a.verdict = policy.Verdict{Tier: policy.TierDestructive, Reason: "not classified"}
			return refuse(classifyRefusal(err, r.opts.ClassifyTimeout))
		}
		a.verdict = v
		a.verdict.Tier = max(a.verdict.Tier, minTier)
	}
	if out := r.ceiling(c, a.verdict.Tier); out != nil {
		return refuse(out)
	}
	a.mode = r.mode(tool, host)
	a.decision = policy.Admit(a.mode, a.verdict)
	if a.decision == policy.Deny {
		return refuse(Fail(StatusDenied, "denied by policy (mode %s, tier %d): %s", a.mode, a.verdict.Tier, a.verdict.Reason))
	}
	if a.verdict.Tier >= policy.TierMutate && r.opts.RefuseWhenAuditDown {
		if ok, why := r.AuditHealthy(); !ok {
			return refuse(Fail(StatusDenied, "refused: the audit log cannot be written (%s), so calls of tier %d are not run", why, a.verdict.Tier))
		}
	}
	return a
}

// admitCaller refuses a caller who is not one of the allowed users; nil
// admits it. Paths that plan before they admit call it first as well, so a
// refused caller learns nothing from the planning of its arguments.
func (r *Relay) admitCaller(c *Call) *Outcome {
	if r.allowed != nil && !r.allowed[c.Identity] {
		return Fail(StatusDenied, "identity %q is not in the allowed users", c.Identity)
	}
	return nil
}

// ceiling refuses a call whose tier is above what the caller's verified
// token allows; nil means within the ceiling (or no ceiling).
func (r *Relay) ceiling(c *Call, tier policy.Tier) *Outcome {
	if r.opts.TierCeiling == nil || c.token == nil {
		return nil
	}
	top, ok := r.opts.TierCeiling(c.token)
	if !ok || tier <= top {
		return nil
	}
	return Fail(StatusDenied, "denied: tier %d is above what this token's scope allows (at most tier %d)", tier, top)
}

// begin opens a call of tool: it counts as activity (and holds off a
// graceful shutdown) until end, gets the call's context, which Abort
// cancels, and the Call with a fresh id and the caller's identity. req is
// nil for resource and prompt reads.
func (r *Relay) begin(ctx context.Context, tool string, args json.RawMessage, extra *mcp.RequestExtra, client string, req *mcp.CallToolRequest) (context.Context, *Call, time.Time, func()) {
	r.activity.begin()
	ctx, cancel := r.callContext(ctx)
	c := &Call{
		ID:       newID(),
		Tool:     tool,
		Args:     args,
		Identity: r.identity(extra),
		Client:   client,
		req:      req,
	}
	if extra != nil {
		c.token = extra.TokenInfo
	}
	c.redactArgs(r.opts.MaxArgBytes)
	return ctx, c, r.opts.Now(), func() { cancel(); r.activity.end() }
}

// settle gives an outcome its defaults: a tool that returned nothing
// failed, and one that set no status succeeded.
func settle(out *Outcome) *Outcome {
	if out == nil {
		out = Fail(StatusError, "tool returned no outcome")
	}
	if out.Status == "" {
		out.Status = StatusOK
	}
	return out
}

// finish writes the audit record of a finished call (or fan-out host) and
// reports it to the metrics, with whether the record could be written.
func (r *Relay) finish(ctx context.Context, rec *audit.Record, c *Call, out *Outcome, start time.Time) {
	err := r.record(ctx, rec, c, out, start)
	r.observe(rec, out, start, err)
}
