package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// sess drives one session through the MCP client.
type sess struct {
	t  *testing.T
	cs *mcp.ClientSession
	id string
}

func startSession(t *testing.T, cs *mcp.ClientSession, args map[string]any) *sess {
	t.Helper()
	res, got := callTool(t, cs, "session_start", args)
	if res.IsError {
		t.Fatalf("session_start: %s", text(res))
	}
	return &sess{t: t, cs: cs, id: got["session_id"].(string)}
}

func (s *sess) send(data string) map[string]any {
	s.t.Helper()
	_, got := callTool(s.t, s.cs, "session_send", map[string]any{"session_id": s.id, "data": data})
	return got
}

// readUntil reads until the accumulated output contains want.
func (s *sess) readUntil(want string) string {
	s.t.Helper()
	out, ok := s.readFor(want, 15*time.Second)
	if !ok {
		s.t.Fatalf("never read %q; got %q", want, out)
	}
	return out
}

// readFor reads for at most d until the accumulated output contains want,
// and reports whether it did.
func (s *sess) readFor(want string, d time.Duration) (string, bool) {
	s.t.Helper()
	var all strings.Builder
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		_, got := callTool(s.t, s.cs, "session_read", map[string]any{"session_id": s.id, "wait_s": 2})
		all.WriteString(fmt.Sprint(got["data"]))
		if strings.Contains(all.String(), want) {
			return all.String(), true
		}
	}
	return all.String(), false
}

func TestSessionsEndToEnd(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)

	t.Run("arithmetic in a shell", func(t *testing.T) {
		sh := startSession(t, s.cs, nil)
		sh.send("echo $((6*7))")
		sh.readUntil("42")
	})
	t.Run("answer a prompt", func(t *testing.T) {
		p := startSession(t, s.cs, map[string]any{"command": "printf 'name? '; read n; echo hi $n"})
		p.readUntil("name?")
		p.send("date")
		p.readUntil("hi date")
	})
	t.Run("resize shows in stty size", func(t *testing.T) {
		sh := startSession(t, s.cs, map[string]any{"cols": 100, "rows": 30})
		callTool(t, s.cs, "session_resize", map[string]any{"session_id": sh.id, "cols": 132, "rows": 43})
		sh.send("stty size")
		sh.readUntil("43 132")
	})
	t.Run("ctrl-c interrupts sleep", func(t *testing.T) {
		sh := startSession(t, s.cs, nil)
		m := runnertest.Marker(t)
		sh.send("sleep " + m + "; echo slept")
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 1 }, 15*time.Second)
		callTool(t, s.cs, "session_signal", map[string]any{"session_id": sh.id, "signal": "INT"})
		sh.send("echo after-$((1+1))")
		out := sh.readUntil("after-2")
		if strings.Contains(out, "\nslept") {
			t.Errorf("sleep was not interrupted: %q", out)
		}
	})
	t.Run("exit status", func(t *testing.T) {
		sh := startSession(t, s.cs, nil)
		sh.send("exit 3")
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			_, got := callTool(t, s.cs, "session_read", map[string]any{"session_id": sh.id, "wait_s": 1})
			if got["exited"] == true {
				if got["exit_code"] != float64(3) {
					t.Errorf("exit_code = %v, want 3", got["exit_code"])
				}
				return
			}
		}
		t.Fatal("exit not reported")
	})
	t.Run("denied text does not run", func(t *testing.T) {
		marker := filepath.Join(t.TempDir(), "marker")
		sh := startSession(t, s.cs, nil)
		got := sh.send("echo ran > " + marker + "; rm -rf --no-preserve-root /")
		if got["status"] != "denied" {
			t.Fatalf("send was not denied: %v", got)
		}
		sh.send("echo alive")
		sh.readUntil("alive")
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("denied text ran")
		}
	})
	t.Run("close kills a background grandchild and reports the recording", func(t *testing.T) {
		marker := fmt.Sprintf("warden-session-%d", time.Now().UnixNano())
		sh := startSession(t, s.cs, nil)
		sh.send("sh -c 'sleep 1000; : " + marker + "' &")
		deadline := time.Now().Add(5 * time.Second)
		for len(processesWith(marker)) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if len(processesWith(marker)) == 0 {
			t.Fatal("grandchild never started")
		}
		res, got := callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
		if res.IsError {
			t.Fatal(text(res))
		}
		if left := waitGone(marker, 5*time.Second); len(left) > 0 {
			t.Fatalf("grandchild survived close: %v", left)
		}
		if got["recording"] == nil || got["recording_sha256"] == nil {
			t.Errorf("close does not report the recording: %v", got)
		}
		audit, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
		if !strings.Contains(string(audit), fmt.Sprint(got["recording_sha256"])) {
			t.Error("the audit record of the close lacks the recording's SHA-256")
		}
	})
}

