package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/policy"
)

// The tests in this file drive the relay's three entry points — a tool
// call, a fan-out and a resource read — through the one admission path
// with a fake policy, a fake audit log and an injected clock.

// fakePolicy returns verdict for every input, or byHost[in.Host] when set,
// and remembers what it was asked.
type fakePolicy struct {
	mu      sync.Mutex
	verdict policy.Verdict
	byHost  map[string]policy.Verdict
	inputs  []policy.Input
}

func (p *fakePolicy) Evaluate(in policy.Input) policy.Verdict {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inputs = append(p.inputs, in)
	if v, ok := p.byHost[in.Host]; ok {
		return v
	}
	return p.verdict
}

func (p *fakePolicy) asked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.inputs)
}

// fakeAudit keeps the records appended to it. fail makes every Append
// fail; down makes Healthy report the log unwritable (Append still keeps
// the record, so tests can read what would have been written).
type fakeAudit struct {
	mu   sync.Mutex
	recs []audit.Record
	fail error
	down string
}

func (a *fakeAudit) Append(_ context.Context, r audit.Record) (audit.Record, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail != nil {
		return r, a.fail
	}
	a.recs = append(a.recs, r)
	return r, nil
}

func (a *fakeAudit) Healthy() (bool, string) {
	if a.down != "" {
		return false, a.down
	}
	return true, ""
}

func (a *fakeAudit) records() []audit.Record {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]audit.Record(nil), a.recs...)
}

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const tokenTTL = 5 * time.Minute

// rig is a relay wired to fakes.
type rig struct {
	t     *testing.T
	r     *Relay
	pol   *fakePolicy
	log   *fakeAudit
	clock *clock
	// least is the least tier of the test tool and fan-out.
	least policy.Tier

	mu       sync.Mutex
	obs      []Observation
	runs     atomic.Int32
	admitted []confine.Admission // what each Run was handed
}

func newRig(t *testing.T, opts func(*Options)) *rig {
	t.Helper()
	g := &rig{
		t:     t,
		pol:   &fakePolicy{verdict: policy.Verdict{Tier: policy.TierRead, Reason: "fake read"}},
		log:   &fakeAudit{},
		clock: &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
	}
	o := Options{
		Policy:   g.pol,
		Audit:    g.log,
		Mode:     policy.Guarded,
		TokenTTL: tokenTTL,
		Now:      g.clock.Now,
		Observe: func(ob Observation) {
			g.mu.Lock()
			g.obs = append(g.obs, ob)
			g.mu.Unlock()
		},
	}
	if opts != nil {
		opts(&o)
	}
	g.r = New(mcp.NewServer(&mcp.Implementation{Name: "test"}, nil), o)
	return g
}

func (g *rig) observations() []Observation {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Observation(nil), g.obs...)
}

// run is the Run of every test plan.
func (g *rig) run(ctx context.Context) *Outcome {
	g.runs.Add(1)
	a, _ := confine.From(ctx)
	g.mu.Lock()
	g.admitted = append(g.admitted, a)
	g.mu.Unlock()
	return &Outcome{Text: "ran"}
}

// path is one of the relay's entry points.
type path string

const (
	pathCall   path = "call"
	pathFanout path = "fanout"
	pathRead   path = "read"
)

var paths = []path{pathCall, pathFanout, pathRead}

// Names the paths audit their calls under.
const (
	callTool   = "t"
	fanoutTool = "fan"
	readName   = "resource:warden://test"
	readText   = "served text"
)

// result is what one call through a path produced.
type result struct {
	status Status
	reason string
	tier   int // the tier the agent is shown (audited tier for reads)
	token  string
	ran    int
	recs   []audit.Record // written during the call
	obs    []Observation  // observed during the call
	err    error          // a read's error
}

// req builds a tool call request.
func req(tool string, args map[string]any, token *auth.TokenInfo) *mcp.CallToolRequest {
	raw, _ := json.Marshal(args)
	return &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: tool, Arguments: raw},
		Extra:  &mcp.RequestExtra{TokenInfo: token},
	}
}

// call runs one call of the test tool: its plan runs "cmd" on local.
func (g *rig) call(args map[string]any, token *auth.TokenInfo) result {
	h := g.r.handler(Spec{Name: callTool, Tier: g.least}, func(raw json.RawMessage) (any, error) {
		m := map[string]any{}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		delete(m, approvalTokenArg)
		return m, nil
	}, func(ctx context.Context, c *Call, v any) (*Plan, error) {
		return &Plan{Input: policy.Input{Command: "cmd"}, Run: g.run}, nil
	})
	return g.tool(h, callTool, args, token)
}

