package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// httpConsole starts warden serving MCP over HTTP with the web console on
// a free loopback port; consoleYAML is added under console: (indented two
// spaces), yaml at the top. It returns the server, the console's base URL
// and the operator credential.
func httpConsole(t *testing.T, consoleYAML, yaml string, env []string, state string) (*httpServer, string, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := writeFile(t, "console:\n  listen: "+addr+"\n"+consoleYAML+"approval:\n  wait: 2m\n"+yaml)
	s := startHTTP(t, append(env, "WARDEN_CONFIG="+cfg), state)
	var tok []byte
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if tok, err = os.ReadFile(filepath.Join(state, "console-token")); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return s, "http://" + addr, strings.TrimSpace(string(tok))
}

// feedIdentity reads the console's live feed of calls until a call of
// tool shows, and returns its identity.
func feedIdentity(t *testing.T, base, opTok, tool string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/calls", nil)
	req.Header.Set("Authorization", "Bearer "+opTok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		var c struct{ Tool, Identity string }
		if ok && json.Unmarshal([]byte(d), &c) == nil && c.Tool == tool {
			return c.Identity
		}
	}
	t.Fatalf("the feed never showed a %s call", tool)
	return ""
}

// An agent's named token is shown by its name in the feed and on its
// pending approvals, and is refused on the console with 403 — also one
// made while the server runs.
func TestWebConsoleNamedAgentTokens(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_TOKEN="+testToken)
	out, err := execCommand([]string{"token", "new", "ci-bot", "--scope", "warden:admin"}, env).Output()
	if err != nil {
		t.Fatal(err)
	}
	ci := strings.TrimSpace(string(out))
	s, base, opTok := httpConsole(t, "", "", env, state)
	cs := connectHTTP(t, &httpServer{url: s.url, token: ci}, "", nil)

	callTool(t, cs, "system_info", nil)
	if who := feedIdentity(t, base, opTok, "system_info"); who != "token:ci-bot" {
		t.Errorf("the feed names the caller %q, want token:ci-bot", who)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := callAsync(ctx, cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-named"})
	p := waitPending(t, env, 1)[0]
	if p.Identity != "token:ci-bot" {
		t.Errorf("the pending approval names %q, want token:ci-bot", p.Identity)
	}
	code, body, _ := webReq(t, "GET", base+"/api/approvals", map[string]string{"Authorization": "Bearer " + opTok}, "")
	if code != 200 || !strings.Contains(body, `"identity":"token:ci-bot"`) {
		t.Errorf("console approvals: %d %s, want the call named token:ci-bot", code, body)
	}

	out, err = execCommand([]string{"token", "new", "late-bot", "--scope", "warden:read"}, env).Output()
	if err != nil {
		t.Fatal(err)
	}
	late := strings.TrimSpace(string(out))
	for name, tok := range map[string]string{"token:ci-bot": ci, "token:late-bot": late} {
		code, body, _ := webReq(t, "GET", base+"/api/approvals", map[string]string{"Authorization": "Bearer " + tok}, "")
		if code != 403 || !strings.Contains(body, name) {
			t.Errorf("%s's token on the console: %d %s, want 403 naming it", name, code, body)
		}
		code, body, _ = webReq(t, "POST", base+"/login", map[string]string{"Origin": base, "Content-Type": "application/x-www-form-urlencoded"}, url.Values{"token": {tok}}.Encode())
		if code != 403 {
			t.Errorf("%s's token at login: %d %s, want 403", name, code, body)
		}
	}
	if _, errOut, code := operator(t, env, "approvals", "deny", p.ID); code != 0 {
		t.Fatalf("deny: %s", errOut)
	}
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
}

// Where OAuth is on, a token from the issuer carrying the operator scope
// operates the console (its approval is audited under its subject); one
// without it is refused with 403; the scope's name is configurable.
func TestWebConsoleOAuthOperatorScope(t *testing.T) {
	idp := startOIDC(t)
	oauth := "http:\n  oauth:\n    issuer: " + idp.issuerA + "\n    resource: " + testResource + "\n"
	get := func(scope string) string {
		t.Helper()
		tok, err := clientConfig(idp.issuerA, "warden-admin", scope, testResource).Token(context.Background())
		if err != nil {
			t.Fatalf("token for %q: %v", scope, err)
		}
		return tok.AccessToken
	}
	op, agent := get("warden:operator"), get("warden:admin")
	env, state := wardenEnv(t, "WARDEN_TOKEN="+testToken)
	s, base, _ := httpConsole(t, "", oauth, env, state)
	auth := func(tok string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
	}
	if code, body, _ := webReq(t, "GET", base+"/api/approvals", auth(agent), ""); code != 403 || !strings.Contains(body, "warden:operator") {
		t.Errorf("a token without the operator scope: %d %s, want 403 naming warden:operator", code, body)
	}
	if code, body, _ := webReq(t, "GET", base+"/api/approvals", auth(op), ""); code != 200 {
		t.Fatalf("a token with the operator scope: %d %s, want 200", code, body)
	}

	cs := connectHTTP(t, &httpServer{url: s.url, token: agent}, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := callAsync(ctx, cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-oauth && echo oauth-$((6*7))"})
	p := waitPending(t, env, 1)[0]
	code, body, _ := webReq(t, "POST", base+"/api/approvals/"+p.ID, auth(op), `{"approve":true,"digest":"`+p.Digest+`"}`)
	if code != 200 {
		t.Fatalf("approve with the operator's OAuth token: %d %s", code, body)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "ok" {
		t.Fatalf("approved call = %v", got)
	}
	if who := recordOf(t, state, p.ID)["extra"].(map[string]any)["approver"]; !strings.HasPrefix(who.(string), "oauth:") {
		t.Errorf("the approver is %q, want the OAuth subject", who)
	}

	// Named otherwise, the scope is that name alone.
	env2, state2 := wardenEnv(t, "WARDEN_TOKEN="+testToken)
	_, base2, _ := httpConsole(t, "  operator_scope: other:thing\n", oauth, env2, state2)
	for _, tc := range []struct {
		scope string
		want  int
	}{{"other:thing", 200}, {"warden:operator", 403}} {
		if code, body, _ := webReq(t, "GET", base2+"/api/approvals", auth(get(tc.scope)), ""); code != tc.want {
			t.Errorf("operator_scope other:thing, a token with %s: %d %s, want %d", tc.scope, code, body, tc.want)
		}
	}
}

// Identity A cannot see identity B's pending approvals through the
// warden://approvals resource: over HTTP with two named tokens, each
// reads only its own.
func TestApprovalsResourceIsPerIdentity(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_TOKEN="+testToken)
	tokens := map[string]string{}
	for _, name := range []string{"alice-bot", "bob-bot"} {
		out, err := execCommand([]string{"token", "new", name, "--scope", "warden:admin"}, env).Output()
		if err != nil {
			t.Fatal(err)
		}
		tokens[name] = strings.TrimSpace(string(out))
	}
	s, _, _ := httpConsole(t, "", "", env, state)
	alice := connectHTTP(t, &httpServer{url: s.url, token: tokens["alice-bot"]}, "", nil)
	bob := connectHTTP(t, &httpServer{url: s.url, token: tokens["bob-bot"]}, "", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := callAsync(ctx, bob, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-bob"})
	p := waitPending(t, env, 1)[0]
	if p.Identity != "token:bob-bot" {
		t.Fatalf("the pending call is %q's, want token:bob-bot's", p.Identity)
	}
	var seen []map[string]any
	readJSONResource(t, alice, "warden://approvals", &seen)
	if len(seen) != 0 {
		t.Errorf("alice-bot reads another identity's approvals: %v", seen)
	}
	readJSONResource(t, bob, "warden://approvals", &seen)
	if len(seen) != 1 || seen[0]["id"] != p.ID {
		t.Errorf("bob-bot reads %v, want its own pending call %s", seen, p.ID)
	}
	if _, errOut, code := operator(t, env, "approvals", "deny", p.ID); code != 0 {
		t.Fatalf("deny: %s", errOut)
	}
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
}