func TestSessionFloodAndLimit(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+writeFile(t, "sessions:\n  max: 2\n"))
	s := startStdio(t, env, state, nil)
	flood := startSession(t, s.cs, map[string]any{"command": "head -c 104857600 /dev/zero | tr '\\0' a; echo; echo done"})
	var dropped float64
	// 100 MiB through a terminal takes seconds on an idle machine and
	// minutes on a loaded one: the bound is for a hung session only.
	exited := false
	for deadline := time.Now().Add(5 * time.Minute); !exited && time.Now().Before(deadline); {
		_, got := callTool(t, s.cs, "session_read", map[string]any{"session_id": flood.id, "wait_s": 2, "max_bytes": 1 << 20})
		if d, ok := got["dropped"].(float64); ok {
			dropped += d
		}
		exited = got["exited"] == true
	}
	if !exited {
		t.Fatalf("the flood did not end in 5 minutes; %.0f bytes reported dropped so far", dropped)
	}
	if dropped < 50<<20 {
		t.Errorf("dropped %.0f bytes of 100 MiB, want most of it reported", dropped)
	}
	hwm := vmHWM(t, s.cmd.Process.Pid)
	t.Logf("server peak RSS after a 100 MiB session flood: %d KiB; %.0f bytes reported dropped", hwm, dropped)
	if hwm > 100<<10 {
		t.Errorf("server peak RSS %d KiB exceeds 100 MiB", hwm)
	}
	// flood has exited but is still listed; one more live one fills the limit.
	other := startSession(t, s.cs, nil)
	res, got := callTool(t, s.cs, "session_start", nil)
	if got["status"] != "denied" || !strings.Contains(text(res), "too many") {
		t.Errorf("third session: %s", text(res))
	}
	other.send("echo still-here")
	other.readUntil("still-here")
}

func TestSessionRecordingReplays(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	sh := startSession(t, s.cs, map[string]any{"command": "echo first; read x; echo second $x"})
	read := sh.readUntil("first")
	sh.send("42")
	read += sh.readUntil("second 42")
	callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
	out, err := execCommand([]string{"session", "show", sh.id}, env).Output()
	if err != nil {
		t.Fatalf("session show: %v", err)
	}
	for _, want := range []string{"first", "second 42"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("replay lacks %q:\n%s", want, out)
		}
	}
	list, _ := execCommand([]string{"session", "list"}, env).Output()
	if !strings.Contains(string(list), sh.id) {
		t.Errorf("session list lacks %s:\n%s", sh.id, list)
	}
}

// connectAs connects to warden's HTTP endpoint at url as user, named by
// the trusted proxy header X-User.
func connectAs(t *testing.T, url, user string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: user, Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: headers{map[string]string{"Authorization": "Bearer " + testToken, "X-User": user}}}}
	cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestSessionsBelongToTheirOwner(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_TOKEN="+testToken,
		"WARDEN_CONFIG="+writeFile(t, "http:\n  trusted_proxy_header: X-User\n"))
	s := startHTTP(t, env, state)
	alice, bob := connectAs(t, s.url, "alice"), connectAs(t, s.url, "bob")
	sh := startSession(t, alice, nil)
	if _, list := callTool(t, bob, "session_list", nil); len(list["sessions"].([]any)) != 0 {
		t.Errorf("bob sees alice's session: %v", list)
	}
	for _, tool := range []string{"session_read", "session_close"} {
		if res, got := callTool(t, bob, tool, map[string]any{"session_id": sh.id}); got["status"] != "invalid_argument" {
			t.Errorf("bob's %s of alice's session: %s", tool, text(res))
		}
	}
	if res, got := callTool(t, bob, "session_send", map[string]any{"session_id": sh.id, "data": "echo hijack"}); got["status"] != "invalid_argument" {
		t.Errorf("bob typed into alice's session: %s", text(res))
	}
	if _, list := callTool(t, alice, "session_list", nil); len(list["sessions"].([]any)) != 1 {
		t.Errorf("alice lost her session: %v", list)
	}
}

type headers struct{ h map[string]string }

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestSessionEndAuditedAtShutdown: a session warden ends itself (here at
// shutdown) leaves an audit record with its recording's path and SHA-256.
func TestSessionEndAuditedAtShutdown(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	sh := startSession(t, s.cs, nil)
	sh.send("echo recorded")
	sh.readUntil("recorded")
	s.cs.Close() // warden sees EOF on stdin and shuts down
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"tool":"session_end"`) && strings.Contains(line, sh.id) {
				if !strings.Contains(line, `"recording_sha256":"`) || !strings.Contains(line, "shutdown") {
					t.Fatalf("session_end record lacks the recording or the reason: %s", line)
				}
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no session_end record after shutdown")
}
