package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeSession is the README's "What a session looks like": three calls
// an agent makes through the SDK client to warden serve on the embedded
// default (guarded), each result with the keys shown (the rest elided as
// …, the token cut), then warden audit verify on the trail they left.
func readmeSession(t *testing.T) string {
	t.Helper()
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil)
	var b strings.Builder
	call := func(command string, keys ...string) map[string]any {
		args := map[string]any{"command": command}
		_, res := callTool(t, s.cs, "run_command", args)
		a, _ := json.Marshal(args)
		b.WriteString("agent → run_command " + string(a) + "\n")
		b.WriteString("warden ← " + abridged(t, res, keys) + "\n")
		return res
	}
	if r := call("df --output=target / | tail -1", "status", "exit_code", "stdout"); r["status"] != "ok" || r["stdout"] != "/\n" {
		t.Fatalf("a read ran as %v", r)
	}
	b.WriteString("\n")
	if r := call("systemctl restart nginx", "status", "tier", "approval_token", "expires_at"); r["status"] != "approval_required" {
		t.Fatalf("a restart was not held for approval: %v", r)
	}
	b.WriteString("\n")
	if r := call("sh -c 'rm -rf --no-preserve-root /'", "status", "reason"); r["status"] != "denied" {
		t.Fatalf("rm -rf / was not denied: %v", r)
	}
	out, errOut, code := runBin(t, env, "audit", "verify")
	if code != 0 {
		t.Fatalf("audit verify: exit %d\n%s", code, errOut)
	}
	b.WriteString("\n$ warden audit verify\n" + out)
	return b.String()
}

// abridged is a result as JSON with only keys, in that order, then "…"
// when it has more; an approval token and its expiry are elided, since
// both change from run to run.
func abridged(t *testing.T, res map[string]any, keys []string) string {
	t.Helper()
	var parts []string
	for _, k := range keys {
		v, ok := res[k]
		if !ok {
			t.Fatalf("the result has no %s: %v", k, res)
		}
		switch k {
		case "approval_token", "expires_at":
			v = "…"
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, string(kb)+":"+string(vb))
	}
	if len(res) > len(keys) {
		parts = append(parts, "…")
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// rebootReason is what a reboot of the inventory host router waits on:
// the approval message warden exe prints for it (the pack's approval
// text; nothing reaches the host before approval), wrapped at 78 columns.
func rebootReason(t *testing.T) string {
	t.Helper()
	cfg := writeFile(t, "hosts:\n  - name: router\n    address: 192.0.2.1\n")
	env, _ := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	out, errOut, code := runBin(t, env, "exe", "reboot", "host=router")
	first, _, _ := strings.Cut(out, "\n")
	msg, ok := strings.CutPrefix(first, "approval_required: ")
	if code == 0 || !ok || !strings.Contains(msg, "reboots router router:") {
		t.Fatalf("warden exe reboot host=router: exit %d\n%s%s", code, out, errOut)
	}
	return wrapText(msg, 78)
}

// wrapText breaks text at spaces into lines of at most width bytes.
func wrapText(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n")
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String() + "\n"
}

type webhookBodies struct{ ntfy, json string }

// webhookExample runs docs/console.md's configuration (console on,
// console.url, an ntfy and a json webhook, here both to a local
// receiver) and returns the bodies warden POSTs for one tier 3 call,
// indented, with the id, digest, times, path and identity replaced by the
// docs' example values as consoleExample does.
func webhookExample(t *testing.T) webhookBodies {
	t.Helper()
	posts := make(chan [2]string, 4)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- [2]string{r.URL.Path, string(b)}
	}))
	defer rcv.Close()
	cfg := writeFile(t, "console:\n  enabled: true\n  url: https://warden.example/\napproval:\n  wait: 10m\n  notify:\n"+
		"    - {url: '"+rcv.URL+"/', format: ntfy, topic: my-warden-approvals, retries: 3}\n"+
		"    - {url: '"+rcv.URL+"/warden', format: json}\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	victim := filepath.Join(t.TempDir(), "cache", "old")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf " + victim})
	p := waitPending(t, env, 1)[0]
	got := map[string]string{}
	for len(got) < 2 {
		select {
		case ps := <-posts:
			got[ps[0]] = ps[1]
		case <-time.After(30 * time.Second):
			t.Fatalf("the webhooks received %d posts, want 2", len(got))
		}
	}
	if _, errOut, code := operator(t, env, "approvals", "deny", p.ID, "--reason", "docs example"); code != 0 {
		t.Fatalf("deny: exit %d\n%s", code, errOut)
	}
	<-done
	// The json body's times are the call's creation and expiry, in that
	// order; the ntfy body names the expiry.
	times := regexp.MustCompile(`"\d{4}-\d\d-\d\dT[0-9:.]+Z"`).FindAllString(got["/warden"], -1)
	if len(times) != 2 {
		t.Fatalf("the json body has %d times, want created and expires:\n%s", len(times), got["/warden"])
	}
	repl := strings.NewReplacer(p.ID, "9c1e…", p.Digest, "5b0e…", victim, "/srv/cache/old", "e2e/1", "claude-code/2.1.0",
		strings.Trim(times[0], `"`), "2026-11-24T04:10:02Z", strings.Trim(times[1], `"`), "2026-11-24T04:20:02Z")
	norm := func(body string) string {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(body), "", "  "); err != nil {
			t.Fatalf("a webhook body is not JSON: %v\n%s", err, body)
		}
		s := repl.Replace(b.String())
		// The ntfy message names the expiry to the second.
		s = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)`).ReplaceAllString(s, "2026-11-24T04:20:02Z)")
		s = regexp.MustCompile(`local:[a-z_][a-z0-9_.-]* \(uid \d+\)`).ReplaceAllString(s, "local:alice (uid 1000)")
		return regexp.MustCompile(`local:[a-z_][a-z0-9_.-]*`).ReplaceAllString(s, "local:alice") + "\n"
	}
	return webhookBodies{ntfy: norm(got["/"]), json: norm(got["/warden"])}
}
