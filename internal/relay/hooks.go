package relay

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// This file holds the relay's seams for the HTTP edge and the process
// lifecycle: a per-caller tier ceiling from the verified token (applied by
// admit), call observations for metrics, an atomically swappable policy for reloads, and
// an abort that cancels every call still running after the shutdown grace.

// CeilingFunc reports the highest tier a verified caller may reach, and
// whether it has a ceiling at all (stdio callers and the plain
// WARDEN_TOKEN have none beyond the mode).
type CeilingFunc func(*auth.TokenInfo) (policy.Tier, bool)

// Observation is one finished call, for metrics.
type Observation struct {
	// ID, Identity, Host and Tier are the audit record's.
	ID       string
	Identity string
	Host     string
	Tier     int
	Tool     string
	Decision string
	Status   string
	Duration time.Duration
	// AuditFailed reports whether the call's audit record could not be
	// written.
	AuditFailed bool
}

// hooks is the mutable state behind the seams; its zero value is ready.
type hooks struct {
	policy atomic.Pointer[policyBox]
	feed   atomic.Pointer[func(Observation)]

	once   sync.Once
	abort  context.Context
	cancel context.CancelFunc
}

type policyBox struct{ p Policy }

func (h *hooks) init() {
	h.once.Do(func() { h.abort, h.cancel = context.WithCancel(context.Background()) })
}

// SetPolicy swaps the policy every later call is evaluated against. Calls
// already past admission keep the verdict they had. It is how a reload
// changes the rules atomically: a call sees the old policy or the new one,
// never a mixture.
func (r *Relay) SetPolicy(p Policy) {
	if p != nil {
		r.hooks.policy.Store(&policyBox{p})
	}
}

// currentPolicy is the policy in force.
func (r *Relay) currentPolicy() Policy {
	if b := r.hooks.policy.Load(); b != nil {
		return b.p
	}
	return r.opts.Policy
}

// Evaluate classifies in against the policy in force. It is for work a
// call goes on to do after its admission, one step at a time (a SOCKS
// forward's connections), which must meet the same rules.
func (r *Relay) Evaluate(in policy.Input) policy.Verdict {
	return r.currentPolicy().Evaluate(in)
}

// Abort cancels every call in flight and every later one; it is the last
// step of a shutdown whose grace period has run out. Cancelled calls still
// write their audit records.
func (r *Relay) Abort() {
	r.hooks.init()
	r.hooks.cancel()
}

// callContext derives a call's context, cancelled by Abort as well.
func (r *Relay) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	r.hooks.init()
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(r.hooks.abort, cancel)
	return ctx, func() { stop(); cancel() }
}

// observe reports a finished call to Options.Observe.
func (r *Relay) observe(rec *audit.Record, out *Outcome, start time.Time, auditErr error) {
	if r.opts.Observe == nil && r.hooks.feed.Load() == nil {
		return
	}
	ob := Observation{
		ID:          rec.ID,
		Identity:    rec.Identity,
		Host:        rec.Host,
		Tier:        rec.Tier,
		Tool:        rec.Tool,
		Decision:    rec.Decision,
		Status:      string(out.Status),
		Duration:    r.opts.Now().Sub(start),
		AuditFailed: auditErr != nil,
	}
	if r.opts.Observe != nil {
		r.opts.Observe(ob)
	}
	if f := r.hooks.feed.Load(); f != nil {
		(*f)(ob)
	}
}

// SetFeed sets a second observer of finished calls, beside the metrics:
// the operator console's live feed. It must not block.
func (r *Relay) SetFeed(f func(Observation)) {
	if f != nil {
		r.hooks.feed.Store(&f)
	}
}

// SetTierCeiling sets Options.TierCeiling; call it before serving.
func (r *Relay) SetTierCeiling(f CeilingFunc) { r.opts.TierCeiling = f }

// SetObserver sets Options.Observe; call it before serving.
func (r *Relay) SetObserver(f func(Observation)) { r.opts.Observe = f }
