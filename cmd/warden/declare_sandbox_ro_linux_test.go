package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxRunnerReadOnlyBelowTier2: a declarative tool whose sandbox
// runner grants writes (allow_write_folders, allow_write_files) runs
// outside warden's kernel confinement, confined by that sandbox instead.
// Admitted as a read (readonly mode) or a benign call, what its command
// starts unseen — here a repository's hook that git status runs — wrote
// through the grant as an approved call would. Below tier 2 the grants
// are read-only; admitted at tier 2 (open mode) they hold as written.
func TestSandboxRunnerReadOnlyBelowTier2(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	runners := map[string]string{"bubblewrap": "bwrap", "firejail": "firejail", "landlock": ""}
	cases := []struct {
		mode  string
		tier  int
		lands bool
	}{
		{"readonly", 0, false},
		{"guarded", 0, false},
		{"guarded", 1, false},
		{"open", 2, true},
	}
	for _, name := range []string{"bubblewrap", "firejail", "landlock"} {
		t.Run(name, func(t *testing.T) {
			if prog := runners[name]; prog != "" {
				if _, err := exec.LookPath(prog); err != nil {
					t.Skipf("%s not installed", prog)
				}
			}
			for _, c := range cases {
				for _, grant := range []string{"allow_write_folders", "allow_write_files"} {
					t.Run(fmt.Sprintf("%s-tier%d-%s", c.mode, c.tier, grant), func(t *testing.T) {
						sandboxWrite(t, name, grant, c.mode, c.tier, c.lands)
					})
				}
			}
		})
	}
}

func sandboxWrite(t *testing.T, runnerName, grant, mode string, tier int, lands bool) {
	dir := programDir(t)
	repo := filepath.Join(dir, "repo")
	target := filepath.Join(repo, "f")
	git := func(args ...string) {
		t.Helper()
		gitIn(t, dir, repo, args...)
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	os.WriteFile(target, []byte("one\n"), 0o644)
	git("add", "f")
	git("commit", "-q", "-m", "f")
	// The hook appends to the tracked file (a write through a file grant)
	// and makes a new file (through a folder grant).
	git("config", "core.fsmonitor", "sh -c 'echo HOOK-RAN >&2; echo pwned >> "+target+"; echo pwned > "+filepath.Join(repo, "new")+"'")
	paths := "[" + repo + "]"
	if grant == "allow_write_files" {
		paths = "[" + target + "]"
	}
	tools := filepath.Join(dir, "tools.yaml")
	body := fmt.Sprintf(`mcp:
  tools:
    - name: repo_status
      description: git status under a sandbox that may write the repository
      tier: %d
      run:
        command: git -C %s status
        runners:
          - name: %s
            options:
              allow_read_folders: [%s]
              %s: %s
`, tier, repo, runnerName, repo, grant, paths)
	cfg := filepath.Join(dir, "warden.yaml")
	for p, b := range map[string]string{tools: body, cfg: "tools: [" + tools + "]\n"} {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, state := wardenEnv(t, "WARDEN_MODE="+mode, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "repo_status", nil)
	if got["status"] != "ok" {
		if strings.Contains(text(res), "unavailable") || strings.Contains(text(res), "not available") {
			t.Skipf("runner unavailable: %s", text(res))
		}
		t.Fatalf("repo_status: %v %s", got, text(res))
	}
	if !strings.Contains(text(res), "HOOK-RAN") {
		t.Fatalf("the repository's hook did not run, so this shows nothing: %s", text(res))
	}
	after, _ := os.ReadFile(target)
	wrote := strings.Contains(string(after), "pwned")
	if grant == "allow_write_folders" {
		_, err := os.Stat(filepath.Join(repo, "new"))
		wrote = wrote || err == nil
	}
	if wrote != lands {
		t.Errorf("%s mode, tool tier %d: the hook's write landed %v, want %v\n%s", mode, tier, wrote, lands, text(res))
	}
}
