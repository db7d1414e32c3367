package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// runBin runs the built binary with args and returns stdout, stderr and
// the exit status.
func runBin(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := execCommand(args, env)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("run warden %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// commandPaths is every subcommand and every group, as argument lists.
func commandPaths() [][]string {
	var paths [][]string
	for _, g := range groups() {
		paths = append(paths, []string{g.name})
	}
	for _, s := range commands() {
		paths = append(paths, strings.Fields(s.name))
	}
	return paths
}

// TestEverySubcommandHasOneShape: for every subcommand and group, -h and
// --help print usage (with examples for a command) to stdout and exit 0;
// an unknown flag is one line on stderr and exit 2, and nothing on stdout.
func TestEverySubcommandHasOneShape(t *testing.T) {
	env, _ := wardenEnv(t)
	for _, path := range commandPaths() {
		name := strings.Join(path, " ")
		t.Run(name, func(t *testing.T) {
			_, isCmd := specFor(name)
			for _, h := range []string{"-h", "--help"} {
				out, errOut, code := runBin(t, env, append(path, h)...)
				if code != 0 {
					t.Errorf("%s %s: exit %d, want 0; stderr: %s", name, h, code, errOut)
				}
				if !strings.HasPrefix(out, "Usage: warden "+name) {
					t.Errorf("%s %s: stdout does not start with its usage:\n%s", name, h, out)
				}
				if isCmd && !strings.Contains(out, "\nExamples:\n  ") {
					t.Errorf("%s %s: no examples:\n%s", name, h, out)
				}
				if errOut != "" {
					t.Errorf("%s %s: stderr not empty: %s", name, h, errOut)
				}
			}
			out, errOut, code := runBin(t, env, append(path, "--no-such-flag")...)
			if code != 2 {
				t.Errorf("unknown flag: exit %d, want 2", code)
			}
			if lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"); len(lines) != 1 || !strings.Contains(errOut, "--no-such-flag") || !strings.HasPrefix(errOut, "warden "+name+": ") {
				t.Errorf("unknown flag: stderr is not one line naming the flag:\n%s", errOut)
			}
			if out != "" {
				t.Errorf("unknown flag: stdout not empty: %s", out)
			}
		})
	}
}

func specFor(name string) (spec, bool) {
	for _, s := range commands() {
		if s.name == name {
			return s, true
		}
	}
	return spec{}, false
}

// TestUsageErrors: each friction of the first hour, through the binary.
func TestUsageErrors(t *testing.T) {
	env, _ := wardenEnv(t)
	tests := []struct {
		args   []string
		code   int
		stderr string // exact
	}{
		{[]string{"audit", "tail", "--decision", "bogus"}, 2,
			"warden audit tail: invalid value \"bogus\" for --decision: must be one of allow, approval_required, approved, denied, invalid, lockout, unlock, recovered, lost, pruned (see 'warden audit tail --help')\n"},
		{[]string{"audit", "tail", "-n", "many"}, 2, "warden audit tail: invalid value \"many\" for -n: not a number (see 'warden audit tail --help')\n"},
		{[]string{"audit", "tail", "--tier", "7"}, 2, "warden audit tail: --tier must be 0, 1, 2 or 3 (see 'warden audit tail --help')\n"},
		{[]string{"audit", "bogus"}, 2, "warden audit: unknown subcommand \"bogus\": verify, tail (see 'warden audit --help')\n"},
		{[]string{"audit"}, 2, "warden audit: missing subcommand: verify, tail (see 'warden audit --help')\n"},
		{[]string{"token", "new", "x", "--scope", "root"}, 2, ""},
		{[]string{"token", "new"}, 2, "warden token new: give one token NAME (see 'warden token new --help')\n"},
		{[]string{"serve", "extra"}, 2, "warden serve: unexpected argument \"extra\" (see 'warden serve --help')\n"},
		{[]string{"serve", "--http"}, 2, "warden serve: --http needs a value (see 'warden serve --help')\n"},
		{[]string{"validate"}, 2, "warden validate: give at least one FILE (see 'warden validate --help')\n"},
		{[]string{"config", "check", "a.yaml", "b.yaml"}, 2, "warden config check: give one config file, as FILE or --config (see 'warden config check --help')\n"},
		{[]string{"frobnicate"}, 2, "warden: unknown command \"frobnicate\" (see 'warden --help')\n"},
		{[]string{"--frobnicate"}, 2, "warden: unknown flag --frobnicate; a command comes first (see 'warden --help')\n"},
		{[]string{"completion", "tcsh"}, 2, "warden completion: unknown subcommand \"tcsh\": bash, zsh, fish (see 'warden completion --help')\n"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := runBin(t, env, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			if tc.stderr != "" && errOut != tc.stderr {
				t.Errorf("stderr:\n got %q\nwant %q", errOut, tc.stderr)
			}
			if strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", errOut)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
		})
	}
}

// TestHelpIsNotAFileName: validate --help and config check --help print
// usage and read no file of that name.
func TestHelpIsNotAFileName(t *testing.T) {
	env, _ := wardenEnv(t)
	for _, args := range [][]string{{"validate", "--help"}, {"validate", "tools.yaml", "--help"}, {"config", "check", "--help"}, {"help", "audit", "tail"}, {"--help"}, {"help"}} {
		out, errOut, code := runBin(t, env, args...)
		if code != 0 || !strings.HasPrefix(out, "Usage: warden") && !strings.HasPrefix(out, "warden —") {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr: %s", args, code, out, errOut)
		}
		if strings.Contains(errOut, "no such file") {
			t.Errorf("%v: read --help as a file: %s", args, errOut)
		}
	}
	out, _, _ := runBin(t, env, "config", "check", "--help")
	if !strings.Contains(out, "Flags:\n  --config FILE") {
		t.Errorf("config check --help does not list its flags:\n%s", out)
	}
	// A file really named --help is still reachable after --.
	_, errOut, code := runBin(t, env, "validate", "--", "--help")
	if code != 1 || !strings.Contains(errOut, "--help") {
		t.Errorf("validate -- --help: exit %d, stderr %q; want the file --help looked for", code, errOut)
	}
}

// TestExamplesUseRealFlags: every flag an example in the help names is a
// flag of its command.
func TestExamplesUseRealFlags(t *testing.T) {
	for _, s := range commands() {
		fs := s.flagSet()
		for _, ex := range s.examples {
			for _, w := range strings.Fields(ex) {
				if !strings.HasPrefix(w, "-") || w == "--" {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
				if fs.Lookup(name) == nil {
					t.Errorf("%s: example %q names %s, which is not one of its flags", s.name, ex, w)
				}
			}
		}
	}
}

// TestEveryCommandIsInTheTable: every command main dispatches is in the
// table the help, the completion scripts and the tests above are made
// from, so none escapes the common shape. agent is the mode warden runs
// in on a remote host, not a command for people.
func TestEveryCommandIsInTheTable(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"agent": true, "help": true}
	for _, g := range groups() {
		known[g.name] = true
	}
	for _, s := range commands() {
		known[strings.Fields(s.name)[0]] = true
	}
	for _, m := range regexp.MustCompile(`case "([a-z][a-z-]*)"`).FindAllStringSubmatch(string(src), -1) {
		if !known[m[1]] {
			t.Errorf("main dispatches %q, which is not in commands() or groups()", m[1])
		}
	}
}
