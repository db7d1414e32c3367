package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// browser starts a headless Debian chromium driven by chromedp, or skips
// (fails with WARDEN_REQUIRE_CHROMIUM=1) when there is none. opts apply to
// the page's context (chromedp.WithListener, say).
func browser(t *testing.T, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("chromium is required (WARDEN_REQUIRE_CHROMIUM=1) but not installed")
		}
		t.Skip("chromium not installed")
	}
	aopts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // tests run as root
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), aopts...)
	ctx, cancelC := chromedp.NewContext(actx, opts...)
	t.Cleanup(func() { cancelC(); cancelA() })
	// The first run starts the browser, which lives as long as ctx.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// within runs steps in the browser, bounded so that a page that never
// shows what a step waits for fails the test instead of hanging it.
func within(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// browserLogin opens the console at base and signs in with the operator's
// token.
func browserLogin(base, token string) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(base + "/"),
		chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.SendKeys(chromedp.CSS("#token"), token),
		chromedp.Submit(chromedp.CSS("#token")),
	}
}

// screenshot saves the page as NAME.png in $WARDEN_ARTIFACTS (or the
// test's temporary directory).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("WARDEN_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: lossless PNG
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// pageLog records, from the DevTools protocol, every request a page sends,
// every message its EventSources receive and every navigation of its
// frames: what shows that something reached the page by push, with no
// reload and no polling.
type pageLog struct {
	mu       sync.Mutex
	requests []pageRequest
	messages []sseMessage
	navs     int
}

type pageRequest struct {
	id   network.RequestID
	path string // URL path
	typ  network.ResourceType
}

type sseMessage struct {
	req         network.RequestID
	event, data string
}

// listen is the chromedp listener (chromedp.WithListener(l.listen)).
func (l *pageLog) listen(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		path := e.Request.URL
		if u, err := url.Parse(e.Request.URL); err == nil {
			path = u.Path
		}
		l.requests = append(l.requests, pageRequest{e.RequestID, path, e.Type})
	case *network.EventEventSourceMessageReceived:
		l.messages = append(l.messages, sseMessage{e.RequestID, e.EventName, e.Data})
	case *page.EventFrameNavigated:
		l.navs++
	}
}

// mark returns how many requests and navigations the page has made so far.
func (l *pageLog) mark() (requests, navs int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.requests), l.navs
}

// since returns the requests after mark's count, and how many navigations
// came after its count.
func (l *pageLog) since(requests, navs int) ([]pageRequest, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]pageRequest(nil), l.requests[requests:]...), l.navs - navs
}

// streams returns the EventSource requests the page made to path.
func (l *pageLog) streams(path string) []pageRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []pageRequest
	for _, r := range l.requests {
		if r.typ == network.ResourceTypeEventSource && r.path == path {
			out = append(out, r)
		}
	}
	return out
}

// pushed reports whether a message of event whose data contains want
// arrived on the EventSource request req.
func (l *pageLog) pushed(req network.RequestID, event, want string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.messages {
		if m.req == req && m.event == event && strings.Contains(m.data, want) {
			return true
		}
	}
	return false
}

// requireOneStream fails the test unless the page opened exactly one
// EventSource to path, and returns its request.
func (l *pageLog) requireOneStream(t *testing.T, path string) pageRequest {
	t.Helper()
	ss := l.streams(path)
	if len(ss) != 1 {
		t.Fatalf("the page opened %d event streams to %s, want 1 (a reconnect or a reload): %v", len(ss), path, ss)
	}
	return ss[0]
}

// loginPage opens the console in the browser and logs in as the operator,
// waiting until the page's startup requests have been sent and its
// approvals stream has delivered its first list.
func loginPage(t *testing.T, ctx context.Context, base, opTok string) {
	t.Helper()
	if err := within(ctx, append(browserLogin(base, opTok),
		chromedp.WaitVisible(chromedp.CSS("#pending")),
		chromedp.WaitVisible(chromedp.CSS("#calls")),
		chromedp.WaitVisible(chromedp.CSS("#audit")),
		chromedp.WaitVisible(chromedp.CSS("#sessions")),
		chromedp.WaitVisible(chromedp.CSS("#recordings")),
	)...); err != nil {
		screenshot(t, ctx, "console-login-failed")
		t.Fatalf("log in: %v", err)
	}
	waitText(t, ctx, "#status", "live")
}

