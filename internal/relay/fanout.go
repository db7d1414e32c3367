package relay

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// MaxFanoutConcurrency bounds how many hosts of one fan-out run at once.
const MaxFanoutConcurrency = 32

// HostPlan is one host's share of a fan-out call. Each host is its own
// policy evaluation: its Input is classified with the host filled in, and
// admitted under that host's mode and the host deny rules.
type HostPlan struct {
	// Host is the inventory name the call targets.
	Host string
	// Input is what the policy evaluates for this host.
	Input policy.Input
	// Tier raises this host's tier above the tool's Spec.Tier.
	Tier policy.Tier
	// Err, when set, means the host could not be planned (not in the
	// inventory, say): it is reported and audited as invalid and nothing
	// runs there.
	Err error
	// Run executes the call on this host; it is called only if the host is
	// admitted.
	Run func(ctx context.Context) *Outcome
}

// FanoutPlan is what a fan-out call will do, decided before anything runs
// on any host.
type FanoutPlan struct {
	Hosts []HostPlan
	// Concurrency bounds hosts run at once (1 to MaxFanoutConcurrency).
	Concurrency int
	// Combine renders the call's result from each host's outcome, in the
	// order of Hosts. Status and reason of the call are the relay's.
	Combine func(results []HostOutcome) *Outcome
}

// HostOutcome is one host's part of a fan-out call as Combine sees it.
type HostOutcome struct {
	Host string
	// Decision is the policy's: allow, approved, denied, or invalid.
	Decision string
	// Tier is the host's classified tier.
	Tier policy.Tier
	// Ran reports whether Run was called.
	Ran bool
	*Outcome
}

// FanoutFunc validates typed arguments and returns the per-host plan.
type FanoutFunc[In any] func(ctx context.Context, c *Call, in *In) (*FanoutPlan, error)

// AddFanout registers a tool whose calls run on several hosts. The
// pipeline runs once per call and once per host:
//
//  1. the caller is identified and the arguments validated and planned;
//  2. every host is admitted on its own, by the same admission as a single
//     call (its input classified, the token's ceiling, that host's mode,
//     the refusal of tier >= 2 while the audit log is down) — before
//     anything runs anywhere;
//  3. refused hosts are reported and audited as denied; if any
//     admitted host needs approval, the whole call (its every argument,
//     hence its host list) goes through the approval gate once, and
//     nothing runs until it is approved;
//  4. admitted hosts run, at most Concurrency at a time, and each writes
//     its own audit record (the call id with ".N" for the Nth host, and
//     extra.fanout naming the call).
//
// A call refused before step 2 (identity, arguments) is audited as one
// record with host "*".
func AddFanout[In, Out any](r *Relay, s Spec, plan FanoutFunc[In]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("relay: input schema of %s: %v", s.Name, err))
	}
	out, err := outputSchema[Out]()
	if err != nil {
		panic(fmt.Sprintf("relay: output schema of %s: %v", s.Name, err))
	}
	r.register(s, in, out, func(a *argSchema) mcp.ToolHandler {
		return r.fanoutHandler(s, func(ctx context.Context, c *Call) (*FanoutPlan, error) {
			var v In
			if err := validate(a, c.Args, &v); err != nil {
				return nil, fmt.Errorf("invalid arguments: %v", err)
			}
			return plan(ctx, c, &v)
		})
	})
}

// fanoutHost is one host's admission, decided before anything runs.
type fanoutHost struct {
	plan     HostPlan
	verdict  policy.Verdict
	decision string
	// approval is the mechanism that approved the call, when this host
	// needed approval.
	approval string
	out      *Outcome
}

func (r *Relay) fanoutHandler(s Spec, plan func(context.Context, *Call) (*FanoutPlan, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, c, start, end := r.begin(ctx, s.Name, req.Params.Arguments, req.Extra, clientOf(req), req)
		defer end()
		callRec := func(out *Outcome, decision string) *mcp.CallToolResult {
			rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: s.Name, Tier: int(s.Tier), Host: "*", Decision: decision}
			r.finish(ctx, &rec, c, out, start)
			return render(out)
		}
		if out := r.admitCaller(c); out != nil {
			return callRec(out, string(policy.Deny)), nil
		}
		if out := unambiguous(c); out != nil {
			return callRec(out, "invalid"), nil
		}
		p, err := plan(ctx, c)
		if err != nil {
			if refused(err) {
				return callRec(Fail(StatusDenied, "%v", err), string(policy.Deny)), nil
			}
			return callRec(Fail(StatusInvalid, "%v", err), "invalid"), nil
		}
		if len(p.Hosts) == 0 {
			return callRec(Fail(StatusInvalid, "no hosts to run on"), "invalid"), nil
		}
		hosts := r.admitHosts(ctx, s, c, p.Hosts)
		out := r.runFanout(ctx, s, c, p, hosts, start)
		return render(out), nil
	}
}

