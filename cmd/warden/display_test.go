package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hiddenRunes are what an agent can put in a command or its client's name
// to act on the display of whoever approves it instead of being read: C0
// escape sequences (erase line, cursor up, OSC 52 clipboard write, OSC 8
// link, window title), the 8-bit CSI, DEL, bidi overrides and isolates,
// zero-width characters, tag characters and the line separator.
var hiddenSpellings = []string{
	"\x1b[2K\x1b[1A",
	"\x1b]52;c;ZWNobyBwd25lZA==\x07",
	"\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\",
	"\x1b]0;title\x07",
	"\u009b2K",
	"\x7f\x08\x08",
	"\u202e/pmt/ fr-",
	"\u2067isolate\u2069",
	"\u200b\u200d\ufeff",
	"\U000e0041\U000e0042",
	"\u2028next line",
	"\u061c\u200e\u200f",
	"pad" + strings.Repeat(" ", 10000),
	"pad" + strings.Repeat("\u00a0\u3000", 3000),
}

// displayHides reports the first rune of out that would act on a terminal
// or a bidi renderer (newline and tab are layout).
func displayHides(out string) (rune, bool) {
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return r, true
		}
	}
	return 0, false
}

// TestApprovalDisplayNeutralisesHiddenText: calls waiting for an operator
// carry escape sequences and invisible formatting in their command, and
// their client's name carries them too. What warden approvals list, list
// --json, show and audit tail print, and the elicitation message the
// client's user is shown, hold none of them raw: each is an escape the
// reader can see. One warden process, one call per spelling.
func TestApprovalDisplayNeutralisesHiddenText(t *testing.T) {
	cfg := writeFile(t, "console:\n  enabled: true\napproval:\n  wait: 2m\n  tier3: [console, elicit]\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	var mu sync.Mutex
	var messages []string
	release := make(chan struct{})
	opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		messages = append(messages, req.Params.Message)
		mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	cmd := execCommand([]string{"serve"}, env)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e\x1b]52;c;cm0gLXJmIH4=\x07\u202ename", Version: "1\x1b[2K"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var done []<-chan callResult
	for _, h := range hiddenSpellings {
		done = append(done, callAsync(ctx, cs, "run_command", map[string]any{"command": "rm -rf /tmp/warden-display-none " + h + " # tail"}))
	}
	ps := waitPending(t, env, len(hiddenSpellings))
	outputs := map[string]string{}
	outputs["approvals list"], _, _ = operator(t, env, "approvals", "list")
	outputs["approvals list --json"], _, _ = operator(t, env, "approvals", "list", "--json")
	for _, p := range ps {
		show, _, code := operator(t, env, "approvals", "show", p.ID)
		if code != 0 || !strings.Contains(show, "# tail") {
			t.Errorf("approvals show %s: code %d, no command tail:\n%s", p.ID, code, show)
		}
		outputs["approvals show "+p.ID] = show
		outputs["approvals show --json "+p.ID], _, _ = operator(t, env, "approvals", "show", "--json", p.ID)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(messages)
		mu.Unlock()
		if n == len(hiddenSpellings) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	if len(messages) != len(hiddenSpellings) {
		t.Errorf("%d elicitation messages, want %d", len(messages), len(hiddenSpellings))
	}
	for i, m := range messages {
		if !strings.Contains(m, "# tail") {
			t.Errorf("elicitation message hides the command's tail:\n%q", m)
		}
		outputs["elicitation message "+string(rune('a'+i))] = m
	}
	mu.Unlock()
	for _, p := range ps {
		operator(t, env, "approvals", "deny", p.ID, "--reason", "display test")
	}
	close(release)
	for _, d := range done {
		<-d
	}
	outputs["audit tail"], _, _ = operator(t, env, "audit", "tail", "-n", "100")
	for name, out := range outputs {
		if r, bad := displayHides(out); bad {
			t.Errorf("%s prints %U raw:\n%q", name, r, out)
		}
	}
	if !strings.Contains(outputs["audit tail"], `\u202e`) || !strings.Contains(outputs["approvals list --json"], `\u202e`) {
		t.Errorf("the JSON outputs should escape U+202E as \\u202e, the same JSON value")
	}
	_ = state
}

// TestToolTextNeutralisesHiddenText: a program's output, a file name and a
// refused command carry escape sequences and invisible formatting; the text
// a client shows its user holds them only as escapes, while the structured
// content keeps the program's exact output. One warden process.
func TestToolTextNeutralisesHiddenText(t *testing.T) {
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil)
	dir := t.TempDir()
	names := []string{"a\x1b]0;title\x07b", "c\u202egpj.exe", "d\u009b2K", "e\u200bf", "g\x7fh", "i\rj"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	printed := `printf 'A\033]52;c;eA==\007B\302\233C\342\200\256D\177E\rF\033[2K\tG\r\n'`
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": printed})
	if want := "A\x1b]52;c;eA==\x07B\u009bC\u202eD\x7fE\rF\x1b[2K\tG\r\n"; got["stdout"] != want {
		t.Errorf("structured stdout = %q, want the exact output %q", got["stdout"], want)
	}
	texts := map[string]string{"run_command": text(res)}
	if !strings.Contains(text(res), "\tG\r\n") {
		t.Errorf("run_command text lost its tab or CRLF: %q", text(res))
	}
	res, _ = callTool(t, s.cs, "list_dir", map[string]any{"path": dir})
	texts["list_dir"] = text(res)
	res, _ = callTool(t, s.cs, "run_command", map[string]any{"command": "rm -rf /nonexistent-" + strings.Join(names, "")})
	texts["approval refusal"] = text(res)
	res, _ = callTool(t, s.cs, "session_start", map[string]any{"command": "bash -c 'printf \"X\\033]52;c;eA==\\007Y\\302\\233Z\\342\\200\\256W\"; sleep 5'"})
	texts["session_start"] = text(res)
	for name, out := range texts {
		// A CRLF line end is layout; a lone CR is not.
		if r, bad := displayHides(strings.ReplaceAll(out, "\r\n", "\n")); bad {
			t.Errorf("%s text shows %U raw:\n%q", name, r, out)
		}
	}
}
