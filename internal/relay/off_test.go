package relay

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestSwitchedOff: a tool in Options.Off is not in tools/list, a call
// naming it is refused as denied without planning or running, in open
// mode, and the refusal is audited; the tools left on are untouched.
func TestSwitchedOff(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "off", Version: "1"}, nil)
	log := &fakeAudit{}
	r := New(srv, Options{Policy: &fakePolicy{verdict: policy.Verdict{Tier: policy.TierRead}}, Audit: log, Mode: policy.Open, Off: []string{"gone"}})
	var planned atomic.Int32
	type in struct {
		Host string `json:"host"`
	}
	for _, name := range []string{"gone", "kept"} {
		Add[in, map[string]any](r, Spec{Name: name, Description: name}, func(context.Context, *Call, *in) (*Plan, error) {
			planned.Add(1)
			return &Plan{Host: "local", Run: func(context.Context) *Outcome { return &Outcome{Result: map[string]any{"ran": true}} }}, nil
		})
	}
	if got := r.SwitchedOff(); !slices.Equal(got, []string{"gone"}) {
		t.Errorf("SwitchedOff() = %v", got)
	}
	if got := r.Tools(); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("Tools() = %v", got)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "gone" {
			t.Error("a switched-off tool is listed")
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gone", Arguments: map[string]any{"host": "nas"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &got)
	if !res.IsError || got["status"] != string(StatusDenied) || !strings.Contains(got["reason"].(string), "switched off") {
		t.Errorf("call of a switched-off tool: %+v %v", res, got)
	}
	if n := planned.Load(); n != 0 {
		t.Errorf("the switched-off tool was planned %d times", n)
	}
	recs := log.records()
	if len(recs) != 1 || recs[0].Tool != "gone" || recs[0].Host != "nas" || recs[0].Status != string(StatusDenied) || recs[0].Decision != string(policy.Deny) || recs[0].Client != "c/1" {
		t.Errorf("audit records %+v, want one denied record of gone on nas", recs)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "kept", Arguments: map[string]any{"host": "local"}})
	if err != nil || res.IsError || planned.Load() != 1 {
		t.Errorf("kept: %v %+v", err, res)
	}
}
