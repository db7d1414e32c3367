package sessions

import (
	"os"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestPromptInTemporaryDirNeedsApproval: an interactive shell's prompt
// may run git status wherever a send leaves it (a git prompt), and git
// runs what that repository's .git/config names, so in a session nothing
// but the classifier holds (a writable one here; an SSH host's too) a send
// that moves the shell into a temporary directory, or a start there, is
// tier 3: it needs approval though its text is a cd. A read-only local
// session's programs the kernel confines, so its moves stay reads; so do a
// writable session's moves to the operator's directories.
func TestPromptInTemporaryDirNeedsApproval(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	if !strings.HasPrefix(dir, "/tmp/") {
		t.Skipf("temporary directory %s is not under /tmp", dir)
	}
	rg := newRig(t, policy.Open)
	id := rg.start(map[string]any{"writable": true})
	for _, move := range []string{"cd " + dir, "pushd " + dir, "cd -P -- " + dir, "builtin cd " + dir, "d=" + dir + "; cd \"$d\"",
		"cd /usr; cd " + dir + "; cd /usr", "cd /tmp"} {
		if got := rg.send(id, move, true); got["status"] != "approval_required" {
			t.Errorf("writable session: %q: %v, want approval_required (classified %q)", move, got["status"], rg.policy.last())
		}
	}
	for _, move := range []string{"cd /usr", "cd /usr && ls", "ls " + dir} {
		if got := rg.send(id, move, true); got["status"] != "ok" {
			t.Errorf("writable session: %q: %v, want ok", move, got)
		}
	}
	rg.call("session_close", map[string]any{"session_id": id})
	if got := rg.call("session_start", map[string]any{"writable": true, "cwd": dir}); got["status"] != "approval_required" {
		t.Errorf("writable session started in %s: %v, want approval_required", dir, got["status"])
	}
	ro := newRig(t, policy.Guarded)
	id = ro.start(map[string]any{})
	if got := ro.send(id, "cd "+dir, true); got["status"] != "ok" {
		t.Errorf("read-only session: cd %s: %v, want ok", dir, got)
	}
	ro.call("session_close", map[string]any{"session_id": id})
}
