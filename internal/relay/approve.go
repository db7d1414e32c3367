package relay

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/gate"
	"github.com/warden-mcp/warden/internal/policy"
)

// elicitID names warden's one input request in a multi-round-trip call.
const elicitID = "warden_approval"

// approve runs the approval gate for a call that needs it. It returns nil
// when the call is approved and may run, or the outcome to return instead.
func (r *Relay) approve(ctx context.Context, c *Call, host string, v policy.Verdict, rec *audit.Record) *Outcome {
	digest, err := gate.Digest(gate.Call{Tool: c.Tool, Args: c.Args, Host: host, Identity: c.Identity})
	if err != nil {
		return Fail(StatusInvalid, "arguments: %v", err)
	}
	mechs := r.opts.Approval[v.Tier]
	if len(mechs) == 0 {
		mechs = []Mechanism{MechToken}
	}
	if rec.Extra == nil {
		rec.Extra = map[string]any{}
	}
	names := make([]string, len(mechs))
	for i, m := range mechs {
		names[i] = string(m)
	}
	rec.Extra["approval"] = strings.Join(names, ",")
	elicit, console := slices.Contains(mechs, MechElicit), slices.Contains(mechs, MechConsole)
	switch {
	case elicit && c.req != nil && c.req.Params.RequestState != "":
		// The client's user answered through an input-required round
		// trip: that is the human answer.
		rec.Extra["approval"] = string(MechElicit)
		return r.approveElicit(c, digest, v)
	case console:
		return r.approveConsole(ctx, c, host, digest, v, elicit, rec)
	case elicit:
		rec.Extra["approval"] = string(MechElicit)
		return r.approveElicit(c, digest, v)
	default:
		return r.approveToken(c, digest, v)
	}
}

func (r *Relay) approveToken(c *Call, digest [32]byte, v policy.Verdict) *Outcome {
	var carried struct {
		Token string `json:"approval_token"`
	}
	_ = json.Unmarshal(c.Args, &carried)
	if carried.Token != "" {
		switch err := r.tokens.Redeem(carried.Token, digest); {
		case err == nil:
			return nil
		case errors.Is(err, gate.ErrMismatch):
			return Fail(StatusDenied, "approval token does not match this call (it was issued for a different call) and is now burned; request a new one")
		case errors.Is(err, gate.ErrExpired):
			return Fail(StatusDenied, "approval token expired; request a new one")
		default:
			return Fail(StatusDenied, "approval token is not valid (unknown or already used)")
		}
	}
	tok, err := r.tokens.Issue(digest)
	if err != nil {
		return Fail(StatusDenied, "cannot issue an approval token: %v", err)
	}
	out := Fail(StatusApproval, "tier %d call needs approval (%s); a human should review it, then re-issue the identical call with approval_token", v.Tier, v.Reason)
	out.approvalToken = tok
	out.expires = r.opts.Now().Add(r.opts.TokenTTL)
	return out
}

func (r *Relay) approveElicit(c *Call, digest [32]byte, v policy.Verdict) *Outcome {
	req := c.req
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return Fail(StatusDenied, "tier %d call needs a human's approval, but this client cannot ask one (no elicitation capability); refused", v.Tier)
	}
	if state := req.Params.RequestState; state != "" {
		payload, err := r.sealer.Open(state, digest)
		if err != nil {
			return Fail(StatusDenied, "approval state rejected: %v", err)
		}
		// The sealed state carries a single-use token, so one human answer
		// approves exactly one run.
		if err := r.tokens.Redeem(string(payload), digest); err != nil {
			return Fail(StatusDenied, "approval state already used or expired")
		}
		resp, ok := req.Params.InputResponses[elicitID].(*mcp.ElicitResult)
		if !ok {
			return Fail(StatusDenied, "approval answer missing")
		}
		switch resp.Action {
		case "accept":
			if approved, _ := resp.Content["approve"].(bool); !approved {
				return Fail(StatusDenied, "the user did not approve the call")
			}
			return nil
		case "decline":
			return Fail(StatusDenied, "the user declined the call")
		default:
			return Fail(StatusDenied, "the user cancelled the approval")
		}
	}
	once, err := r.tokens.Issue(digest)
	if err != nil {
		return Fail(StatusDenied, "cannot start an approval: %v", err)
	}
	out := Fail(StatusApproval, "waiting for the user's approval")
	out.inputRequired = &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{
			elicitID: &mcp.ElicitParams{
				Mode:            "form",
				Message:         elicitMessage(c, v),
				RequestedSchema: approveSchema(),
			},
		},
		RequestState: r.sealer.Seal(digest, r.opts.TokenTTL, []byte(once)),
	}
	return out
}