// waitText waits until the element sel's text contains want.
func waitText(t *testing.T, ctx context.Context, sel, want string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			screenshot(t, ctx, "console-wait-failed")
			t.Fatalf("%s never showed %q; it shows %q", sel, want, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tableRows returns the text of each cell of each row under sel.
func tableRows(t *testing.T, ctx context.Context, sel string) [][]string {
	t.Helper()
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](
		`[...document.querySelectorAll(`+jsString(sel+" tr")+`)].map(tr => [...tr.cells].map(td => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// loadavg returns /proc/loadavg's first three fields.
func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// In a real browser: the operator logs in, a pending call appears, Approve
// makes the waiting MCP call complete with the command's output, and Deny
// returns denied with the operator's reason. The pending call reaches the
// open page by server-sent event on the stream the page opened at login:
// the page sends no request for it and does not reload.
func TestBrowserConsoleApproveAndDeny(t *testing.T) {
	var log pageLog
	ctx := browser(t, chromedp.WithListener(log.listen))
	s, env, base, opTok := webConsole(t)
	if err := within(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#token")),
	); err != nil {
		t.Fatalf("login page: %v", err)
	}
	screenshot(t, ctx, "console-login")
	loginPage(t, ctx, base, opTok)
	events := log.requireOneStream(t, "/api/events")
	// Note when each card is first put in the page (render replaces them
	// on every list it is sent).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.wardenSeen = {};
		new MutationObserver(() => {
			for (const c of document.querySelectorAll("#list article.approval")) {
				if (!(c.id in window.wardenSeen)) window.wardenSeen[c.id] = Date.now();
			}
		}).observe(document.getElementById("list"), { childList: true });
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	reqs, navs := log.mark()

	callCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := callAsync(callCtx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-browser && echo browser-$((6*7))"})
	p := waitPending(t, env, 1)[0]
	card := "#approval-" + p.ID
	if err := within(ctx, chromedp.WaitVisible(chromedp.CSS(card))); err != nil {
		t.Fatalf("the pending call never appeared: %v", err)
	}
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.wardenSeen[`+jsString("approval-"+p.ID)+`]`))
	if err != nil {
		t.Fatalf("when the card appeared: %v", err)
	}
	// Reported, not asserted (a busy machine must not fail the test); the
	// figures are in docs/performance.md.
	t.Logf("the pending call appeared in the page %d ms after it began to wait (load %s)", int64(seen)-p.Created.UnixMilli(), loadavg())
	if !log.pushed(events.id, "approvals", p.ID) {
		t.Errorf("no approvals event on the page's stream carried %s", p.ID)
	}
	after, navigated := log.since(reqs, navs)
	if navigated != 0 {
		t.Errorf("the page navigated %d times while the call came in", navigated)
	}
	for _, r := range after {
		if r.typ == network.ResourceTypeDocument || strings.HasPrefix(r.path, "/api/approvals") || r.path == "/api/events" || r.path == "/api/session" {
			t.Errorf("the page asked for %s (%s) while the call came in: it should be pushed", r.path, r.typ)
		}
	}
	log.requireOneStream(t, "/api/events")
	shown, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown, "rm -rf /nonexistent-warden-browser") || !strings.Contains(shown, p.Digest) {
		t.Errorf("the card does not show the call and its digest:\n%s", shown)
	}
	screenshot(t, ctx, "console-approvals")
	if err := within(ctx, chromedp.Click(chromedp.CSS(card+" button.approve"))); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "ok" || !strings.Contains(got["stdout"].(string), "browser-42") {
		t.Fatalf("approved call = %v", got)
	}
	if err := within(ctx, chromedp.WaitNotPresent(chromedp.CSS(card))); err != nil {
		t.Errorf("the answered call stayed on the page: %v", err)
	}

	// This one hides text from the page's reader: a bidi override, a
	// zero-width space, an escape sequence, the 8-bit CSI and a tag
	// character; the card shows each as an escape.
	done = callAsync(callCtx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-browser-2 # \u202eenod\u200b\x1b]0;t\x07\u009b2K\U000e0041" + strings.Repeat(" ", 3000) + "end"})
	p = waitPending(t, env, 1)[0]
	card = "#approval-" + p.ID
	if err := within(ctx, chromedp.WaitVisible(chromedp.CSS(card))); err != nil {
		t.Fatal(err)
	}
	if shown, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card))); err != nil {
		t.Fatal(err)
	} else if r, bad := displayHides(shown); bad || !strings.Contains(shown, `\u202eenod`) || !strings.Contains(shown, "blanks]… end") {
		t.Errorf("the card shows %U raw, or not the override as \\u202e and the tail:\n%q", r, shown)
	}
	if err := within(ctx,
		chromedp.SendKeys(chromedp.CSS(card+" input.reason"), "ask again after the backup"),
		chromedp.Click(chromedp.CSS(card+" button.deny")),
	); err != nil {
		t.Fatal(err)
	}
	r = <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := structured(t, r.res); got["status"] != "denied" || !strings.Contains(got["reason"].(string), "ask again after the backup") {
		t.Fatalf("denied call = %v", got)
	}
	screenshot(t, ctx, "console-empty")
}

