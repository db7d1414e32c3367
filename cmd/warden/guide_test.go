package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func readJSONResource(t *testing.T, cs *mcp.ClientSession, uri string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents", uri, len(res.Contents))
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), v); err != nil {
		t.Fatalf("read %s: %v: %s", uri, err, res.Contents[0].Text)
	}
}

// The agent learns how warden works from the operating_guide prompt and
// reads its own pending approvals and open sessions and the effective
// policy as resources — each fetch audited like any call.
func TestOperatingGuideAndResources(t *testing.T) {
	s, env := consoleServer(t, "  tier2: [console]\n", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	g, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "operating_guide"})
	if err != nil {
		t.Fatal(err)
	}
	guide := g.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"This server's mode is guarded", "tier 3 (destructive or raw): approval_required via console", "approval_token", "warden://approvals", "session_send"} {
		if !strings.Contains(guide, want) {
			t.Errorf("operating_guide lacks %q:\n%s", want, guide)
		}
	}

	var pol struct {
		Mode  string `json:"mode"`
		Tiers []struct {
			Tier     int      `json:"tier"`
			Decision string   `json:"decision"`
			Approval []string `json:"approval"`
		} `json:"tiers"`
	}
	readJSONResource(t, s.cs, "warden://policy", &pol)
	if pol.Mode != "guarded" || len(pol.Tiers) != 4 || pol.Tiers[0].Decision != "allow" || pol.Tiers[2].Decision != "approval_required" ||
		len(pol.Tiers[2].Approval) != 1 || pol.Tiers[2].Approval[0] != "console" {
		t.Errorf("policy = %+v", pol)
	}

	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	var sessions []map[string]any
	readJSONResource(t, s.cs, "warden://sessions", &sessions)
	if len(sessions) != 1 || sessions[0]["id"] != sh.id || sessions[0]["recording"] != nil {
		t.Errorf("sessions = %v, want this caller's one session without its recording path", sessions)
	}

	done := callAsync(ctx, s.cs, "write_file", map[string]any{"path": t.TempDir() + "/f", "content": "x"})
	p := waitPending(t, env, 1)[0]
	var mine []map[string]any
	readJSONResource(t, s.cs, "warden://approvals", &mine)
	if len(mine) != 1 || mine[0]["id"] != p.ID || mine[0]["tool"] != "write_file" {
		t.Errorf("approvals = %v, want the one waiting write_file", mine)
	}
	operator(t, env, "approvals", "deny", p.ID)
	<-done

	var audited int
	for _, r := range auditRecords(t, s.state) {
		switch r["tool"] {
		case "prompt:operating_guide", "resource:warden://policy", "resource:warden://sessions", "resource:warden://approvals":
			audited++
		}
	}
	if audited != 4 {
		t.Errorf("%d guide and resource fetches audited, want 4", audited)
	}
}
