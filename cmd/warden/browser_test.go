package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser starts a headless Debian chromium driven by chromedp, or skips
// (fails with WARDEN_REQUIRE_CHROMIUM=1) when there is none.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("chromium is required (WARDEN_REQUIRE_CHROMIUM=1) but not installed")
		}
		t.Skip("chromium not installed")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // tests run as root
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
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

// In a real browser: the operator logs in, a pending call appears, Approve
// makes the waiting MCP call complete with the command's output, and Deny
// returns denied with the operator's reason.
func TestBrowserConsoleApproveAndDeny(t *testing.T) {
	ctx := browser(t)
	s, env, base, opTok := webConsole(t)
	if err := within(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#token")),
	); err != nil {
		t.Fatalf("login page: %v", err)
	}
	screenshot(t, ctx, "console-login")
	if err := within(ctx,
		chromedp.SendKeys(chromedp.CSS("#token"), opTok),
		chromedp.Submit(chromedp.CSS("#token")),
		chromedp.WaitVisible(chromedp.CSS("#pending")),
		chromedp.WaitVisible(chromedp.CSS("#empty")),
	); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		screenshot(t, ctx, "console-login-failed")
		t.Fatalf("login: %v; at %s the page says %q", err, loc, body)
	}

	callCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := callAsync(callCtx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-browser && echo browser-$((6*7))"})
	p := waitPending(t, env, 1)[0]
	start := time.Now()
	card := "#approval-" + p.ID
	if err := within(ctx, chromedp.WaitVisible(chromedp.CSS(card))); err != nil {
		t.Fatalf("the pending call never appeared: %v", err)
	}
	t.Logf("the pending call appeared in the browser %s after the CLI saw it", time.Since(start).Round(time.Millisecond))
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

	done = callAsync(callCtx, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-warden-browser-2"})
	p = waitPending(t, env, 1)[0]
	card = "#approval-" + p.ID
	if err := within(ctx,
		chromedp.WaitVisible(chromedp.CSS(card)),
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
	if err := within(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.SendKeys(chromedp.CSS("#token"), opTok),
		chromedp.Submit(chromedp.CSS("#token")),
		chromedp.WaitVisible(chromedp.CSS("#watch-"+sh.id)),
		chromedp.Click(chromedp.CSS("#watch-"+sh.id)),
		chromedp.WaitVisible(chromedp.CSS("#term")),
	); err != nil {
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
	if err := within(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.SendKeys(chromedp.CSS("#token"), opTok),
		chromedp.Submit(chromedp.CSS("#token")),
		chromedp.WaitVisible(chromedp.CSS("#replay-"+sh.id)),
		chromedp.Click(chromedp.CSS("#replay-"+sh.id)),
	); err != nil {
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
