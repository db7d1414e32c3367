package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// consoleRecords returns the audit records of the operator's take-over
// actions on session id, by action.
func consoleRecords(t *testing.T, state, id string) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, r := range auditRecords(t, state) {
		extra, _ := r["extra"].(map[string]any)
		if r["tool"] == "console" && extra != nil && extra["session_id"] == id {
			a := fmt.Sprint(extra["action"])
			out[a] = append(out[a], r)
		}
	}
	return out
}

// stoppedRecords waits (15 s at most) for the takeover of session id to
// end, and returns the console's records of it then.
func stoppedRecords(t *testing.T, state, id string) map[string][]map[string]any {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		recs := consoleRecords(t, state, id)
		if len(recs["takeover_stop"]) == 1 || time.Now().After(deadline) {
			return recs
		}
	}
}

// In a real browser, with console.takeover on: the operator takes a live
// session over, types echo TAKEN, sees its output in the session, and
// releases it; the start, the input (what was typed) and the stop are
// audited naming the operator.
func TestBrowserConsoleTakeover(t *testing.T) {
	ctx := browser(t)
	s, _, base, opTok := webConsoleWith(t, "  takeover: true\n")
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	if err := within(ctx, append(browserLogin(base, opTok),
		chromedp.WaitVisible(chromedp.CSS("#watch-"+sh.id)),
		chromedp.Click(chromedp.CSS("#watch-"+sh.id)),
		chromedp.WaitVisible(chromedp.CSS("#takeover-toggle")),
		chromedp.Click(chromedp.CSS("#takeover-toggle")),
		chromedp.WaitVisible(chromedp.CSS("#takeover-input")),
		chromedp.SendKeys(chromedp.CSS("#takeover-input"), "echo TAKEN"),
		chromedp.Click(chromedp.CSS("#takeover-form button")),
	)...); err != nil {
		screenshot(t, ctx, "console-takeover-failed")
		t.Fatalf("take the session over: %v", err)
	}
	// The command's output, not only its echo: a line that is TAKEN alone.
	output := regexp.MustCompile(`(?m)^TAKEN\r?$`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		term, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#term")))
		if err != nil {
			t.Fatal(err)
		}
		if output.MatchString(term) {
			break
		}
		if time.Now().After(deadline) {
			screenshot(t, ctx, "console-takeover-failed")
			t.Fatalf("the typed command's output never showed; the session shows %q", term)
		}
		time.Sleep(100 * time.Millisecond)
	}
	screenshot(t, ctx, "console-takeover")
	if !regexp.MustCompile(`(?m)^TAKEN$`).MatchString(sh.readUntil("\nTAKEN\n")) {
		t.Error("the agent does not see the operator's command's output in its session")
	}
	if err := within(ctx,
		chromedp.Click(chromedp.CSS("#takeover-toggle")),
		chromedp.WaitNotVisible(chromedp.CSS("#takeover-input")),
	); err != nil {
		t.Fatalf("release: %v", err)
	}
	recs := stoppedRecords(t, s.state, sh.id)
	for _, a := range []string{"takeover_start", "takeover_input", "takeover_stop"} {
		if len(recs[a]) != 1 {
			t.Fatalf("%d %s records, want 1 (all: %v)", len(recs[a]), a, recs)
		}
		if who := fmt.Sprint(recs[a][0]["identity"]); !strings.HasPrefix(who, "web:operator (login ") {
			t.Errorf("%s record names %q, not the operator's login", a, who)
		}
	}
	if in := recs["takeover_input"][0]["extra"].(map[string]any)["input"]; in != "echo TAKEN\n" {
		t.Errorf("the input record says %q was typed, want %q", in, "echo TAKEN\n")
	}
}

