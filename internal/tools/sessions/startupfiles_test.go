package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// TestSessionShellStartupFiles: a session started with no command runs
// its shell interactive, which first runs ~/.bashrc: one rewritten since
// warden started to run a program the deny list refuses makes the start
// denied, in every mode, and nothing of it runs; a harmless one, or a
// command given to the session, starts as before.
func TestSessionShellStartupFiles(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	home := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	for _, mode := range []policy.Mode{policy.Open, policy.Guarded} {
		rg := newRigShell(t, mode, session.Options{}, policy.Rules{Home: home}, "/bin/bash", home)
		if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("touch "+marker+"\nsystemctl reboot\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got := rg.approved("session_start", map[string]any{})
		if got["status"] != "denied" || !strings.Contains(got["reason"].(string), ".bashrc") {
			t.Errorf("%s: session_start with ~/.bashrc running reboot: %v, want denied naming .bashrc", mode, got)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: the denied session's shell ran ~/.bashrc", mode)
		}
		if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("alias ll='ls -l'\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		id := rg.start(map[string]any{})
		rg.call("session_close", map[string]any{"session_id": id})
	}
}
