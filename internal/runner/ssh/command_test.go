package ssh

import (
	"errors"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/runner"
)

// TestCommandScriptUnderLoginShells runs the stub the way sshd does — the
// login shell with -c, an environment full of the login's variables, one
// of them multi-line, one with a name that is not an identifier — under
// each login shell on this machine, feeds it the script command builds
// and then the command's stdin, and checks that the command sees exactly
// the request's environment and its stdin whichever path the script
// takes: the in-shell one under dash and BusyBox ash, env -i under bash
// and when a variable is read-only.
func TestCommandScriptUnderLoginShells(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/$$/cmdline")
	}
	req := runner.Request{
		Argv: []string{"sh", "-c", `env; read -r in; echo "$in"; case "$(tr '\0' ' ' </proc/$$/cmdline)" in *"export -"p*) echo IN ;; *) echo OUT ;; esac`},
		Env:  []string{"PATH=/usr/bin:/bin", "GIVEN=a b"},
	}
	script, _, err := command("/bin/sh", req, false)
	if err != nil {
		t.Fatal(err)
	}
	stdin := string(frame(script)) + "from stdin\n"
	login := []string{"SHELL=/bin/sh", "HOME=/root", "USER=root", "SSH_CLIENT=192.0.2.1 5000 22",
		"LEAK=leaked", "MULTI=one\nexport LEAK2=x", "NOT-AN-IDENT=1"}
	for _, sh := range []struct {
		name    string
		argv    []string
		prefix  string
		inShell bool
	}{
		{"dash", []string{"dash"}, "", true},
		{"busybox", []string{"busybox", "sh"}, "", true},
		{"bash", []string{"bash"}, "", false},
		// A read-only exported variable cannot be unset: env -i instead.
		{"dash-readonly", []string{"dash"}, "export RO=1; readonly RO\n", false},
	} {
		t.Run(sh.name, func(t *testing.T) {
			if _, err := exec.LookPath(sh.argv[0]); err != nil {
				t.Skipf("%s not installed", sh.argv[0])
			}
			cmd := exec.Command(sh.argv[0], append(sh.argv[1:], "-c", sh.prefix+stub("/bin/sh", "m:"))...)
			cmd.Env = login
			cmd.Stdin = strings.NewReader(stdin)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s%s", err, out, stderr.String())
			}
			if !strings.HasSuffix(stderr.String(), "m:go\n") {
				t.Errorf("stderr = %q, want the pid and go reports", stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			last, in := lines[len(lines)-1], lines[len(lines)-2]
			if in != "from stdin" {
				t.Errorf("the command read %q from stdin, want %q", in, "from stdin")
			}
			var env []string
			for _, kv := range lines[:len(lines)-2] {
				if name, _, _ := strings.Cut(kv, "="); !slices.Contains([]string{"PWD", "SHLVL", "_"}, name) {
					env = append(env, kv)
				}
			}
			slices.Sort(env)
			if want := []string{"GIVEN=a b", "PATH=/usr/bin:/bin"}; !slices.Equal(env, want) {
				t.Errorf("environment = %q, want exactly %q", env, want)
			}
			if got := last == "IN"; got != sh.inShell {
				t.Errorf("in-shell path taken = %v, want %v (%s)", got, sh.inShell, last)
			}
		})
	}
}

// TestStubRunsNothingFromAShortScript feeds the stub fewer lines than the
// count says, then a count that is not a number, then nothing: it must
// exit without reporting go and without running any line it got.
func TestStubRunsNothingFromAShortScript(t *testing.T) {
	for _, stdin := range []string{"3\necho ran\necho ran\n", "x\necho ran\n", ""} {
		cmd := exec.Command("dash", "-c", stub("/bin/sh", "m:"))
		cmd.Env = []string{"SHELL=/bin/sh", "PATH=/usr/bin:/bin"}
		cmd.Stdin = strings.NewReader(stdin)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 125 || len(out) > 0 || strings.Contains(stderr.String(), "m:go") {
			t.Errorf("stdin %q: err %v, stdout %q, stderr %q; want exit 125, nothing run, no go", stdin, err, out, stderr.String())
		}
	}
}
