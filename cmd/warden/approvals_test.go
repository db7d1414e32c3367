package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/approvals"
)

// consoleServer starts warden over stdio with the console on, so tier 3
// calls wait for an operator, and returns it with the environment the
// operator's commands run in (the same state dir).
func consoleServer(t *testing.T, extraYAML string, opts *mcp.ClientOptions) (*stdioServer, []string) {
	t.Helper()
	cfg := writeFile(t, "console:\n  enabled: true\napproval:\n  wait: 2m\n"+extraYAML)
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	return startStdio(t, env, state, opts), env
}

// operator runs a warden subcommand as the operator would and returns its
// stdout, stderr and exit code.
func operator(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := execCommand(args, env)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("warden %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// waitPending polls warden approvals list until n calls wait.
func waitPending(t *testing.T, env []string, n int) []approvals.Pending {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, errOut, code := operator(t, env, "approvals", "list", "--json")
		var ps []approvals.Pending
		if code == 0 && json.Unmarshal([]byte(out), &ps) == nil && len(ps) == n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %d pending approvals: code %d, stdout %q, stderr %q", n, code, out, errOut)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type callResult struct {
	res *mcp.CallToolResult
	err error
}

// callAsync calls a tool in the background, asking for progress.
func callAsync(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		p.SetProgressToken("approval-wait")
		res, err := cs.CallTool(ctx, p)
		ch <- callResult{res, err}
	}()
	return ch
}

// recordOf finds the audit record of the call whose extra.approval_id is
// id (not the operator's record of answering it).
func recordOf(t *testing.T, state, id string) map[string]any {
	t.Helper()
	for _, r := range auditRecords(t, state) {
		if extra, _ := r["extra"].(map[string]any); extra != nil && extra["approval_id"] == id && r["tool"] != "console" {
			return r
		}
	}
	t.Fatalf("no audit record names approval %s", id)
	return nil
}

// An operator approves a waiting tier 3 call from the CLI: the MCP call,
// which was told it is waiting, completes with the command's output, and
// the audit log names the operator and the mechanism.
func TestApprovalsCLIApproveRunsTheCall(t *testing.T) {
	var progress atomic.Int32
	s, env := consoleServer(t, "", &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
	})
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.MkdirAll(filepath.Join(victim, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmdline := "rm -rf " + victim + " && echo removed-$((6*7)) # PASSWORD=hunter2-secret"
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": cmdline})
	p := waitPending(t, env, 1)[0]
	if p.Tool != "run_command" || p.Tier != 3 || p.Host != "local" {
		t.Errorf("pending = %+v, want a tier 3 run_command on local", p)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the call ran before anyone approved it: %v", err)
	}
	show, _, code := operator(t, env, "approvals", "show", p.ID)
	if code != 0 || !strings.Contains(show, p.Digest) || !strings.Contains(show, "rm -rf") {
		t.Errorf("show (code %d) lacks the digest or the command:\n%s", code, show)
	}
	if strings.Contains(show, "hunter2-secret") {
		t.Errorf("show prints a secret the audit log redacts:\n%s", show)
	}
	out, errOut, code := operator(t, env, "approvals", "approve", p.ID, "--reason", "planned cleanup")
	if code != 0 || !strings.Contains(out, "approved "+p.ID) {
		t.Fatalf("approve: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("call: %v", r.err)
	}
	got := structured(t, r.res)
	if got["status"] != "ok" || !strings.Contains(got["stdout"].(string), "removed-42") {
		t.Fatalf("approved call = %v, want ok with the command's output", got)
	}
	if _, err := os.Stat(victim); !os.IsNotExist(err) {
		t.Errorf("the approved command did not run: %v", err)
	}
	if progress.Load() == 0 {
		t.Error("the waiting call sent no progress notification")
	}
	rec := recordOf(t, s.state, p.ID)
	extra := rec["extra"].(map[string]any)
	if rec["decision"] != "approved" || extra["approval"] != "console" || !strings.HasPrefix(extra["approver"].(string), "local:") || extra["approval_reason"] != "planned cleanup" {
		t.Errorf("audit record = %v, want approved through console by a local operator", rec)
	}
	approvedBy := ""
	for _, r := range auditRecords(t, s.state) {
		if extra, _ := r["extra"].(map[string]any); r["tool"] == "console" && extra["action"] == "approve" && extra["via"] == "cli" && extra["approval_id"] == p.ID {
			approvedBy, _ = r["identity"].(string)
		}
	}
	if !strings.HasPrefix(approvedBy, "local:") {
		t.Errorf("no audit record of the operator's approval from the CLI (identity %q)", approvedBy)
	}
	// The answer was spent: approving again finds nothing.
	if _, errOut, code := operator(t, env, "approvals", "approve", p.ID); code == 0 || !strings.Contains(errOut, "no pending approval") {
		t.Errorf("second approve: code %d, stderr %q", code, errOut)
	}
}

// An operator denies a waiting call: the agent gets denied with the
// operator's reason and nothing runs.
func TestApprovalsCLIDenyReturnsReason(t *testing.T) {
	s, env := consoleServer(t, "", nil)
	victim := filepath.Join(t.TempDir(), "keep")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf " + victim})
	p := waitPending(t, env, 1)[0]
	if _, errOut, code := operator(t, env, "approvals", "deny", p.ID, "--reason", "not on the build box"); code != 0 {
		t.Fatalf("deny: code %d, stderr %q", code, errOut)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("call: %v", r.err)
	}
	got := structured(t, r.res)
	if got["status"] != "denied" || !strings.Contains(got["reason"].(string), "not on the build box") || !r.res.IsError {
		t.Fatalf("denied call = %v, want denied with the operator's reason", got)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("a denied command ran: %v", err)
	}
	if rec := recordOf(t, s.state, p.ID); rec["status"] != "denied" {
		t.Errorf("audit record = %v, want denied", rec)
	}
}

// The client gives up while its call waits: the approval is withdrawn, so
// an operator has nothing left to approve.
func TestApprovalsClientGoneLeavesNoOrphan(t *testing.T) {
	s, env := consoleServer(t, "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-test"})
	p := waitPending(t, env, 1)[0]
	cancel()
	<-done
	waitPending(t, env, 0)
	if _, errOut, code := operator(t, env, "approvals", "approve", p.ID); code == 0 || !strings.Contains(errOut, "no pending approval") {
		t.Errorf("approving a withdrawn call: code %d, stderr %q", code, errOut)
	}
	rec := recordOf(t, s.state, p.ID)
	if rec["status"] != "denied" || !strings.Contains(rec["reason"].(string), "cancelled") {
		t.Errorf("audit record = %v, want denied as cancelled", rec)
	}
}

// The socket is the operator's alone: 0600 in a 0700 directory.
func TestApprovalsSocketMode(t *testing.T) {
	s, env := consoleServer(t, "", nil)
	waitPending(t, env, 0)
	dir := filepath.Join(s.state, "console")
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("console dir mode %v, want 0700", fi.Mode().Perm())
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets %v, want one", socks)
	}
	fi, err = os.Lstat(socks[0])
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a 0600 socket", fi.Mode())
	}
}

