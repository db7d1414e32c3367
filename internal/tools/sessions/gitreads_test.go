package sessions

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// git subcommands that read the terminal by default or with an option,
// however abbreviated, take the line typed next: "/bin/echo \" makes
// check-ignore die (a path outside the repository), and the touch typed
// after runs alone where warden read it as echo's argument.
func TestGitSubcommandsThatReadTheTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"git check-ignore --stdin", "git check-ignore --std", "git check-ignore --stdi -v", "git check-attr --std -a",
		"git check-mailmap --std", "git name-rev --annotate-stdin", "git name-rev --stdin", "git show-ref --exclude-existing",
		"git show-ref --exclude-ex", "git show-ref --exc=refs/x", "git cat-file --batch", "git cat-file --batch-check",
		"git cat-file --batch-command", "git cat-file --batch-c", "git rev-list --stdin", "git diff-tree --stdin",
		"git hash-object --stdin-paths", "git hash-object --stdin-p", "git update-index --index-info",
		"git update-index --index-i", "git rev-parse --parseopt -- x", "git rev-parse --parseo", "git mktree",
		"git mktag", "git stripspace", "git patch-id", "git interpret-trailers", "git fmt-merge-msg", "git column",
		"git commit-tree HEAD^{tree}", "git get-tar-commit-id", "git show-index", "git shortlog", "git shortlog -sn",
		"git -C /tmp check-ignore --std", "git -c core.x=y mktree", "git st", "git co x", "git diff --no-index - f",
		"git commit-graph write --stdin-commits", "git multi-pack-index write --stdin-packs", "git pack-objects x",
		"sudo git check-ignore --std", "git for-each-ref --stdin", "git check-ref-format --stdin", "git upload-archive .",
		"git imap-send", "git var GIT_EDITOR",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "/bin/echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{
		"git status", "git log --oneline -5", "git -C /tmp diff --stat", "git log --stat", "git shortlog -sn HEAD",
		"git branch -a", "git rev-parse HEAD", "git ls-files --exclude=x", "git show-ref", "git cat-file -p HEAD",
		"git config --get user.name", "git blame f", "git worktree list", "git --no-pager log", "git show HEAD:f",
		"git diff HEAD~1", "git check-ignore -v f", "git name-rev HEAD", "git describe --tags", "git grep -n x",
		"git ls-tree -r HEAD", "git stash list", "git tag -l", "git reflog -5", "git rev-list --count HEAD",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestGitCheckIgnoreInATerminal runs the case in a real terminal, in a
// repository: git check-ignore --std takes "/bin/echo \" and dies, and
// no unapproved send may make the marker.
func TestGitCheckIgnoreInATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := projectDir(t)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	for _, opener := range []string{"git check-ignore --std", "git check-attr --stdi -a"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			id := rg.start(map[string]any{"cwd": repo})
			if got := rg.send(id, opener, true); got["status"] != "ok" {
				t.Fatalf("send %q: %v", opener, got)
			}
			time.Sleep(300 * time.Millisecond)
			for _, data := range []string{"/bin/echo \\", "touch " + marker} {
				if got := rg.send(id, data, true); got["status"] != "ok" {
					break
				}
				time.Sleep(500 * time.Millisecond)
			}
			rg.send(id, "\x03", false)
			time.Sleep(300 * time.Millisecond)
			rg.send(id, "", true)
			rg.send(id, "echo done-$((20+6))", true)
			rg.readUntil(id, "done-26")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %q", opener)
			}
		})
	}
}

// projectDir makes a directory outside the temporary ones: git run in a
// temporary directory needs approval, as its .git/config may be one a
// tier 1 call wrote.
func projectDir(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("no home directory: %v", err)
	}
	d, err := os.MkdirTemp(home, ".warden-test-repo-")
	if err != nil {
		t.Skipf("no directory in the home directory: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