// fanout runs one fan-out of "cmd" over hosts; combined receives the
// per-host outcomes.
func (g *rig) fanout(hosts []string, args map[string]any, token *auth.TokenInfo, combined *[]HostOutcome) result {
	h := g.r.fanoutHandler(Spec{Name: fanoutTool, Tier: g.least}, func(ctx context.Context, c *Call) (*FanoutPlan, error) {
		p := &FanoutPlan{Concurrency: 2, Combine: func(rs []HostOutcome) *Outcome {
			if combined != nil {
				*combined = rs
			}
			return &Outcome{}
		}}
		for _, h := range hosts {
			p.Hosts = append(p.Hosts, HostPlan{Host: h, Input: policy.Input{Command: "cmd"}, Run: g.run})
		}
		return p, nil
	})
	return g.tool(h, fanoutTool, args, token)
}

func (g *rig) tool(h mcp.ToolHandler, name string, args map[string]any, token *auth.TokenInfo) result {
	g.t.Helper()
	recs0, obs0, runs0 := len(g.log.records()), len(g.observations()), g.runs.Load()
	res, err := h(context.Background(), req(name, args, token))
	if err != nil {
		g.t.Fatalf("%s: protocol error %v", name, err)
	}
	var head struct {
		Status Status `json:"status"`
		Reason string `json:"reason"`
		Tier   int    `json:"tier"`
		Token  string `json:"approval_token"`
	}
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &head); err != nil {
		g.t.Fatalf("%s: structured content: %v", name, err)
	}
	if res.IsError != (head.Status != StatusOK) {
		g.t.Errorf("%s: isError %v with status %s", name, res.IsError, head.Status)
	}
	return result{
		status: head.Status, reason: head.Reason, tier: head.Tier, token: head.Token,
		ran:  int(g.runs.Load() - runs0),
		recs: g.log.records()[recs0:],
		obs:  g.observations()[obs0:],
	}
}

// read reads the test resource through the pipeline.
func (g *rig) read(token *auth.TokenInfo) result {
	g.t.Helper()
	recs0, obs0, runs0 := len(g.log.records()), len(g.observations()), g.runs.Load()
	err := g.r.read(context.Background(), readRequest{
		name: readName, what: "resource read", args: map[string]string{"uri": "warden://test"},
		extra: &mcp.RequestExtra{TokenInfo: token},
	}, func(context.Context) (string, error) {
		g.runs.Add(1)
		return readText, nil
	})
	res := result{ran: int(g.runs.Load() - runs0), recs: g.log.records()[recs0:], obs: g.observations()[obs0:], err: err}
	switch {
	case len(res.recs) == 1:
		res.status, res.reason, res.tier = Status(res.recs[0].Status), res.recs[0].Reason, res.recs[0].Tier
	case len(res.obs) == 1: // the audit write failed
		res.status = Status(res.obs[0].Status)
	}
	if (err == nil) != (res.status == StatusOK) {
		g.t.Errorf("read: error %v with audited status %q", err, res.status)
	}
	if err != nil {
		res.reason = err.Error()
	}
	return res
}

// do calls through p with the default arguments and, for a fan-out, the
// one host "h1".
func (g *rig) do(p path, args map[string]any, token *auth.TokenInfo) result {
	switch p {
	case pathCall:
		return g.call(args, token)
	case pathFanout:
		return g.fanout([]string{"h1"}, args, token, nil)
	default:
		return g.read(token)
	}
}

// want is one path's expected outcome and audit record.
type want struct {
	status   Status
	decision string
	reason   string // a substring of the agent's reason and the audited one
	tier     int
	host     string // audited host; "" means the path's default
	approval string // audited extra.approval
	token    bool   // an approval token was issued
	noRecord bool   // the audit write fails: nothing is kept
}

func (w want) ran() bool { return w.status == StatusOK }

func defaultHost(p path) string {
	if p == pathFanout {
		return "h1"
	}
	return "local"
}

func toolOf(p path) string {
	switch p {
	case pathCall:
		return callTool
	case pathFanout:
		return fanoutTool
	}
	return readName
}

