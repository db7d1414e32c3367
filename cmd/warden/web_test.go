package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const agentToken = "agent-token-0123456789abcdef"

// webConsole starts warden over stdio with the web console on a free
// loopback port and returns the server, the operator's environment, the
// console's base URL and the operator credential.
func webConsole(t *testing.T) (*stdioServer, []string, string, string) {
	t.Helper()
	return webConsoleWith(t, "")
}

// webConsoleWith is webConsole with more configuration (YAML under
// console:, indented two spaces).
func webConsoleWith(t *testing.T, consoleYAML string) (*stdioServer, []string, string, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := writeFile(t, "console:\n  listen: "+addr+"\n"+consoleYAML+"approval:\n  wait: 2m\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+agentToken)
	s := startStdio(t, env, state, nil)
	waitPending(t, env, 0) // the console is up
	b, err := os.ReadFile(filepath.Join(state, "console-token"))
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(state, "console-token"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("console-token mode %v, want 0600", fi.Mode().Perm())
	}
	return s, env, "http://" + addr, strings.TrimSpace(string(b))
}

// webReq sends one request to the console and returns status and body.
func webReq(t *testing.T, method, u string, hdr map[string]string, body string) (int, string, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// login logs in as a browser on the console's own page would and returns
// the session cookie and its CSRF token.
func login(t *testing.T, base, token string) (cookie, csrf string) {
	t.Helper()
	code, body, h := webReq(t, "POST", base+"/login", map[string]string{
		"Origin": base, "Content-Type": "application/x-www-form-urlencoded",
	}, url.Values{"token": {token}}.Encode())
	if code != http.StatusSeeOther {
		t.Fatalf("login: %d %s", code, body)
	}
	set := h.Get("Set-Cookie")
	if !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Strict") {
		t.Errorf("session cookie %q is not HttpOnly and SameSite=Strict", set)
	}
	cookie, _, _ = strings.Cut(set, ";")
	code, body, _ = webReq(t, "GET", base+"/api/session", map[string]string{"Cookie": cookie}, "")
	var s struct{ CSRF string }
	if code != 200 || json.Unmarshal([]byte(body), &s) != nil || s.CSRF == "" {
		t.Fatalf("session: %d %s", code, body)
	}
	return cookie, s.CSRF
}

func TestWebConsoleSecurity(t *testing.T) {
	s, env, base, opTok := webConsole(t)
	host := strings.TrimPrefix(base, "http://")
	tests := []struct {
		name   string
		method string
		path   string
		hdr    map[string]string
		body   string
		want   int
	}{
		{"no credential", "GET", "/api/approvals", nil, "", 401},
		{"no credential sessions", "GET", "/api/sessions", nil, "", 401},
		{"no credential watch", "GET", "/api/sessions/0123456789abcdef/watch", nil, "", 401},
		{"no credential feed", "GET", "/api/events", nil, "", 401},
		{"no credential recording", "GET", "/api/recordings/0123456789abcdef", nil, "", 401},
		{"recording outside the recordings", "GET", "/api/recordings/..%2Fconsole-token", map[string]string{"Authorization": "Bearer " + opTok}, "", 400},
		{"wrong bearer", "GET", "/api/approvals", map[string]string{"Authorization": "Bearer nope-nope-nope-nope"}, "", 401},
		{"agent token", "GET", "/api/approvals", map[string]string{"Authorization": "Bearer " + agentToken}, "", 403},
		{"agent token at login", "POST", "/login", map[string]string{"Origin": base, "Content-Type": "application/x-www-form-urlencoded"}, "token=" + agentToken, 403},
		{"foreign host", "GET", "/api/approvals", map[string]string{"Authorization": "Bearer " + opTok, "Host": "evil.example:80"}, "", 403},
		{"foreign origin login", "POST", "/login", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}, "token=" + opTok, 403},
		{"operator bearer", "GET", "/api/approvals", map[string]string{"Authorization": "Bearer " + opTok}, "", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if code, body, _ := webReq(t, tc.method, base+tc.path, tc.hdr, tc.body); code != tc.want {
				t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, code, body, tc.want)
			}
		})
	}

	code, page, h := webReq(t, "GET", base+"/", nil, "")
	if code != 200 || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("index: %d, CSP %q", code, h.Get("Content-Security-Policy"))
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "onclick") {
		t.Errorf("index has an inline script:\n%s", page)
	}

	// A CSRF attempt: a foreign page makes the operator's browser post an
	// approval. The cookie is SameSite=Strict; even sent, the Origin and
	// the missing CSRF token refuse it, and the call keeps waiting.
	cookie, csrf := login(t, base, opTok)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-web && echo web-approved"})
	p := waitPending(t, env, 1)[0]
	answerURL := base + "/api/approvals/" + p.ID
	approve := `{"approve":true,"digest":"` + p.Digest + `"}`
	for name, hdr := range map[string]map[string]string{
		"foreign origin":  {"Cookie": cookie, "Origin": "https://evil.example", "X-Warden-CSRF": csrf},
		"no csrf token":   {"Cookie": cookie, "Origin": base},
		"wrong csrf":      {"Cookie": cookie, "Origin": base, "X-Warden-CSRF": "0000"},
		"no origin":       {"Cookie": cookie, "X-Warden-CSRF": csrf},
		"agent as bearer": {"Authorization": "Bearer " + agentToken},
	} {
		if code, body, _ := webReq(t, "POST", answerURL, hdr, approve); code != 403 {
			t.Errorf("%s: %d %s, want 403", name, code, body)
		}
	}
	if ps := waitPending(t, env, 1); ps[0].ID != p.ID {
		t.Fatalf("the refused answers changed the pending call")
	}
	// The operator's own page approves it.
	if code, body, _ := webReq(t, "POST", answerURL, map[string]string{"Cookie": cookie, "Origin": base, "X-Warden-CSRF": csrf, "Host": host}, approve); code != 200 {
		t.Fatalf("approve: %d %s", code, body)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "ok" || !strings.Contains(got["stdout"].(string), "web-approved") {
		t.Fatalf("approved call = %v", got)
	}
	if rec := recordOf(t, s.state, p.ID); !strings.HasPrefix(rec["extra"].(map[string]any)["approver"].(string), "web:operator") {
		t.Errorf("audit record = %v, want the web operator as approver", rec)
	}
	// Every operator action is audited: the login, the refused answers
	// (as errors only if they reached the queue) and the approval.
	actions := map[string]int{}
	for _, r := range auditRecords(t, s.state) {
		if r["tool"] == "console" {
			extra := r["extra"].(map[string]any)
			actions[fmt.Sprint(extra["action"], "/", r["status"])]++
			if extra["action"] == "approve" && (extra["approval_id"] != p.ID || !strings.HasPrefix(fmt.Sprint(r["identity"]), "web:operator")) {
				t.Errorf("approve record = %v", r)
			}
		}
	}
	if actions["login/ok"] != 1 || actions["approve/ok"] != 1 {
		t.Errorf("audited operator actions = %v, want one login and one approval", actions)
	}
}