func TestApprovalsWithoutServer(t *testing.T) {
	env, _ := wardenEnv(t)
	_, errOut, code := operator(t, env, "approvals", "list")
	if code != 1 || !strings.Contains(errOut, "no running warden serves a console") {
		t.Errorf("code %d, stderr %q, want 1 and a clear reason", code, errOut)
	}
	if _, errOut, code := operator(t, env, "approvals", "approve"); code != 2 || !strings.Contains(errOut, "give one approval ID") {
		t.Errorf("approve without ID: code %d, stderr %q", code, errOut)
	}
}

// A pending approval is announced to the configured webhooks, ntfy's JSON
// and warden's own, with a link to the console and nothing secret: not
// what the audit log redacts, and no approval token.
func TestApprovalsWebhook(t *testing.T) {
	type post struct {
		path string
		body string
	}
	posts := make(chan post, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- post{r.URL.Path, string(b)}
	}))
	defer rcv.Close()
	s, env := consoleServer(t, "  notify:\n"+
		"    - {url: '"+rcv.URL+"/', format: ntfy, topic: ops}\n"+
		"    - {url: '"+rcv.URL+"/hook', format: json, retries: 1}\n"+
		"  token_ttl: 5m\n", nil)
	_ = s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-hook PASSWORD=hunter2-secret"})
	p := waitPending(t, env, 1)[0]
	got := map[string]string{}
	for len(got) < 2 {
		select {
		case ps := <-posts:
			got[ps.path] = ps.body
		case <-time.After(30 * time.Second):
			t.Fatalf("webhooks received %d posts, want 2", len(got))
		}
	}
	for path, body := range got {
		if strings.Contains(body, "hunter2-secret") || strings.Contains(body, "approval_token") {
			t.Errorf("%s received a secret: %s", path, body)
		}
		if !strings.Contains(body, p.ID) {
			t.Errorf("%s does not name approval %s: %s", path, p.ID, body)
		}
	}
	var ntfy map[string]any
	if err := json.Unmarshal([]byte(got["/"]), &ntfy); err != nil || ntfy["topic"] != "ops" || ntfy["title"] == nil {
		t.Errorf("ntfy body = %s (%v)", got["/"], err)
	}
	var ev approvals.Event
	if err := json.Unmarshal([]byte(got["/hook"]), &ev); err != nil || ev.Event != "approval_pending" || ev.Digest != p.Digest {
		t.Errorf("json body = %s (%v)", got["/hook"], err)
	}
	cancel()
	<-done
}
