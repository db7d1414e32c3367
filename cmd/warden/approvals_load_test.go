package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/console"
)

// Two hundred calls wait for an operator at once in a real server: all are
// listed, each answer reaches its own call, and the server's peak memory
// stays bounded.
func TestApprovalsTwoHundredPending(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const n = 200
	s, env := consoleServer(t, "  max_pending: 256\n", nil)
	base := vmHWM(t, s.cmd.Process.Pid)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dones := make([]<-chan callResult, n)
	for i := range n {
		dones[i] = callAsync(ctx, s.cs, "run_command", map[string]any{"command": fmt.Sprintf("rm -rf /nonexistent-warden-load/%d; echo answered-%d", i, i)})
	}
	ps := waitPending(t, env, n)
	peak := vmHWM(t, s.cmd.Process.Pid)
	t.Logf("VmHWM: %d KiB at start, %d KiB with %d calls waiting", base, peak, n)
	if peak > 160<<10 {
		t.Errorf("peak RSS %d KiB with %d calls waiting, want under 160 MiB", peak, n)
	}
	c := console.NewClient(s.state)
	for i, p := range ps {
		// Approve the even ones, deny the odd ones: each call gets its own.
		if _, _, err := c.Answer(ctx, p.ID, i%2 == 0, "load"); err != nil {
			t.Fatalf("answer %s: %v", p.ID, err)
		}
	}
	approved := map[string]bool{}
	for i, p := range ps {
		if i%2 == 0 {
			approved[p.CallID] = true
		}
	}
	ok, denied := 0, 0
	for _, d := range dones {
		r := <-d
		if r.err != nil {
			t.Fatalf("call: %v", r.err)
		}
		got := structured(t, r.res)
		switch got["status"] {
		case "ok":
			ok++
			if !strings.Contains(fmt.Sprint(got["stdout"]), "answered-") {
				t.Errorf("approved call printed %v", got["stdout"])
			}
		case "denied":
			denied++
		default:
			t.Errorf("status %v", got["status"])
		}
	}
	if ok != n/2 || denied != n/2 {
		t.Errorf("%d ran and %d were denied, want %d each", ok, denied, n/2)
	}
	// Every record says the same as the answer its own call got.
	for _, r := range auditRecords(t, s.state) {
		extra, _ := r["extra"].(map[string]any)
		if extra == nil || extra["approval_id"] == nil || r["tool"] == "console" {
			continue // not a call, or the operator's record of answering one
		}
		if wantOK := approved[fmt.Sprint(r["id"])]; wantOK != (r["status"] == "ok") {
			t.Errorf("call %v: status %v, answered approve=%v", r["id"], r["status"], wantOK)
		}
	}
	waitPending(t, env, 0)
}