// The live feed shows a pending call as soon as it waits, and Deny returns
// the operator's reason to the agent.
func TestWebConsoleFeedAndDeny(t *testing.T) {
	s, env, base, opTok := webConsole(t)
	cookie, csrf := login(t, base, opTok)
	req, _ := http.NewRequest("GET", base+"/api/events", nil)
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- d
			}
		}
		close(events)
	}()
	if first := <-events; first != "[]" {
		t.Fatalf("first event %q, want the empty list", first)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-feed"})
	var id string
	select {
	case ev := <-events:
		var ps []struct{ ID, Tool string }
		if err := json.Unmarshal([]byte(ev), &ps); err != nil || len(ps) != 1 || ps[0].Tool != "run_command" {
			t.Fatalf("event %q, want the waiting run_command", ev)
		}
		id = ps[0].ID
	case <-time.After(30 * time.Second):
		t.Fatal("the pending call never reached the feed")
	}
	p := waitPending(t, env, 1)[0]
	if p.ID != id {
		t.Fatalf("feed id %s, CLI id %s", id, p.ID)
	}
	if code, body, _ := webReq(t, "POST", base+"/api/approvals/"+id, map[string]string{"Cookie": cookie, "Origin": base, "X-Warden-CSRF": csrf},
		`{"approve":false,"reason":"use the staging box"}`); code != 200 {
		t.Fatalf("deny: %d %s", code, body)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "denied" || !strings.Contains(got["reason"].(string), "use the staging box") {
		t.Fatalf("denied call = %v", got)
	}
}

// The live feed of calls shows each finished call — tool, host, tier,
// decision, duration, identity — and never its arguments.
func TestWebConsoleCallFeed(t *testing.T) {
	s, _, base, opTok := webConsole(t)
	cookie, _ := login(t, base, opTok)
	if code, _, _ := webReq(t, "GET", base+"/api/calls", nil, ""); code != 401 {
		t.Errorf("feed without credential: %d, want 401", code)
	}
	callTool(t, s.cs, "run_command", map[string]any{"command": "echo feed-marker PASSWORD=hunter2-secret"})
	req, _ := http.NewRequest("GET", base+"/api/calls", nil)
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if strings.Contains(d, "hunter2") || strings.Contains(d, "feed-marker") {
			t.Fatalf("the feed carries arguments: %s", d)
		}
		var c struct {
			Tool, Host, Identity, Decision, Status string
			Tier                                   int
		}
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatal(err)
		}
		if c.Tool == "run_command" {
			if c.Host != "local" || c.Identity == "" || c.Decision != "allow" || c.Status != "ok" {
				t.Errorf("feed entry = %s", d)
			}
			return
		}
	}
	t.Fatal("the feed never showed the run_command call")
}

