package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// A session's shell keeps the directory an earlier send moved it to, so
// a later send that runs its project's code there (python3 -m imports
// from it, git runs what its .git/config names) is classified as run in a
// directory known only at run time, and so is one in a session started
// with a temporary cwd: they need approval in guarded mode (or are refused,
// after a function that may cd), as they do
// typed together with the cd.
func TestSendsFollowAnEarlierCd(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	if !strings.HasPrefix(dir, "/tmp/") {
		t.Skipf("temporary directory %s is not under /tmp", dir)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	rg := newRig(t, policy.Guarded)
	runs := []string{"python3 -m json.tool /dev/null", "git status", "git log -p", "yarn --version", "ansible-inventory --list"}
	for _, move := range []string{"cd " + dir, "cd -P -- " + dir, "pushd " + dir, "builtin cd " + dir, `\cd ` + dir,
		"cd " + dir + " && echo moved", "(cd /); cd " + dir, "OLDPWD=" + dir + "; cd -", "f() { cd " + dir + "; }; f",
		"d=" + dir + "; cd \"$d\"", "echo x; cd " + dir + "; echo y"} {
		for _, run := range runs {
			id := rg.start(map[string]any{})
			if got := rg.approved("session_send", map[string]any{"session_id": id, "data": move, "enter": true}); got["status"] != "ok" {
				t.Fatalf("%q: %v", move, got)
			}
			if got := rg.send(id, run, true); got["status"] == "ok" {
				t.Errorf("%q then %q ran, want approval_required (classified %q)", move, run, rg.policy.last())
			}
			rg.call("session_close", map[string]any{"session_id": id})
		}
	}
	// A session started in a temporary directory runs there.
	for _, start := range []map[string]any{{"cwd": dir}, {"cwd": sub}, {"command": "cd " + dir + " && exec /bin/sh"}} {
		for _, run := range runs {
			id := rg.start(start)
			if got := rg.send(id, run, true); got["status"] == "ok" {
				t.Errorf("started %v, then %q ran, want approval_required", start, run)
			}
			rg.call("session_close", map[string]any{"session_id": id})
		}
	}
	// A move to a directory warden can name is followed: reads there
	// stay reads, and a later move to a temporary one is seen.
	for _, sends := range [][]string{{"cd /usr", "git status"}, {"cd /usr", "cd lib", "python3 -m json.tool /dev/null"},
		{"cd /usr && ls", "ls; git log -1"}, {"cd / || cd /usr", "python3 -m json.tool /dev/null"}} {
		id := rg.start(map[string]any{})
		for i, send := range sends {
			if got := rg.send(id, send, true); got["status"] != "ok" {
				t.Errorf("%q, send %d %q: %v, want ok", sends, i, send, got["status"])
			}
		}
		rg.call("session_close", map[string]any{"session_id": id})
	}
	for _, sends := range [][]string{{"cd /usr", "cd " + dir, "git status"}, {"cd /usr || cd " + dir, "git status"},
		{"cd /usr", "cd .." + dir, "python3 -m json.tool /dev/null"}, {"cd /usr", "cd \"$D\"", "git log"}} {
		id := rg.start(map[string]any{})
		for i, send := range sends[:len(sends)-1] {
			if got := rg.approved("session_send", map[string]any{"session_id": id, "data": send, "enter": true}); got["status"] != "ok" {
				t.Fatalf("%q, send %d %q: %v", sends, i, send, got)
			}
		}
		if got := rg.send(id, sends[len(sends)-1], true); got["status"] == "ok" {
			t.Errorf("%q ran, want approval_required (classified %q)", sends, rg.policy.last())
		}
		rg.call("session_close", map[string]any{"session_id": id})
	}
	// Without a move, and for reads that load nothing from the
	// directory, sends stay reads.
	id := rg.start(map[string]any{})
	for _, send := range []string{"echo hi", "ls /", "git --version"} {
		if got := rg.send(id, send, true); got["status"] != "ok" {
			t.Errorf("%q: %v, want ok", send, got)
		}
	}
	rg.call("session_close", map[string]any{"session_id": id})
}