// check asserts one path's result against w: what the agent saw, whether
// anything ran and at what confinement, the one audit record, and the one
// observation.
func check(t *testing.T, g *rig, p path, got result, w want) {
	t.Helper()
	if got.status != w.status {
		t.Errorf("status = %q (%s), want %q", got.status, got.reason, w.status)
	}
	if !strings.Contains(got.reason, w.reason) {
		t.Errorf("reason = %q, want it to contain %q", got.reason, w.reason)
	}
	if w.status != StatusOK && got.tier != w.tier {
		t.Errorf("shown tier = %d, want %d", got.tier, w.tier)
	}
	if (got.token != "") != w.token {
		t.Errorf("approval token %q, want one: %v", got.token, w.token)
	}
	if wantRan := map[bool]int{true: 1}[w.ran()]; got.ran != wantRan {
		t.Errorf("ran %d times, want %d", got.ran, wantRan)
	}
	if w.ran() && p != pathRead {
		g.mu.Lock()
		a := g.admitted[len(g.admitted)-1]
		g.mu.Unlock()
		if a.Owner == "" {
			t.Errorf("Run was handed admission %+v without the caller as its owner", a)
		}
		a.Owner = ""
		if want := (confine.Admission{Level: confine.ForTier(w.tier), Tool: toolOf(p)}); a != want {
			t.Errorf("Run was handed admission %+v, want %+v", a, want)
		}
	}

	if len(got.obs) != 1 {
		t.Fatalf("%d observations, want 1: %+v", len(got.obs), got.obs)
	}
	if ob := got.obs[0]; ob.Tool != toolOf(p) || ob.Decision != w.decision || ob.Status != string(w.status) || ob.AuditFailed != w.noRecord {
		t.Errorf("observation = %+v, want tool %s, decision %s, status %s, audit failed %v", ob, toolOf(p), w.decision, w.status, w.noRecord)
	}

	if w.noRecord {
		if len(got.recs) != 0 {
			t.Errorf("records kept by a failing log: %+v", got.recs)
		}
		return
	}
	if len(got.recs) != 1 {
		t.Fatalf("%d audit records, want 1: %+v", len(got.recs), got.recs)
	}
	rec := got.recs[0]
	host := w.host
	if host == "" {
		host = defaultHost(p)
	}
	if rec.Tool != toolOf(p) || rec.Host != host || rec.Decision != w.decision || rec.Status != string(w.status) || rec.Tier != w.tier {
		t.Errorf("record = tool %s host %s decision %s status %s tier %d, want %s %s %s %s %d",
			rec.Tool, rec.Host, rec.Decision, rec.Status, rec.Tier, toolOf(p), host, w.decision, w.status, w.tier)
	}
	if !strings.Contains(rec.Reason, w.reason) {
		t.Errorf("audited reason = %q, want it to contain %q", rec.Reason, w.reason)
	}
	if got, _ := rec.Extra["approval"].(string); got != w.approval {
		t.Errorf("audited approval = %q, want %q", got, w.approval)
	}
	if rec.Identity == "" || len(rec.Args) == 0 {
		t.Errorf("record lacks identity or args: %+v", rec)
	}
}

func ceilingAt(top policy.Tier) func(*Options) {
	return func(o *Options) {
		o.Mode = policy.Open
		o.TierCeiling = func(*auth.TokenInfo) (policy.Tier, bool) { return top, true }
	}
}

var scoped = &auth.TokenInfo{UserID: "alice", Scopes: []string{"some"}, Expiration: time.Now().Add(time.Hour)}