// The audit log is searchable by tool, host, identity, decision and time,
// its chain state one request away, both behind the operator credential.
func TestWebConsoleAuditSearch(t *testing.T) {
	s, _, base, opTok := webConsole(t)
	callTool(t, s.cs, "run_command", map[string]any{"command": "echo audited PASSWORD=hunter2-secret"})
	callTool(t, s.cs, "system_info", nil)
	auth := map[string]string{"Authorization": "Bearer " + opTok}
	for _, path := range []string{"/api/audit", "/api/audit/verify"} {
		if code, _, _ := webReq(t, "GET", base+path, nil, ""); code != 401 {
			t.Errorf("%s without credential: %d, want 401", path, code)
		}
	}
	code, body, _ := webReq(t, "GET", base+"/api/audit?tool=run_command&decision=allow&host=local&since=2000-01-01T00:00:00Z", auth, "")
	var recs []map[string]any
	if code != 200 || json.Unmarshal([]byte(body), &recs) != nil || len(recs) != 1 || recs[0]["tool"] != "run_command" {
		t.Fatalf("search: %d %s, want the one run_command", code, body)
	}
	if strings.Contains(body, "hunter2") {
		t.Errorf("search shows a secret the log redacts: %s", body)
	}
	if code, body, _ := webReq(t, "GET", base+"/api/audit?identity=nobody-at-all", auth, ""); code != 200 || strings.TrimSpace(body) != "[]" {
		t.Errorf("search for another identity: %d %s, want none", code, body)
	}
	if code, body, _ := webReq(t, "GET", base+"/api/audit?since=yesterday", auth, ""); code != 400 || !strings.Contains(body, "RFC 3339") {
		t.Errorf("bad since: %d %s, want 400", code, body)
	}
	code, body, _ = webReq(t, "GET", base+"/api/audit/verify", auth, "")
	var st struct {
		Intact  bool
		Records int
	}
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil || !st.Intact || st.Records < 2 {
		t.Fatalf("verify: %d %s, want an intact chain", code, body)
	}
}