// In a real browser: the operator watches a live session and sees what the
// agent types as it happens.
func TestBrowserConsoleWatchesLiveSession(t *testing.T) {
	ctx := browser(t)
	s, _, base, opTok := webConsole(t)
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	if err := within(ctx, append(browserLogin(base, opTok),
		chromedp.WaitVisible(chromedp.CSS("#watch-"+sh.id)),
		chromedp.Click(chromedp.CSS("#watch-"+sh.id)),
		chromedp.WaitVisible(chromedp.CSS("#term")),
	)...); err != nil {
		t.Fatalf("open the session: %v", err)
	}
	sh.send("echo typed-$((6*7))")
	deadline := time.Now().Add(30 * time.Second)
	for {
		term, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#term")))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(term, "typed-42") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser never showed the typed output; it shows %q", term)
		}
		time.Sleep(100 * time.Millisecond)
	}
	screenshot(t, ctx, "console-session")
	sh.readUntil("typed-42") // watching took nothing from the agent
}

// In a real browser: a finished session's recording replays with
// asciinema-player under the console's CSP.
func TestBrowserConsoleReplaysRecording(t *testing.T) {
	ctx := browser(t)
	s, _, base, opTok := webConsole(t)
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	sh.send("echo replay-$((6*7))")
	sh.readUntil("replay-42")
	callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
	if err := within(ctx, append(browserLogin(base, opTok),
		chromedp.WaitVisible(chromedp.CSS("#replay-"+sh.id)),
		chromedp.Click(chromedp.CSS("#replay-"+sh.id)),
	)...); err != nil {
		t.Fatalf("open the recording: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		shown, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#player")))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(shown, "replay-42") {
			break
		}
		if time.Now().After(deadline) {
			screenshot(t, ctx, "console-replay-failed")
			t.Fatalf("the player never showed the recorded output; it shows %q", shown)
		}
		time.Sleep(200 * time.Millisecond)
	}
	screenshot(t, ctx, "console-replay")
}

// In a real browser: finished calls appear in "Recent calls" as they
// finish, pushed on the page's /api/calls stream — tool, host, tier,
// decision, status, duration and identity, as the audit log has them —
// and never their arguments.
func TestBrowserConsoleCallFeed(t *testing.T) {
	var log pageLog
	ctx := browser(t, chromedp.WithListener(log.listen))
	s, env, base, opTok := webConsole(t)
	loginPage(t, ctx, base, opTok)
	calls := log.requireOneStream(t, "/api/calls")
	reqs, navs := log.mark()

	// One call that runs (and takes a measurable time), one the operator
	// denies, one of another tool.
	callTool(t, s.cs, "run_command", map[string]any{"command": "sleep 0.3; echo feed-marker-allowed"})
	ctx2, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := callAsync(ctx2, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-feed-marker-denied"})
	p := waitPending(t, env, 1)[0]
	operator(t, env, "approvals", "deny", p.ID)
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
	callTool(t, s.cs, "system_info", nil)

	var rows [][]string
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows = tableRows(t, ctx, "#call-list")
		if len(rows) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			screenshot(t, ctx, "console-calls-failed")
			t.Fatalf("the feed shows %d rows, want the 3 calls: %v", len(rows), rows)
		}
		time.Sleep(100 * time.Millisecond)
	}
	screenshot(t, ctx, "console-calls")

	// Each row against the call's audit record. Columns: time, tool, host,
	// tier, decision, status, ms, identity; newest first.
	recs := auditRecords(t, s.state)
	record := func(tool, decision string) map[string]any {
		for _, r := range recs {
			if r["tool"] == tool && r["decision"] == decision {
				return r
			}
		}
		t.Fatalf("no audit record of %s with decision %s", tool, decision)
		return nil
	}
	want := []map[string]any{record("system_info", "allow"), recordOf(t, s.state, p.ID), record("run_command", "allow")}
	if len(rows) != len(want) {
		t.Fatalf("the feed shows %d rows, want %d: %v", len(rows), len(want), rows)
	}
	for i, rec := range want {
		row := rows[i]
		if len(row) != 8 {
			t.Fatalf("row %d has %d cells, want 8: %v", i, len(row), row)
		}
		host := fmt.Sprint(rec["host"])
		if rec["host"] == nil {
			host = ""
		}
		got := []string{row[1], row[2], row[3], row[4], row[5], row[7]}
		exp := []string{fmt.Sprint(rec["tool"]), host, fmt.Sprint(rec["tier"]), fmt.Sprint(rec["decision"]), fmt.Sprint(rec["status"]), fmt.Sprint(rec["identity"])}
		if strings.Join(got, "|") != strings.Join(exp, "|") {
			t.Errorf("row %d (tool host tier decision status identity) = %q, want %q as audited", i, got, exp)
		}
		if ms, err := strconv.Atoi(row[6]); err != nil || ms < 0 {
			t.Errorf("row %d duration %q, want milliseconds", i, row[6])
		}
	}
	if rows[1][3] != "3" || rows[1][4] != "approval_required" || rows[1][5] != "denied" {
		t.Errorf("the denied call shows tier %s, decision %s, status %s; want 3, approval_required, denied", rows[1][3], rows[1][4], rows[1][5])
	}
	if ms, _ := strconv.Atoi(rows[2][6]); ms < 300 {
		t.Errorf("the call that slept 0.3 s shows %s ms", rows[2][6])
	}
	page, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "feed-marker") {
		t.Error("the page shows a call's arguments")
	}
	// Pushed on the stream the page opened at login; nothing reloaded.
	for _, tool := range []string{"run_command", "system_info"} {
		if !log.pushed(calls.id, "call", `"tool":"`+tool+`"`) {
			t.Errorf("no call event on the page's stream carried %s", tool)
		}
	}
	after, navigated := log.since(reqs, navs)
	if navigated != 0 {
		t.Errorf("the page navigated %d times while the calls came in", navigated)
	}
	for _, r := range after {
		if r.typ == network.ResourceTypeDocument || r.path == "/api/calls" {
			t.Errorf("the page asked for %s (%s) while the calls came in: they should be pushed", r.path, r.typ)
		}
	}
}