// With console.takeover off (the default) the take-over and input
// endpoints refuse with 403, nothing reaches the session, and nothing is
// audited as typed.
func TestWebConsoleTakeoverOff(t *testing.T) {
	s, _, base, opTok := webConsole(t)
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	cookie, csrf := login(t, base, opTok)
	browser := map[string]string{"Cookie": cookie, "X-Warden-CSRF": csrf, "Origin": base, "Content-Type": "application/json"}
	bearer := map[string]string{"Authorization": "Bearer " + opTok, "Content-Type": "application/json"}
	for _, h := range []map[string]string{browser, bearer} {
		for _, req := range [][2]string{
			{"/takeover", `{"on":true}`},
			{"/input", `{"data":"echo NOT-$((6*7))-TAKEN\n"}`},
		} {
			code, body, _ := webReq(t, "POST", base+"/api/sessions/"+sh.id+req[0], h, req[1])
			if code != 403 || !strings.Contains(body, "console.takeover") {
				t.Errorf("POST %s with takeover off: %d %s, want 403 naming console.takeover", req[0], code, body)
			}
		}
	}
	sh.send("echo probe-$((2+3))")
	if out := sh.readUntil("probe-5\n"); strings.Contains(out, "NOT-42-TAKEN") || strings.Contains(out, "NOT-$((6*7))") {
		t.Fatalf("the refused input reached the session: %q", out)
	}
	if recs := consoleRecords(t, s.state, sh.id); len(recs) != 0 {
		t.Errorf("refused take-overs left action records: %v", recs)
	}
}

// warden watch --takeover types stdin into the session through the admin
// socket, audited naming the local operator, and follows it until it
// ends; with console.takeover off it refuses and nothing reaches the
// session.
func TestWatchTakeover(t *testing.T) {
	t.Run("on", func(t *testing.T) {
		s, env, _, _ := webConsoleWith(t, "  takeover: true\n")
		sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
		cmd := execCommand([]string{"watch", "--takeover", sh.id}, env)
		cmd.Stdin = strings.NewReader("echo CLI-$((6*7))-TAKEN\n")
		var out, errOut syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sh.readUntil("CLI-42-TAKEN\n")
		// Released at end of input, still watching until the session ends.
		recs := stoppedRecords(t, s.state, sh.id)
		callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case err := <-waited:
			if err != nil {
				t.Fatalf("warden watch --takeover: %v\n%s", err, errOut.String())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatal("warden watch --takeover did not end with the session")
		}
		if !strings.Contains(out.String(), "CLI-42-TAKEN") {
			t.Errorf("the watcher did not show the output: %q", out.String())
		}
		for _, a := range []string{"takeover_start", "takeover_input", "takeover_stop"} {
			if len(recs[a]) != 1 {
				t.Fatalf("%d %s records, want 1 (all: %v)", len(recs[a]), a, recs)
			}
			extra := recs[a][0]["extra"].(map[string]any)
			if who := fmt.Sprint(recs[a][0]["identity"]); !strings.HasPrefix(who, "local:") || extra["via"] != "cli" {
				t.Errorf("%s record: identity %q via %v, want the local operator via cli", a, who, extra["via"])
			}
		}
		if in := recs["takeover_input"][0]["extra"].(map[string]any)["input"]; in != "echo CLI-$((6*7))-TAKEN\n" {
			t.Errorf("the input record says %q was typed", in)
		}
	})
	t.Run("off", func(t *testing.T) {
		s, env, _, _ := webConsole(t)
		sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
		cmd := execCommand([]string{"watch", "--takeover", sh.id}, env)
		cmd.Stdin = strings.NewReader("echo NOT-$((6*7))-TAKEN\n")
		b, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(b), "console.takeover") {
			t.Fatalf("warden watch --takeover with takeover off: %v %q, want a refusal naming console.takeover", err, b)
		}
		sh.send("echo probe-$((2+3))")
		if out := sh.readUntil("probe-5\n"); strings.Contains(out, "NOT-") {
			t.Fatalf("the refused input reached the session: %q", out)
		}
		if recs := consoleRecords(t, s.state, sh.id); len(recs) != 0 {
			t.Errorf("a refused take-over left action records: %v", recs)
		}
	})
}
