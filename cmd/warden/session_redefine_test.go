package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A send that gives a name a new meaning (alias, function, hash -p), sets
// a hook (trap), changes keys through a computed word, or starts a program
// that reads the next lines in its own language changes what a later,
// harmless-looking send runs. In a writable session the human approves
// the change; the later send still needs approval, and nothing of it runs.
func TestSessionLinesRedefined(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	marker := outsideTmp(t)
	touch := "touch " + marker
	bin := t.TempDir()

	tests := []struct {
		name, change, last string
	}{
		{name: "PATH", change: "printf '#!/bin/sh\\n" + touch + "\\n' > " + bin + "/ls && chmod +x " + bin + "/ls && export PATH=" + bin + ":$PATH", last: "ls"},
		{name: "alias", change: "alias ls='" + touch + "'", last: "ls"},
		{name: "alias after a split line", change: "echo 'a\nb'; alias pwd='" + touch + "'", last: "pwd"},
		{name: "function", change: "ls() { " + touch + "; }", last: "ls -l"},
		{name: "hash -p", change: "hash -p /usr/bin/touch uptime", last: "uptime " + marker},
		{name: "trap", change: "trap '" + touch + "' DEBUG", last: "ls"},
		{name: "computed stty", change: "c=stty; $c kill '#'", last: "ls #" + touch},
		{name: "computed set -o", change: "o=vi; set -o $o", last: "ls"},
		{name: "eval", change: `x="alias id='` + touch + `'"; eval "$x"`, last: "id"},
		{name: "ed", change: "ed", last: "w " + marker},
		// ':' is the shell's null command and a vim command line.
		{name: "vim", change: "vim -u NONE -N", last: ": exe 'silent !" + touch + "'"},
		{name: "vim with its input redirected", change: "vim -u NONE -N - < /dev/null", last: ": exe 'silent !" + touch + "'"},
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
			if res, got := callApproved(t, s.cs, "session_send", sh.sendArgs(tc.change, true)); got["status"] != "ok" {
				t.Fatalf("%q: %s", tc.change, text(res))
			}
			res, got = callTool(t, s.cs, "session_send", sh.sendArgs(tc.last, true))
			if got["status"] != "approval_required" {
				t.Errorf("%q after %q: status %v, want approval_required: %s", tc.last, tc.change, got["status"], text(res))
			}
			time.Sleep(300 * time.Millisecond)
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the marker exists: a line typed after the change ran something else")
			}
		})
	}
}

// A program killed by session_signal cannot restore the terminal modes it
// set: less turns the line discipline's editing off, and dash then reads
// "touch M", Ctrl-U, "ls" as typed. Every later send needs approval.
func TestSessionLinesKilledPager(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	marker := outsideTmp(t)
	res, got := callApproved(t, s.cs, "session_start", map[string]any{"command": "dash", "writable": true})
	if got["status"] != "ok" {
		t.Skipf("session_start dash: %s", text(res))
	}
	sh := &sess{t: t, cs: s.cs, id: got["session_id"].(string)}
	defer callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
	sh.ready()
	if res, got := callApproved(t, s.cs, "session_send", sh.sendArgs("less /etc/hostname", true)); got["status"] != "ok" {
		t.Fatalf("less: %s", text(res))
	}
	time.Sleep(time.Second)
	if res, got := callTool(t, s.cs, "session_signal", map[string]any{"session_id": sh.id, "signal": "KILL"}); got["status"] != "ok" {
		t.Fatalf("session_signal KILL: %s", text(res))
	}
	time.Sleep(500 * time.Millisecond)
	res, got = callTool(t, s.cs, "session_send", sh.sendArgs("touch "+marker+"\x15ls\n", false))
	if got["status"] != "approval_required" {
		t.Errorf("after a killed pager: status %v, want approval_required: %s", got["status"], text(res))
	}
	time.Sleep(500 * time.Millisecond)
	if ents, _ := os.ReadDir(filepath.Dir(marker)); len(ents) > 0 {
		t.Fatalf("a file was made: %q", ents[0].Name())
	}
	// The pager ends the model when it starts (it reads keys with editing
	// off, and survives Ctrl-C); the reason names it, or the signal.
	if !strings.Contains(text(res), "less") && !strings.Contains(text(res), "KILL") {
		t.Errorf("the reason names neither the pager nor the signal: %s", text(res))
	}
}