// An approval for call A cannot approve call B over HTTP: with two calls
// waiting, A's id with B's digest and B's id with A's digest (A's approval
// replayed on B) are refused and both keep waiting; A's approval completes
// A only, and replaying it afterwards answers nothing.
func TestWebConsoleApprovalIsForOneCall(t *testing.T) {
	s, env, base, opTok := webConsole(t)
	cookie, csrf := login(t, base, opTok)
	hdr := map[string]string{"Cookie": cookie, "Origin": base, "X-Warden-CSRF": csrf}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	doneA := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-a; echo ran-A"})
	doneB := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-b; echo ran-B"})
	ps := waitPending(t, env, 2)
	a, b := ps[0], ps[1]
	if strings.Contains(string(a.Args), "warden-b") {
		a, b = b, a
	}
	if a.Digest == b.Digest {
		t.Fatalf("two different calls have one digest %s", a.Digest)
	}
	answer := func(id, digest string) (int, string) {
		code, body, _ := webReq(t, "POST", base+"/api/approvals/"+id, hdr, `{"approve":true,"digest":"`+digest+`"}`)
		return code, body
	}
	for name, c := range map[string][2]string{
		"A's id with B's digest":  {a.ID, b.Digest},
		"A's approval sent for B": {b.ID, a.Digest},
	} {
		if code, body := answer(c[0], c[1]); code != http.StatusConflict {
			t.Errorf("%s: %d %s, want 409", name, code, body)
		}
	}
	if got := waitPending(t, env, 2); got[0].ID+got[1].ID != ps[0].ID+ps[1].ID {
		t.Fatalf("the refused answers changed what waits: %v", got)
	}
	if code, body := answer(a.ID, a.Digest); code != http.StatusOK {
		t.Fatalf("approve A: %d %s", code, body)
	}
	r := <-doneA
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "ok" || !strings.Contains(fmt.Sprint(got["stdout"]), "ran-A") {
		t.Fatalf("A = %v, want it run", got)
	}
	// A's approval replayed, on A or on B, answers nothing: B still waits.
	if code, body := answer(a.ID, a.Digest); code != http.StatusNotFound {
		t.Errorf("A's approval replayed: %d %s, want 404", code, body)
	}
	if code, body := answer(b.ID, a.Digest); code != http.StatusConflict {
		t.Errorf("A's approval replayed on B: %d %s, want 409", code, body)
	}
	if got := waitPending(t, env, 1); got[0].ID != b.ID {
		t.Fatalf("waiting: %v, want only B", got)
	}
	select {
	case r := <-doneB:
		t.Fatalf("B ended without its own answer: %v %v", r.res, r.err)
	default:
	}
	if code, body, _ := webReq(t, "POST", base+"/api/approvals/"+b.ID, hdr, `{"approve":false,"reason":"only A was meant","digest":"`+b.Digest+`"}`); code != http.StatusOK {
		t.Fatalf("deny B: %d %s", code, body)
	}
	r = <-doneB
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "denied" || strings.Contains(fmt.Sprint(got["stdout"]), "ran-B") {
		t.Fatalf("B = %v, want denied and not run", got)
	}
	// The audit log agrees: A approved, B denied, and the refused answers
	// are on record as the operator's failed actions.
	if rec := recordOf(t, s.state, a.ID); rec["status"] != "ok" {
		t.Errorf("A's record = %v", rec)
	}
	if rec := recordOf(t, s.state, b.ID); rec["status"] != "denied" {
		t.Errorf("B's record = %v", rec)
	}
	refused := 0
	for _, r := range auditRecords(t, s.state) {
		if extra, _ := r["extra"].(map[string]any); r["tool"] == "console" && extra["action"] == "approve" && r["status"] != "ok" {
			refused++
		}
	}
	if refused != 4 {
		t.Errorf("%d refused approvals audited, want 4", refused)
	}
	waitPending(t, env, 0)
}
