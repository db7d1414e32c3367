package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shellOrSkip finds a shell, or skips the test — unless
// WARDEN_REQUIRE_<SHELL>=1, as scripts/test sets, makes that a failure.
func shellOrSkip(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_"+strings.ToUpper(name)) == "1" {
			t.Fatalf("%s is required (WARDEN_REQUIRE_%s=1) but not installed", name, strings.ToUpper(name))
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// completionEnv puts the built binary on PATH as "warden", so the shells
// load the scripts the way a user does: source <(warden completion …).
func completionEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(wardenBin, filepath.Join(dir, "warden")); err != nil {
		t.Fatal(err)
	}
	return []string{"PATH=" + dir + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir()}
}

func runShell(t *testing.T, env []string, shell string, args ...string) string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", shell, args, err, out)
	}
	return string(out)
}

// TestCompletionBash sources the script in a real bash and completes
// words through the function it registers, as <TAB> does.
func TestCompletionBash(t *testing.T) {
	bash := shellOrSkip(t, "bash")
	env := completionEnv(t)
	script := `source <(warden completion bash) || exit 1
complete -p warden
c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _warden; echo "$*|${COMPREPLY[*]}"; }
c warden au
c warden audit t
c warden audit tail --dec
c warden audit tail --decision de
c warden serve --con
c warden completion ''
c warden doctor --u
c warden help
`
	got := runShell(t, env, bash, "-c", script)
	want := `complete -F _warden warden
warden au|audit
warden audit t|tail
warden audit tail --dec|--decision
warden audit tail --decision de|denied
warden serve --con|--config
warden completion |bash zsh fish
warden doctor --u|--url
warden help|
`
	if got != want {
		t.Errorf("bash completion:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestCompletionZsh loads the script after compinit in a real zsh, checks
// it is registered for warden, and runs its function with compadd
// standing in for the completion system.
func TestCompletionZsh(t *testing.T) {
	zsh := shellOrSkip(t, "zsh")
	env := completionEnv(t)
	script := `autoload -U compinit && compinit -u -D
source <(warden completion zsh) || exit 1
print -r -- "registered: $_comps[warden]"
compadd() { print -r -- "$*"; }
_files() { print -r -- "(files)"; }
c() { words=("$@"); CURRENT=$#; _warden; }
c warden au
c warden audit ''
c warden audit tail --decision ''
c warden validate ''
`
	got := runShell(t, env, zsh, "-f", "-c", script)
	for _, want := range []string{
		"registered: _warden\n",
		"-- approvals audit completion config doctor exe lockout serve session token tools validate version watch\n",
		"-- verify tail\n",
		"-- allow approval_required approved denied invalid lockout unlock recovered lost pruned\n",
		"(files)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("zsh completion lacks %q:\n%s", want, got)
		}
	}
}

// TestCompletionFish loads the script in a real fish and asks fish to
// complete command lines.
func TestCompletionFish(t *testing.T) {
	fish := shellOrSkip(t, "fish")
	env := completionEnv(t)
	script := `warden completion fish | source
complete -C 'warden au'
complete -C 'warden audit '
complete -C 'warden audit tail --decision de'
complete -C 'warden serve --con'
`
	got := runShell(t, env, fish, "--no-config", "-c", script)
	for _, want := range []string{
		"audit\tVerify and read the audit log.\n",
		"tail\tPrint the last audit records as JSON lines, oldest first.\n",
		"verify\tVerify the audit log's hash chain.\n",
		"denied\t",
		"--config\tconfig file",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("fish completion lacks %q:\n%s", want, got)
		}
	}
}
