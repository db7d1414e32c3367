package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
)

// The resources the guide points the agent at. Each read passes the
// pipeline (relay.AddResource) and answers for the caller only.
const (
	PolicyURI    = "warden://policy"
	ApprovalsURI = "warden://approvals"
	SessionsURI  = "warden://sessions"
)

// Policy is the effective policy as the agent may read it.
type Policy struct {
	Mode      string            `json:"mode"`
	Tiers     []TierRule        `json:"tiers"`
	ToolModes map[string]string `json:"tool_modes,omitempty"`
	// Allow and Deny are the operator's regexes (the built-in deny list
	// and warden's own paths come on top of Deny).
	Allow     []string `json:"allow,omitempty"`
	Deny      []string `json:"deny,omitempty"`
	DenyHosts []string `json:"deny_hosts,omitempty"`
	// TokenTTL and Wait bound the token and console mechanisms.
	TokenTTL string `json:"token_ttl"`
	Wait     string `json:"approval_wait"`
}

// TierRule says what the mode does with calls of one tier.
type TierRule struct {
	Tier     int      `json:"tier"`
	Meaning  string   `json:"meaning"`
	Decision string   `json:"decision"` // allow, approval_required or denied
	Approval []string `json:"approval,omitempty"`
}

// GuideDeps is what the operating guide and its resources read.
type GuideDeps struct {
	Policy func() Policy
	// Pending lists the calls of identity waiting for an operator; nil
	// means the console is off.
	Pending func(identity string) []approvals.Pending
	// Sessions lists the live sessions.
	Sessions func() []session.Info
}

// RegisterGuide adds the operating_guide prompt and the policy, approvals
// and sessions resources.
func RegisterGuide(r *relay.Relay, d GuideDeps) {
	r.AddPrompt(&mcp.Prompt{
		Name:        "operating_guide",
		Title:       "How to work with warden",
		Description: "How warden works: modes and tiers, how approvals arrive, hosts, sessions, bounds and the audit log, with this server's policy.",
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{
			Description: "How to work with warden on this server",
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: guideText(d.Policy(), d.Pending != nil)}}},
		}, nil
	})
	jsonResource(r, &mcp.Resource{
		URI: PolicyURI, Name: "policy", Title: "Effective policy", MIMEType: "application/json",
		Description: "The policy this server applies: the mode, what each tier needs, the approval mechanisms, per-tool modes and the operator's rules.",
	}, func(context.Context) any { return d.Policy() })
	jsonResource(r, &mcp.Resource{
		URI: ApprovalsURI, Name: "approvals", Title: "Your calls waiting for approval", MIMEType: "application/json",
		Description: "Your calls that wait for an operator's approval (console mechanism): id, tool, host, tier, reason, expiry.",
	}, func(ctx context.Context) any {
		me, _ := relay.Caller(ctx)
		if d.Pending == nil {
			return []approvals.Pending{}
		}
		return d.Pending(me)
	})
	jsonResource(r, &mcp.Resource{
		URI: SessionsURI, Name: "sessions", Title: "Your open sessions", MIMEType: "application/json",
		Description: "Your interactive sessions still open: id, command, size, start, last activity, whether it exited.",
	}, func(ctx context.Context) any {
		me, _ := relay.Caller(ctx)
		mine := []session.Info{}
		for _, s := range d.Sessions() {
			if s.Owner == me {
				s.Recording = "" // a path in warden's state dir: not the agent's business
				mine = append(mine, s)
			}
		}
		return mine
	})
}

// jsonResource registers a resource whose contents are v as JSON.
func jsonResource(r *relay.Relay, res *mcp.Resource, v func(context.Context) any) {
	r.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		b, err := json.MarshalIndent(v(ctx), "", "  ")
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: res.URI, MIMEType: "application/json", Text: string(b)}}}, nil
	})
}