// TestAdmission runs each admission rule through every path it applies to
// and checks the outcome, the audit record and the observation.
func TestAdmission(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    func(*Options)
		audit   func(*fakeAudit)
		verdict policy.Verdict
		least   policy.Tier
		token   *auth.TokenInfo
		want    map[path]want // paths left out do not apply
	}{{
		name:    "tier 0 allowed",
		verdict: policy.Verdict{Tier: 0, Reason: "fake read"},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow"},
			pathFanout: {status: StatusOK, decision: "allow"},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name: "caller not in the allowed users",
		opts: func(o *Options) { o.AllowedUsers, o.LocalIdentity = []string{"alice"}, "mallory" },
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: `"mallory" is not in the allowed users`},
			pathFanout: {status: StatusDenied, decision: "denied", reason: `"mallory" is not in the allowed users`, host: "*"},
			pathRead:   {status: StatusDenied, decision: "denied", reason: `"mallory" is not in the allowed users`},
		},
	}, {
		name:    "allowed user by token subject",
		opts:    func(o *Options) { o.AllowedUsers, o.LocalIdentity = []string{"alice"}, "mallory" },
		token:   scoped,
		verdict: policy.Verdict{Tier: 0},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow"},
			pathFanout: {status: StatusOK, decision: "allow"},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name:    "deny verdict beats open mode",
		opts:    func(o *Options) { o.Mode = policy.Open },
		verdict: policy.Verdict{Tier: 3, Denied: true, Reason: "operator deny rule"},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "operator deny rule", tier: 3},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "operator deny rule", tier: 3},
		},
	}, {
		name:    "readonly mode denies tier 1 but serves reads",
		opts:    func(o *Options) { o.Mode = policy.Readonly },
		verdict: policy.Verdict{Tier: 1, Reason: "benign"},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "mode readonly, tier 1", tier: 1},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "mode readonly, tier 1", tier: 1},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name: "per-tool mode narrows the global one",
		opts: func(o *Options) {
			o.Mode = policy.Open
			o.ToolModes = map[string]policy.Mode{callTool: policy.Readonly}
		},
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "mode readonly", tier: 2},
			pathFanout: {status: StatusOK, decision: "allow", tier: 2},
		},
	}, {
		name:    "approval required issues a token",
		verdict: policy.Verdict{Tier: 2, Reason: "mutation"},
		want: map[path]want{
			pathCall:   {status: StatusApproval, decision: "approval_required", reason: "mutation", tier: 2, approval: "token", token: true},
			pathFanout: {status: StatusApproval, decision: "approval_required", reason: "mutation", tier: 2, approval: "token", token: true},
		},
	}, {
		name:    "tool's least tier raises the verdict",
		verdict: policy.Verdict{Tier: 0, Reason: "looks like a read"},
		least:   2,
		want: map[path]want{
			pathCall:   {status: StatusApproval, decision: "approval_required", tier: 2, approval: "token", token: true},
			pathFanout: {status: StatusApproval, decision: "approval_required", tier: 2, approval: "token", token: true},
		},
	}, {
		name:    "operator allow rule admits tier 2 without approval",
		verdict: policy.Verdict{Tier: 2, Allowed: true},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow", tier: 2},
			pathFanout: {status: StatusOK, decision: "allow", tier: 2},
		},
	}, {
		name:    "token ceiling below the tier",
		opts:    ceilingAt(1),
		token:   scoped,
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "above what this token's scope allows (at most tier 1)", tier: 2},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "above what this token's scope allows (at most tier 1)", tier: 2},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name:    "token ceiling at the tier",
		opts:    ceilingAt(2),
		token:   scoped,
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow", tier: 2},
			pathFanout: {status: StatusOK, decision: "allow", tier: 2},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name:    "token without a warden scope reads nothing",
		opts:    ceilingAt(-1),
		token:   scoped,
		verdict: policy.Verdict{Tier: 0},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "at most tier -1"},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "at most tier -1"},
			pathRead:   {status: StatusDenied, decision: "denied", reason: "at most tier -1"},
		},
	}, {
		name:    "audit down refuses tier 2",
		opts:    func(o *Options) { o.Mode, o.RefuseWhenAuditDown = policy.Open, true },
		audit:   func(a *fakeAudit) { a.down = "disk full" },
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "audit log cannot be written (disk full)", tier: 2},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "audit log cannot be written (disk full)", tier: 2},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name:    "audit down refuses tier 2 before the approval gate",
		opts:    func(o *Options) { o.RefuseWhenAuditDown = true },
		audit:   func(a *fakeAudit) { a.down = "disk full" },
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusDenied, decision: "denied", reason: "audit log cannot be written", tier: 2},
			pathFanout: {status: StatusDenied, decision: "denied", reason: "audit log cannot be written", tier: 2},
		},
	}, {
		name:    "audit down admits tier 0",
		opts:    func(o *Options) { o.RefuseWhenAuditDown = true },
		audit:   func(a *fakeAudit) { a.down = "disk full" },
		verdict: policy.Verdict{Tier: 0},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow"},
			pathFanout: {status: StatusOK, decision: "allow"},
			pathRead:   {status: StatusOK, decision: "allow"},
		},
	}, {
		name:    "audit down runs tier 2 unless the operator asked to refuse",
		opts:    func(o *Options) { o.Mode = policy.Open },
		audit:   func(a *fakeAudit) { a.down = "disk full" },
		verdict: policy.Verdict{Tier: 2},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow", tier: 2},
			pathFanout: {status: StatusOK, decision: "allow", tier: 2},
		},
	}, {
		name:    "audit write fails: the call's result stands and the failure is counted",
		audit:   func(a *fakeAudit) { a.fail = errors.New("disk full") },
		verdict: policy.Verdict{Tier: 0},
		want: map[path]want{
			pathCall:   {status: StatusOK, decision: "allow", noRecord: true},
			pathFanout: {status: StatusOK, decision: "allow", noRecord: true},
			pathRead:   {status: StatusOK, decision: "allow", noRecord: true},
		},
	}} {
		for _, p := range paths {
			w, ok := tc.want[p]
			if !ok {
				continue
			}
			t.Run(tc.name+"/"+string(p), func(t *testing.T) {
				g := newRig(t, tc.opts)
				g.least = tc.least
				g.pol.verdict = tc.verdict
				if tc.audit != nil {
					tc.audit(g.log)
				}
				got := g.do(p, map[string]any{"x": 1}, tc.token)
				check(t, g, p, got, w)
				if w.token != (g.r.tokens.Pending() > 0) {
					t.Errorf("%d approvals pending, want a token: %v", g.r.tokens.Pending(), w.token)
				}
			})
		}
	}
}