// admitHosts admits every host's plan on its own, through the same
// admission as a single call. Nothing has run yet.
func (r *Relay) admitHosts(ctx context.Context, s Spec, c *Call, plans []HostPlan) []*fanoutHost {
	hosts := make([]*fanoutHost, len(plans))
	for i, hp := range plans {
		h := &fanoutHost{plan: hp}
		hosts[i] = h
		if hp.Err != nil {
			h.decision = "invalid"
			h.out = Fail(StatusInvalid, "%v", hp.Err)
			continue
		}
		a := r.admit(ctx, c, s.Name, hp.Host, &hp.Input, max(s.Tier, hp.Tier))
		h.verdict, h.decision, h.out = a.verdict, string(a.decision), a.refused
	}
	return hosts
}

// runFanout approves, runs and audits the admitted hosts and combines the
// results.
func (r *Relay) runFanout(ctx context.Context, s Spec, c *Call, p *FanoutPlan, hosts []*fanoutHost, start time.Time) *Outcome {
	var need []string
	top := policy.Verdict{}
	admitted := 0
	for _, h := range hosts {
		if h.out != nil {
			continue
		}
		admitted++
		top.Tier = max(top.Tier, h.verdict.Tier)
		if h.decision == string(policy.Approve) {
			need = append(need, fmt.Sprintf("%s: %s", h.plan.Host, h.verdict.Reason))
		}
	}
	var held *Outcome // why admitted hosts do not run, if they do not
	if len(need) > 0 {
		top.Reason = strings.Join(need, "; ")
		rec := audit.Record{}
		held = r.approve(ctx, c, "fanout", top, &rec)
		mech, _ := rec.Extra["approval"].(string)
		for _, h := range hosts {
			if h.out == nil && h.decision == string(policy.Approve) {
				h.approval = mech
				if held == nil {
					h.decision = "approved"
				}
			}
		}
		if held != nil {
			held.tier = top.Tier
			for _, h := range hosts {
				if h.out == nil {
					o := *held
					o.approvalToken, o.inputRequired = "", nil
					h.out = &o
				}
			}
		}
	}

	conc := min(max(p.Concurrency, 1), MaxFanoutConcurrency)
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	results := make([]HostOutcome, len(hosts))
	for i, h := range hosts {
		if h.out != nil {
			r.recordHost(ctx, s, c, i, len(hosts), h, start)
			results[i] = HostOutcome{Host: h.plan.Host, Decision: h.decision, Tier: h.verdict.Tier, Outcome: h.out}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				h.out = Fail(StatusError, "cancelled before it started")
				r.recordHost(ctx, s, c, i, len(hosts), h, start)
				results[i] = HostOutcome{Host: h.plan.Host, Decision: h.decision, Tier: h.verdict.Tier, Outcome: h.out}
				return
			}
			defer func() { <-sem }()
			hostStart := r.opts.Now()
			if h.plan.Run == nil {
				h.out = Fail(StatusError, "internal error: host has no run step")
			} else {
				h.out = h.plan.Run(withAdmission(ctx, s.Name, c.Identity, h.verdict))
			}
			h.out = settle(h.out)
			r.recordHost(ctx, s, c, i, len(hosts), h, hostStart)
			results[i] = HostOutcome{Host: h.plan.Host, Decision: h.decision, Tier: h.verdict.Tier, Ran: true, Outcome: h.out}
		}()
	}
	wg.Wait()

	var out *Outcome
	if p.Combine != nil {
		out = p.Combine(results)
	}
	if out == nil {
		out = &Outcome{}
	}
	out.Status, out.Reason = StatusOK, ""
	switch {
	case held != nil:
		out.Status, out.Reason, out.tier = held.Status, held.Reason, held.tier
		out.approvalToken, out.expires, out.inputRequired = held.approvalToken, held.expires, held.inputRequired
	case admitted == 0:
		out.Status, out.Reason, out.tier = StatusDenied, "no host was admitted: "+refusals(results), top.Tier
		for _, h := range hosts {
			out.tier = max(out.tier, h.verdict.Tier)
		}
	}
	return out
}

// refusals summarises why each host was refused.
func refusals(results []HostOutcome) string {
	var parts []string
	for _, r := range results {
		if r.Outcome != nil && r.Reason != "" {
			parts = append(parts, r.Host+": "+r.Reason)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// recordHost writes one host's audit record.
func (r *Relay) recordHost(ctx context.Context, s Spec, c *Call, i, n int, h *fanoutHost, start time.Time) {
	rec := audit.Record{
		ID:       fmt.Sprintf("%s.%d", c.ID, i+1),
		Identity: c.Identity,
		Client:   c.Client,
		Tool:     s.Name,
		Host:     h.plan.Host,
		Tier:     int(max(h.verdict.Tier, s.Tier)),
		Decision: h.decision,
		Reason:   h.verdict.Reason,
	}
	extra := map[string]any{"fanout": c.ID, "fanout_hosts": n}
	if h.approval != "" {
		extra["approval"] = h.approval
	}
	for k, v := range h.out.Extra {
		extra[k] = v
	}
	o := *h.out
	o.Extra = extra
	r.finish(ctx, &rec, c, &o, start)
}
