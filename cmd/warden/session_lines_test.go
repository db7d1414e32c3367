package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// outsideTmp is a marker path where touch is a mutation (under /tmp it is
// benign), in a directory the test removes. The checkout itself may be
// under /tmp, so the directory is made below stateBase.
func outsideTmp(t *testing.T) string {
	t.Helper()
	return filepath.Join(newStateDir(t), "marker")
}

// waitCmdline waits, for at most 30 s, until a process runs argv: a
// program typed into a session has started (on a busy machine it may
// start after the next send).
func waitCmdline(t *testing.T, argv []string) {
	t.Helper()
	want := strings.Join(argv, "\x00") + "\x00"
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(b) == want {
				return
			}
		}
	}
	t.Fatalf("%q never started", argv)
}

// sendArgs types data with or without Enter.
func (s *sess) sendArgs(data string, enter bool) map[string]any {
	return map[string]any{"session_id": s.id, "data": data, "enter": enter}
}

// settle reads until the output ends with a shell's prompt, for at most
// 15 s: whatever was typed has run.
func (s *sess) settle() {
	s.t.Helper()
	var all strings.Builder
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		_, got := callTool(s.t, s.cs, "session_read", map[string]any{"session_id": s.id, "wait_s": 1})
		all.WriteString(fmt.Sprint(got["data"]))
		if out := all.String(); strings.HasSuffix(out, "# ") || strings.HasSuffix(out, "$ ") {
			return
		}
	}
}

// ready waits until the shell reads commands: a Ctrl-C before it handles
// the interrupt would kill it.
func (s *sess) ready() {
	s.t.Helper()
	s.send("echo ready-$((1+1))")
	s.readUntil("ready-2")
}