// TestCallerRefusedBeforePlanning: a caller not in the allowed users is
// refused before its arguments are planned or classified.
func TestCallerRefusedBeforePlanning(t *testing.T) {
	for _, p := range paths {
		t.Run(string(p), func(t *testing.T) {
			g := newRig(t, func(o *Options) { o.AllowedUsers = []string{"alice"} })
			g.do(p, nil, nil)
			if n := g.pol.asked(); n != 0 {
				t.Errorf("the policy was asked %d times for a refused caller", n)
			}
		})
	}
}

// TestApprovalToken follows a token from issue to replay for a call and
// a fan-out: it runs the identical call once, is burned by a call with
// other arguments, and expires by the injected clock.
func TestApprovalToken(t *testing.T) {
	type step struct {
		args    map[string]any // nil: the first call's
		token   bool           // carry the issued token
		advance time.Duration  // clock moved before the step
		want    want
	}
	first := map[string]any{"x": 1}
	issued := want{status: StatusApproval, decision: "approval_required", reason: "mutation", tier: 2, approval: "token", token: true}
	approved := want{status: StatusOK, decision: "approved", tier: 2, approval: "token"}
	refused := func(reason string) want {
		return want{status: StatusDenied, decision: "approval_required", reason: reason, tier: 2, approval: "token"}
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{{
		name: "replay runs once",
		steps: []step{
			{want: issued},
			{token: true, want: approved},
			{token: true, want: refused("not valid (unknown or already used)")},
		},
	}, {
		name: "other arguments burn it",
		steps: []step{
			{want: issued},
			{args: map[string]any{"x": 2}, token: true, want: refused("does not match this call")},
			{token: true, want: refused("not valid (unknown or already used)")},
		},
	}, {
		name: "expires after the TTL",
		steps: []step{
			{want: issued},
			{advance: tokenTTL + time.Second, token: true, want: refused("expired")},
		},
	}, {
		name: "redeemable just before the TTL",
		steps: []step{
			{want: issued},
			{advance: tokenTTL - time.Second, token: true, want: approved},
		},
	}} {
		for _, p := range []path{pathCall, pathFanout} {
			t.Run(tc.name+"/"+string(p), func(t *testing.T) {
				g := newRig(t, nil)
				g.pol.verdict = policy.Verdict{Tier: 2, Reason: "mutation"}
				var tok string
				for i, s := range tc.steps {
					g.clock.Advance(s.advance)
					args := map[string]any{}
					for k, v := range first {
						args[k] = v
					}
					if s.args != nil {
						args = s.args
					}
					if s.token {
						args[approvalTokenArg] = tok
					}
					got := g.do(p, args, nil)
					if i == 0 {
						tok = got.token
					}
					t.Run(fmt.Sprint("step", i), func(t *testing.T) { check(t, g, p, got, s.want) })
				}
			})
		}
	}
}

// TestRunFailureShowsTier: a call admitted at tier 2 that fails as it runs
// is shown the tier it was admitted at, as a refusal is, not 0.
func TestRunFailureShowsTier(t *testing.T) {
	g := newRig(t, func(o *Options) { o.Mode = policy.Open })
	g.pol.verdict = policy.Verdict{Tier: policy.TierMutate, Reason: "fake write"}
	h := g.r.handler(Spec{Name: callTool}, func(json.RawMessage) (any, error) { return map[string]any{}, nil },
		func(context.Context, *Call, any) (*Plan, error) {
			return &Plan{Input: policy.Input{Command: "cmd"}, Run: func(context.Context) *Outcome {
				return Fail(StatusError, "the disk went away")
			}}, nil
		})
	got := g.tool(h, callTool, map[string]any{}, nil)
	if got.status != StatusError || got.reason != "the disk went away" || got.tier != int(policy.TierMutate) {
		t.Errorf("a tier-2 call that failed as it ran: status %s, reason %q, tier %d; want error, its reason, tier 2", got.status, got.reason, got.tier)
	}
}