// guideText is the operating guide.
func guideText(p Policy, console bool) string {
	var b strings.Builder
	b.WriteString(`You are working through warden, an MCP server that gives you hands on real hosts. Every tool call, resource read and prompt fetch goes through one pipeline: you are identified, the call is classified and admitted by policy, approved if it must be, run with bounds, and audited. There is no side door: sending text into a session, declarative tools, file writes and fan-out pass the same policy on what they will run.

## Tiers and modes
Every call is classified from the shell grammar (not the text) into a tier:
0 read-only inspection; 1 benign side effects (a session, a keyscan); 2 mutation (write a file, restart a service, install a package); 3 destructive or raw (rm -r/-f, mkfs, dd to devices, reboot, firewall flush). A command that cannot be parsed is tier 3. The deny list beats every mode and every approval.
`)
	fmt.Fprintf(&b, "\nThis server's mode is %s:\n", p.Mode)
	for _, t := range p.Tiers {
		fmt.Fprintf(&b, "- tier %d (%s): %s", t.Tier, t.Meaning, t.Decision)
		if len(t.Approval) > 0 {
			fmt.Fprintf(&b, " via %s", strings.Join(t.Approval, " or "))
		}
		b.WriteByte('\n')
	}
	if len(p.ToolModes) > 0 {
		b.WriteString("Some tools have a narrower mode: ")
		first := true
		for tool, m := range p.ToolModes {
			if !first {
				b.WriteString(", ")
			}
			first = false
			fmt.Fprintf(&b, "%s %s", tool, m)
		}
		b.WriteString(".\n")
	}
	fmt.Fprintf(&b, `
## How approvals arrive
A call that needs approval does not run until it is approved. The result tells you which way:
- status "approval_required" with an approval_token (token mechanism): show the call to your user; once they approve, re-issue the identical call with approval_token. The token is bound to that exact call (tool, every argument, host), single use, and expires after %s.
- elicit: your client asks its user; a client that cannot ask is refused.
- console: the call waits — you get progress notifications — until an operator approves or denies it from warden's console or CLI, for up to %s. Do not retry a waiting call: the operator answers the one you sent. An approved call returns its result as usual; a denied one returns status "denied" with the operator's reason; an expired one is refused. Read %s to see your calls that wait.
Never try to approve your own calls or to get around a denial with a different spelling: the classifier reads the grammar, and every attempt is audited.
`, p.TokenTTL, p.Wait, ApprovalsURI)
	if !console {
		b.WriteString("(The console is off on this server.)\n")
	}
	fmt.Fprintf(&b, `
## Hosts
Execution and file tools take an optional host: "local" (default) or a name from hosts_list (also the resource warden://hosts). The same policy, bounds and audit apply wherever a command runs; hosts may have a narrower mode.

## Sessions
session_start opens an interactive terminal; session_send types into it (the text you send is classified like a command), session_read returns new output, session_close ends it. Sessions are recorded and may be watched live by an operator. Read %s for your open sessions; close what you no longer need.

## Bounds and results
Commands have a timeout and an output cap (stdout and stderr together; truncated: true when cut). Results carry a machine-readable status: ok, denied, approval_required, timeout, invalid_argument or error. Every call is audited with redacted arguments and a digest of the output.

The full policy is the resource %s; server_info reports limits, confinement and audit health.
`, SessionsURI, PolicyURI)
	return b.String()
}

// TierRules says what mode does with each tier, given the approval
// mechanisms of tiers 2 and 3.
func TierRules(decide func(tier int) string, mechs func(tier int) []string) []TierRule {
	meaning := []string{"read-only inspection", "benign side effects", "mutation", "destructive or raw"}
	rules := make([]TierRule, 4)
	for t := range 4 {
		rules[t] = TierRule{Tier: t, Meaning: meaning[t], Decision: decide(t)}
		if rules[t].Decision == "approval_required" {
			rules[t].Approval = mechs(t)
		}
	}
	return rules
}