// Class 10: what session_send types is edited by the terminal before the
// shell reads it. Text that only becomes "touch <marker>" once erased,
// killed, word-erased or joined across sends needs approval in guarded
// mode, and nothing of it runs.
func TestSessionLinesGuarded(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	marker := outsideTmp(t)
	touch := "touch " + marker

	_, got := callTool(t, s.cs, "session_start", map[string]any{"writable": true})
	if got["status"] != "approval_required" {
		t.Errorf("a writable session started without approval: %v", got)
	}
	sh := startSession(t, s.cs, nil)
	sh.ready()

	tests := []struct {
		name string
		// pieces are typed first, each approved as a human who saw only
		// it would; "…" ends a piece typed without Enter.
		pieces []string
		last   string
		status []string
		// runs is the command line a piece leaves reading the terminal:
		// the case waits until it has started, or a Ctrl-C sent before
		// it did would leave it holding the terminal for good.
		runs []string
	}{
		{name: "erase", last: "cat " + marker + strings.Repeat("\x7f", len("cat "+marker)) + touch},
		{name: "kill line", last: "ls -l #\x15" + touch},
		{name: "word erase", last: "echo foo bar\x17\x17\x17" + touch},
		{name: "split in two", pieces: []string{"echo hi; tou…"}, last: "ch " + marker},
		{name: "split in four", pieces: []string{"t…", "ou…", "ch…"}, last: " " + marker},
		{name: "erase across sends", pieces: []string{"echo hello…", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f…"}, last: touch},
		{name: "continued line", pieces: []string{`touc\`}, last: "h " + marker},
		{name: "second of two lines", last: "ls\n" + touch + "\n"},
		{name: "carriage return", last: "ls\r" + touch},
		{name: "dd reads part of the next line", last: "dd bs=1 count=4 2>/dev/null\nls #" + touch},
		{name: "head -c reads part of a later send", pieces: []string{"head -c 4"}, last: "ls #" + touch, runs: []string{"head", "-c", "4"}},
		{name: "ctrl-h", last: "ls " + marker + "\x08\x08\x08", status: []string{"denied"}},
		{name: "tab", last: "touch " + marker + "\t", status: []string{"denied"}},
		{name: "arrow", last: touch + "\x1b[D", status: []string{"denied"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := callTool(t, s.cs, "session_send", sh.sendArgs("\x03", true)); got["status"] != "ok" {
				t.Fatalf("ctrl-c: %v", got)
			}
			for _, p := range tc.pieces {
				p, cut := strings.CutSuffix(p, "…")
				if _, got := callApproved(t, s.cs, "session_send", sh.sendArgs(p, !cut)); got["status"] != "ok" {
					t.Fatalf("piece %q: %v", p, got)
				}
			}
			if tc.runs != nil {
				waitCmdline(t, tc.runs)
			}
			res, got := callTool(t, s.cs, "session_send", sh.sendArgs(tc.last, true))
			want := tc.status
			if want == nil {
				want = []string{"approval_required", "denied"}
			}
			if !strings.Contains(strings.Join(want, " "), got["status"].(string)) {
				t.Errorf("status %v, want one of %v: %s", got["status"], want, text(res))
			}
		})
	}
	// Interrupt until the shell answers.
	alive := false
	for i := 0; i < 10 && !alive; i++ {
		callTool(t, s.cs, "session_send", sh.sendArgs("\x03", true))
		sh.send("echo alive-$((40+2))")
		_, alive = sh.readFor("alive-42", 2*time.Second)
	}
	if !alive {
		t.Fatal("the shell never answered after the cases")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the marker exists: an assembled touch ran")
	}
}

// A command that changes how the session reads keys (the terminal's
// special characters, readline's bindings, the history characters) makes
// later harmless-looking lines run something else, so in a writable bash
// session it needs approval, and so does every send after it, even when a
// human approved the change itself.
func TestSessionLinesRekeyed(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	marker := outsideTmp(t)
	touch := "touch " + marker

	tests := []struct {
		name string
		// change is what changes how keys are read; pieces follow it,
		// each approved as a human who saw only it would.
		change string
		pieces []string
		last   string
	}{
		{name: "stty kill", change: "stty kill '#'", last: "ls #" + touch},
		{name: "stty erase", change: "env stty erase q", last: "ls -l /etc/hostname" + strings.Repeat("q", 19) + touch},
		{name: "stty in sh -c", change: "sh -c 'stty werase z'", last: "ls xzz" + touch},
		{name: "bind a key to kill the line", change: `bind '"#": unix-line-discard'`, last: "ls #" + touch},
		{name: "bind a macro", change: `bind '"~": "\C-u` + touch + `\C-m"'`, last: "ls ~"},
		{name: "history characters", change: "histchars='!l'", pieces: []string{"pwd; ls #; " + touch}, last: "ls #l"},
		{name: "zsh comment", change: "exec zsh -f", last: "ls #; " + touch},
		{name: "zsh glob qualifier", change: "exec zsh -f", last: "ls /*(e:'" + touch + "':)"},
		// Approving it runs it at once: only the change is asked about.
		{name: "prompt", change: "printf -v PS1 %s '$(" + touch + ")'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, got := callApproved(t, s.cs, "session_start", map[string]any{"command": "bash --norc", "writable": true})
			if got["status"] != "ok" {
				t.Fatalf("session_start: %s", text(res))
			}
			sh := &sess{t: t, cs: s.cs, id: got["session_id"].(string)}
			defer callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
			sh.ready()
			if res, got := callTool(t, s.cs, "session_send", sh.sendArgs(tc.change, true)); got["status"] != "approval_required" {
				t.Errorf("%q: status %v, want approval_required: %s", tc.change, got["status"], text(res))
			}
			if tc.last == "" {
				return
			}
			for _, p := range append([]string{tc.change}, tc.pieces...) {
				if res, got := callApproved(t, s.cs, "session_send", sh.sendArgs(p, true)); got["status"] != "ok" {
					t.Fatalf("piece %q: %s", p, text(res))
				}
			}
			if !strings.Contains(tc.change, "zsh") {
				// Bash's own race: an interrupt between its fork of a
				// command and its wait for it leaves the terminal with
				// the command's group, and bash, reading from the
				// background, takes EIO for end of input and exits. A
				// typed Ctrl-C does the same. The shell's next prompt
				// says the pieces have run.
				sh.settle()
			}
			res, got = callTool(t, s.cs, "session_send", sh.sendArgs(tc.last, true))
			if got["status"] != "approval_required" {
				t.Errorf("%q after %q: status %v, want approval_required: %s", tc.last, tc.change, got["status"], text(res))
			}
			if !strings.Contains(text(res), "no longer knows") {
				t.Errorf("the refusal does not say why: %s", text(res))
			}
			// session_signal still interrupts, and the shell still runs
			// (bash's: zsh's output under the test's terminal is not
			// waited for).
			callTool(t, s.cs, "session_signal", map[string]any{"session_id": sh.id, "signal": "INT"})
			// Text typed while bash is still handling the interrupt can
			// lose its first key, so the check may be typed again.
			alive, out, sends := false, "", []any{}
			for try := 0; try < 5 && !alive; try++ {
				_, got := callApproved(t, s.cs, "session_send", sh.sendArgs("echo alive-$((40+2))", true))
				sends = append(sends, got["status"])
				if strings.Contains(tc.change, "zsh") {
					alive = true
					break
				}
				out, alive = sh.readFor("alive-42", 10*time.Second)
			}
			if !alive {
				tree := processTree(s.cmd.Process.Pid)
				callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
				t.Errorf("the shell did not answer after Ctrl-C: %q (each send's status: %v)\nwarden's processes:\n%s\nthe recording's end:\n%s",
					out, sends, tree, recordingTail(state, sh.id, 4096))
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the marker exists: a line typed after the change ran something else")
			}
		})
	}
}

// Pagers started in a session's terminal (git log, journalctl, man) run in
// secure mode, so keys typed to them run no commands.
func TestSessionPagerSecure(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	sh := startSession(t, s.cs, nil)
	sh.send("echo less-secure-$LESSSECURE")
	sh.readUntil("less-secure-1")
	if res, got := callTool(t, s.cs, "session_send", sh.sendArgs("unset LESSSECURE", true)); got["status"] != "denied" {
		t.Errorf("unset LESSSECURE: status %v, want denied: %s", got["status"], text(res))
	}
}

// In readonly mode for session_send, text whose raw spelling classifies
// as a read (everything after '#' is a comment) is still refused when the
// terminal turns it into a mutation.
func TestSessionLinesReadonly(t *testing.T) {
	env, state := wardenEnv(t, "SHELL=/bin/sh", "WARDEN_CONFIG="+writeFile(t,
		"mode: guarded\npolicy:\n  tool_modes: {session_send: readonly, run_command: readonly}\n"))
	s := startStdio(t, env, state, nil)
	marker := outsideTmp(t)
	touch := "touch " + marker
	sh := startSession(t, s.cs, nil)
	sh.ready()

	for _, data := range []string{
		"ls -l #\x15" + touch,
		"echo #" + strings.Repeat("\x7f", 6) + touch,
		"cat /etc/hostname # x\x17\x17\x17\x17\x17" + touch,
		"ls #\n" + "echo \x15" + touch,
	} {
		// As a command the raw text is a read: it runs in readonly mode.
		if res, got := callTool(t, s.cs, "run_command", map[string]any{"command": data}); got["status"] != "ok" {
			t.Errorf("run_command %q: %s", data, text(res))
		}
		res, got := callTool(t, s.cs, "session_send", sh.sendArgs(data, true))
		if got["status"] != "denied" {
			t.Errorf("%q: status %v, want denied: %s", data, got["status"], text(res))
		}
	}
	sh.send("echo alive-$((40+2))")
	sh.readUntil("alive-42")

	// An interactive bash with readline: its editing keys, history and
	// the commands that change what keys do are refused, each send on
	// its own, and ordinary reads still run.
	bash := startSession(t, s.cs, map[string]any{"command": "bash --norc"})
	bash.ready()
	for _, data := range []string{
		"echo " + touch + "\x01\x0b",      // Ctrl-A, Ctrl-K: kill to the end
		touch + "\x15ls -l\x15\x19",       // Ctrl-Y yanks the killed touch back
		"ls " + touch + "\x14",            // Ctrl-T transposes
		"\x18\x05",                        // Ctrl-X Ctrl-E edits and runs
		"\x1b\x05",                        // ESC Ctrl-E
		"ls\x0f",                          // Ctrl-O operates and gets the next
		"\x1b[A",                          // up arrow recalls history
		"\x10",                            // Ctrl-P
		"\x12touch",                       // Ctrl-R searches history
		"ls " + touch + "\x1bb\x1bb\x1bd", // Meta-b, Meta-d
		"#" + touch + "\x1b#",             // insert-comment toggles the '#'
		"\x1b[200~" + touch + "\x1b[201~", // bracketed paste
		"tou\t " + marker,                 // Tab completes
		"ls\x16\x15" + touch,              // Ctrl-V: the next key is literal
		"!!", "!-1", "!touch", "^ls^touch", `echo "!$"`,
		"stty kill '#'", `bind '"#": unix-line-discard'`, "histchars='!l'",
		"set -o vi", "bind -f /tmp/inputrc", "unset LESSSECURE",
	} {
		res, got := callTool(t, s.cs, "session_send", bash.sendArgs(data, true))
		if got["status"] != "denied" {
			t.Errorf("bash %q: status %v, want denied: %s", data, got["status"], text(res))
		}
	}
	for _, data := range []string{"ls -la /", "stty -a", "bind -p", "cat /etc/hostname"} {
		if res, got := callTool(t, s.cs, "session_send", bash.sendArgs(data, true)); got["status"] != "ok" {
			t.Errorf("bash %q: %s", data, text(res))
		}
	}
	bash.send("echo alive-$((40+3))")
	bash.readUntil("alive-43")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the marker exists: an assembled touch ran")
	}
	audit, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(audit), `"decision":"denied"`); n < 4 {
		t.Errorf("%d denials in the audit log, want at least 4", n)
	}
}

// An operator whose SHELL is zsh still gets sessions the agent can type
// into: the default session runs bash, whose lines warden reads, instead
// of a shell whose every line it would have to refuse.
func TestSessionDefaultShellNotZsh(t *testing.T) {
	zsh := shellOrSkip(t, "zsh")
	env, state := wardenEnv(t, "SHELL="+zsh, "WARDEN_MODE=guarded")
	s := startStdio(t, env, state, nil)
	sh := startSession(t, s.cs, nil)
	res, got := callTool(t, s.cs, "session_send", sh.sendArgs("echo shell-$((6*7)) ${BASH_VERSION:+bash}", true))
	if got["status"] != "ok" {
		t.Fatalf("a read typed into the default session: %s", text(res))
	}
	sh.readUntil("shell-42 bash")
}