// In a real browser: the audit log is searched by tool and decision, the
// matching records are shown (and only they), and "Verify chain" shows
// the chain's state — intact, then broken after a record is edited.
func TestBrowserConsoleAuditSearch(t *testing.T) {
	ctx := browser(t)
	s, env, base, opTok := webConsole(t)
	callTool(t, s.cs, "run_command", map[string]any{"command": "echo audit-marker-allowed"})
	callTool(t, s.cs, "system_info", nil)
	ctx2, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := callAsync(ctx2, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-audit-marker-denied"})
	p := waitPending(t, env, 1)[0]
	operator(t, env, "approvals", "deny", p.ID)
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
	loginPage(t, ctx, base, opTok)

	// search fills the form, submits it and waits for rows that all
	// match; columns: time, seq, tool, host, tier, decision, status,
	// identity, args.
	search := func(tool, decision string, want int) [][]string {
		t.Helper()
		if err := within(ctx,
			chromedp.SetValue(chromedp.CSS(`#audit-search input[name=tool]`), tool),
			chromedp.SetValue(chromedp.CSS(`#audit-search select[name=decision]`), decision),
			chromedp.Click(chromedp.CSS(`#audit-search button[type=submit]`)),
		); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			rows := tableRows(t, ctx, "#audit-list")
			ok := len(rows) == want
			for _, r := range rows {
				ok = ok && len(r) == 9 && r[2] == tool && r[5] == decision
			}
			if ok {
				return rows
			}
			if time.Now().After(deadline) {
				screenshot(t, ctx, "console-audit-failed")
				t.Fatalf("search tool=%s decision=%s shows %v, want %d matching rows", tool, decision, rows, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	rows := search("run_command", "allow", 1)
	if !strings.Contains(rows[0][8], "audit-marker-allowed") || rows[0][6] != "ok" {
		t.Errorf("allowed run_command row = %q", rows[0])
	}
	rows = search("run_command", "approval_required", 1)
	if !strings.Contains(rows[0][8], "audit-marker-denied") || rows[0][4] != "3" || rows[0][6] != "denied" {
		t.Errorf("denied run_command row = %q", rows[0])
	}
	search("system_info", "allow", 1)
	search("system_info", "approval_required", 0)
	search("run_command", "approval_required", 1)

	if err := within(ctx, chromedp.Click(chromedp.CSS("#audit-verify"))); err != nil {
		t.Fatal(err)
	}
	shown := waitText(t, ctx, "#chain", "chain intact:")
	var n int
	if _, err := fmt.Sscanf(shown, "chain intact: %d records", &n); err != nil || n != len(auditRecords(t, s.state)) {
		t.Errorf("chain state %q, want an intact chain of the %d records so far", shown, len(auditRecords(t, s.state)))
	}
	screenshot(t, ctx, "console-audit")

	// Edit one record in place: the page now says the chain is broken.
	logPath := filepath.Join(s.state, "audit.jsonl")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"tool":"system_info"`, `"tool":"system_infx"`, 1)
	if edited == string(b) {
		t.Fatal("no system_info record to edit")
	}
	if err := os.WriteFile(logPath, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := within(ctx, chromedp.Click(chromedp.CSS("#audit-verify"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#chain", "CHAIN BROKEN")
	screenshot(t, ctx, "console-audit-broken")
}
