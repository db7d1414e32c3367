package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const testToken = "e2e-token-0123456789abcdef"

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func rawPost(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(b)
}

func TestHTTPBothRevisionsRunCommands(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			cs := connectHTTP(t, s, version, nil)
			res, got := callTool(t, cs, "run_command", map[string]any{"command": "echo over-http"})
			if res.IsError || got["stdout"] != "over-http\n" {
				t.Fatalf("got %s", text(res))
			}
			_, info := callTool(t, cs, "server_info", nil)
			if info["transport"] != "http" {
				t.Errorf("transport = %v, want http", info["transport"])
			}
		})
	}
}

func TestHTTPRefusesBeforeAnyToolRuns(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	marker := filepath.Join(t.TempDir(), "ran")
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch ` + marker + `"}}}`
	tests := []struct {
		name   string
		body   string
		header map[string]string
		want   int
	}{
		{"no token initialize", initializeBody, nil, http.StatusUnauthorized},
		{"wrong token initialize", initializeBody, map[string]string{"Authorization": "Bearer wrong-token-0123456789"}, http.StatusUnauthorized},
		{"not bearer", initializeBody, map[string]string{"Authorization": "Basic " + testToken}, http.StatusUnauthorized},
		{"no token tools/call", call, nil, http.StatusUnauthorized},
		{"stateless no token tools/call", call, map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, http.StatusUnauthorized},
		{"rebinding Host", initializeBody, map[string]string{"Authorization": "Bearer " + testToken, "Host": "attacker.example:8787"}, http.StatusForbidden},
		{"foreign Origin", initializeBody, map[string]string{"Authorization": "Bearer " + testToken, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"oversized body", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("a", 2<<20) + `"}}`, map[string]string{"Authorization": "Bearer " + testToken}, http.StatusRequestEntityTooLarge},
		{"good token", initializeBody, map[string]string{"Authorization": "Bearer " + testToken}, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := rawPost(t, s.url, tc.body, tc.header)
			if code != tc.want {
				t.Errorf("status %d, want %d (%s)", code, tc.want, body)
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a refused request ran a tool")
	}
}

func TestHTTPGeneratedToken(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startHTTP(t, env, state)
	fi, err := os.Stat(filepath.Join(state, "token"))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("token file mode %o, want 600", perm)
	}
	if len(s.token) < 40 {
		t.Errorf("generated token %q is shorter than 32 random bytes encoded", s.token)
	}
	code, _ := rawPost(t, s.url, initializeBody, map[string]string{"Authorization": "Bearer " + s.token})
	if code != http.StatusOK {
		t.Errorf("generated token refused: %d", code)
	}
	if !waitFor(5*time.Second, func() bool { return strings.Contains(s.stderr.String(), "claude mcp add") }) {
		t.Errorf("startup did not print how to connect:\n%s", s.stderr)
	}
}

func TestStartupRefusesUnsafeHTTP(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"short token", []string{"serve", "--http", "127.0.0.1:0"}, []string{"WARDEN_TOKEN=short"}, "at least 16"},
		{"non-loopback without flag", []string{"serve", "--http", "0.0.0.0:0"}, nil, "allow_non_loopback"},
		{"unknown config key", []string{"serve", "--config", writeFile(t, "mode: open\nshell: yes\n")}, nil, "shell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := wardenEnv(t, tc.env...)
			cmd := execCommand(tc.args, env)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("started anyway:\n%s", out)
			}
			if !bytes.Contains(out, []byte(tc.want)) {
				t.Errorf("error does not mention %q:\n%s", tc.want, out)
			}
		})
	}
}

func TestConfigCheck(t *testing.T) {
	env, _ := wardenEnv(t, "WARDEN_TOKEN=secret-token-0123456789")
	out, err := execCommand([]string{"config", "check", writeFile(t, "mode: readonly\n")}, env).CombinedOutput()
	if err != nil {
		t.Fatalf("config check failed: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("mode: readonly")) || bytes.Contains(out, []byte("secret-token")) {
		t.Errorf("config check output wrong or leaks the token:\n%s", out)
	}
	out, err = execCommand([]string{"config", "check", writeFile(t, "mode: yolo\n")}, env).CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("yolo")) {
		t.Errorf("invalid config accepted or unclear: %v\n%s", err, out)
	}
}

// TestHTTPPromptFetchAudited fetches a declarative prompt over both HTTP
// revisions (the stateless one has no initialize parameters) and finds
// each fetch in the audit log.
func TestHTTPPromptFetchAudited(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state, "--tools", fixture("basic.yaml"))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectHTTP(t, s, version, nil)
		pr, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "basic_helper"})
		if err != nil || len(pr.Messages) == 0 {
			t.Fatalf("%s: GetPrompt: %v %v", version, pr, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if n := strings.Count(string(b), `"tool":"prompt:basic_helper"`); n != 2 {
		t.Errorf("%d prompt fetches audited, want 2", n)
	}
}
