package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestProgressWhileRunning(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	var notes atomic.Int32
	s := startStdio(t, env, state, &mcp.ClientOptions{
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			if strings.Contains(req.Params.Message, "elapsed") {
				notes.Add(1)
			}
		},
	})
	params := &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo start; sleep 2.5; echo end"}}
	params.SetProgressToken("p1")
	res, err := s.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	if n := notes.Load(); n < 2 {
		t.Errorf("got %d progress notifications over 2.5 s, want at least 2", n)
	}
	// No progress token, no notifications.
	notes.Store(0)
	callTool(t, s.cs, "run_command", map[string]any{"command": "sleep 1.5"})
	if n := notes.Load(); n != 0 {
		t.Errorf("got %d progress notifications without a progress token", n)
	}
}

func TestIdleExitNeverMidCall(t *testing.T) {
	env, _ := wardenEnv(t, "WARDEN_MODE=open")
	// Own the process, so that only this test waits for it.
	cmd := exec.Command(wardenBin, "serve", "--idle-exit", "1s")
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "idle"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, got := callTool(t, cs, "run_command", map[string]any{"command": "sleep 2.5; echo survived"})
	if res.IsError || got["stdout"] != "survived\n" {
		t.Fatalf("a call longer than idle-exit was cut: %s", text(res))
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("idle exit was not clean: %v", err)
		}
		if d := time.Since(start); d < 3*time.Second {
			t.Errorf("exited after %s, before the call plus the idle time", d)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("warden did not exit after being idle")
	}
}

func TestAuditFailureRefusesMutations(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a small tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	env, _ := wardenEnv(t, "WARDEN_MODE=open")
	env = append(env, "WARDEN_STATE_DIR="+dir)
	s := startStdio(t, env, dir, nil)
	// Fill the filesystem so the next audit write fails.
	filler := filepath.Join(dir, "filler")
	exec.Command("dd", "if=/dev/zero", "of="+filler, "bs=4k", "count=1000").Run()
	marker := filepath.Join(t.TempDir(), "marker")
	callTool(t, s.cs, "server_info", nil) // this record cannot be written
	_, info := callTool(t, s.cs, "server_info", nil)
	if info["audit_healthy"] != false {
		t.Fatalf("server_info does not report the failed audit log: %v", info)
	}
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "echo x > " + marker})
	if got["status"] != "denied" || !strings.Contains(text(res), "audit") {
		t.Errorf("tier 2 call with a broken audit log: %s", text(res))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the mutation ran while the audit log was down")
	}
	// Reads still work, and once there is room again the log recovers.
	if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "cat /etc/hostname"}); res.IsError {
		t.Errorf("tier 0 refused: %s", text(res))
	}
	os.Remove(filler)
	callTool(t, s.cs, "server_info", nil)
	if _, info = callTool(t, s.cs, "server_info", nil); info["audit_healthy"] != true {
		t.Errorf("audit log did not recover: %v", info)
	}
}

func TestTrustedProxyIdentityAndAllowlist(t *testing.T) {
	cfg := writeFile(t, "mode: open\nhttp:\n  trusted_proxy_header: Tailscale-User-Login\n  allowed_users: [alice@example.com]\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	call := func(user string) map[string]any {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		h := map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "run_command"}
		if user != "" {
			h["Tailscale-User-Login"] = user
		}
		code, resp := rawPost(t, s.url, body, h)
		if code != 200 {
			t.Fatalf("status %d: %s", code, resp)
		}
		var msg struct {
			Result struct {
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if i := strings.Index(resp, "{"); i >= 0 {
			resp = resp[i:]
		}
		if j := strings.LastIndex(resp, "}"); j >= 0 {
			resp = resp[:j+1]
		}
		if err := json.Unmarshal([]byte(resp), &msg); err != nil {
			t.Fatalf("response %q: %v", resp, err)
		}
		return msg.Result.StructuredContent
	}
	if got := call("alice@example.com"); got["status"] != "ok" {
		t.Errorf("allowed user refused: %v", got)
	}
	if got := call("mallory@example.com"); got["status"] != "denied" {
		t.Errorf("user outside the allowlist admitted: %v", got)
	}
	if got := call(""); got["status"] != "denied" {
		t.Errorf("token identity outside the allowlist admitted: %v", got)
	}
	b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if !strings.Contains(string(b), `"identity":"alice@example.com"`) || !strings.Contains(string(b), `"identity":"mallory@example.com"`) {
		t.Errorf("identities not audited:\n%s", b)
	}
}
