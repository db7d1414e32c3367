package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestStartInTemporaryDirWarns: a warden started in a temporary directory
// says so once at startup, since there every unknown program and every
// program that reads its directory's code is tier 3; one started
// elsewhere says nothing of it, and the call still runs where it started.
func TestStartInTemporaryDirWarns(t *testing.T) {
	const warning = "started in a temporary directory"
	tmp, err := os.MkdirTemp("/tmp", "warden-start-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	for _, c := range []struct {
		dir  string
		warn bool
	}{{tmp, true}, {serverDir, false}} {
		if c.dir == "" { // no directory of its own outside /tmp: see TestMain
			continue
		}
		env, _ := wardenEnv(t)
		cmd := exec.Command(wardenBin, "serve")
		cmd.Env, cmd.Dir = env, c.dir
		cs, stderr := connectCmd(t, cmd, nil)
		res, out := callTool(t, cs, "run_command", map[string]any{"command": "pwd"})
		if res.IsError || strings.TrimSpace(out["stdout"].(string)) != c.dir {
			t.Errorf("in %s: pwd gave %v", c.dir, out)
		}
		if got := strings.Contains(stderr.String(), warning); got != c.warn {
			t.Errorf("started in %s: warning %v, want %v; stderr:\n%s", c.dir, got, c.warn, stderr)
		}
	}
}
