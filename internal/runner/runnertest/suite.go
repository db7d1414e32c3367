// Package runnertest owns the conformance suite every runner.Runner must
// pass — local, SSH, the sandboxes — so that exit codes, environment,
// output bounds and process clean-up mean the same wherever a command
// runs. Commands are portable /bin/sh (dash, busybox ash) scripts.
package runnertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// Subtest names, for Options.Skip.
var subtests = []string{
	"echo", "exit-codes", "stdin", "stderr", "cwd", "env", "env-exact",
	"errors", "timeout", "timeout-kill", "cancel", "exit-kills-group",
	"output-cap", "utf8-cut", "large-output", "progress",
}

// Options tells the suite what a runner cannot do and how to observe it.
type Options struct {
	// Skip maps a subtest name to the reason this runner skips it. The
	// names are echo, exit-codes, stdin, stderr, cwd, env, env-exact,
	// errors, timeout, timeout-kill, cancel, exit-kills-group, output-cap,
	// utf8-cut, large-output and progress; an unknown name fails the suite.
	Skip map[string]string
	// ProcessGone reports whether no process whose command line contains
	// marker is left where the runner runs commands. Nil scans the local
	// /proc.
	ProcessGone func(marker string) bool
	// TermIgnoredExit is the exit code timeout-kill expects of a command
	// that ignores SIGTERM; zero means 128+9, the SIGKILL after the grace.
	// A sandbox that dies of the SIGTERM itself while its command is
	// killed with it (bwrap) reports 128+15.
	TermIgnoredExit int
	// KillGrace is the runner's SIGTERM-to-SIGKILL grace; zero means
	// runner.KillGrace. It only bounds how long the suite waits.
	KillGrace time.Duration
	// ProgressEvery is the runner's progress interval; zero means
	// runner.ProgressEvery.
	ProgressEvery time.Duration
	// LargeOutput is how many bytes large-output prints; zero means 256 MiB.
	LargeOutput int64
	// MaxGrowth bounds the test process's peak RSS growth during
	// large-output; zero means 64 MiB.
	MaxGrowth int64
}

// Run runs the conformance suite against runners made by newRunner, one
// per subtest. It sets an environment variable of its own, so it must not
// run inside a parallel test.
func Run(t *testing.T, newRunner func(t *testing.T) runner.Runner, opts Options) {
	for name := range opts.Skip {
		if !slices.Contains(subtests, name) {
			t.Fatalf("runnertest: Options.Skip names unknown subtest %q", name)
		}
	}
	if opts.ProcessGone == nil {
		opts.ProcessGone = LocalProcessGone
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = runner.KillGrace
	}
	if opts.TermIgnoredExit == 0 {
		opts.TermIgnoredExit = 128 + 9
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = runner.ProgressEvery
	}
	if opts.LargeOutput <= 0 {
		opts.LargeOutput = 256 << 20
	}
	if opts.MaxGrowth <= 0 {
		opts.MaxGrowth = 64 << 20
	}
	s := &suite{opts: opts}
	tests := map[string]func(*testing.T, runner.Runner){
		"echo":             s.echo,
		"exit-codes":       s.exitCodes,
		"stdin":            s.stdin,
		"stderr":           s.stderr,
		"cwd":              s.cwd,
		"env":              s.env,
		"env-exact":        s.envExact,
		"errors":           s.errors,
		"timeout":          s.timeout,
		"timeout-kill":     s.timeoutKill,
		"cancel":           s.cancel,
		"exit-kills-group": s.exitKillsGroup,
		"output-cap":       s.outputCap,
		"utf8-cut":         s.utf8Cut,
		"large-output":     s.largeOutput,
		"progress":         s.progress,
	}
	for _, name := range subtests {
		t.Run(name, func(t *testing.T) {
			if reason, ok := opts.Skip[name]; ok {
				t.Skip(reason)
			}
			tests[name](t, newRunner(t))
		})
	}
}

type suite struct {
	opts Options
}

// sh returns argv running script with /bin/sh.
func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

// run runs req and fails the test if the runner returns an error or has
// not returned within limit — the outcome when a kill or drain is missing.
func run(t *testing.T, ctx context.Context, r runner.Runner, req runner.Request, limit time.Duration) runner.Result {
	t.Helper()
	res, err := runWithin(t, ctx, r, req, limit)
	if err != nil {
		t.Fatalf("Run(%q) error: %v", req.Argv, err)
	}
	return res
}

func runWithin(t *testing.T, ctx context.Context, r runner.Runner, req runner.Request, limit time.Duration) (runner.Result, error) {
	t.Helper()
	o := await(t, start(ctx, r, req), req, limit)
	return o.res, o.err
}

type outcome struct {
	res runner.Result
	err error
}

// start runs req in the background.
func start(ctx context.Context, r runner.Runner, req runner.Request) <-chan outcome {
	done := make(chan outcome, 1)
	go func() {
		res, err := r.Run(ctx, req)
		done <- outcome{res, err}
	}()
	return done
}

// await waits for a run started by start, failing the test when it has not
// returned within limit.
func await(t *testing.T, done <-chan outcome, req runner.Request, limit time.Duration) outcome {
	t.Helper()
	select {
	case o := <-done:
		return o
	case <-time.After(limit):
		t.Fatalf("Run(%q) did not return within %v", req.Argv, limit)
		return outcome{}
	}
}

// awaitResult is await for a run that must not fail.
func awaitResult(t *testing.T, done <-chan outcome, req runner.Request, limit time.Duration) runner.Result {
	t.Helper()
	o := await(t, done, req, limit)
	if o.err != nil {
		t.Fatalf("Run(%q) error: %v", req.Argv, o.err)
	}
	return o.res
}

const quick = 30 * time.Second

func (s *suite) echo(t *testing.T, r runner.Runner) {
	res := run(t, t.Context(), r, runner.Request{Argv: sh("echo hi")}, quick)
	if got, want := string(res.Stdout), "hi\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if len(res.Stderr) != 0 {
		t.Errorf("stderr = %q, want empty", res.Stderr)
	}
	if res.ExitCode != 0 || res.Truncated || res.TimedOut || res.Canceled {
		t.Errorf("result = %+v, want exit 0 and no flags", res)
	}
	if res.TotalBytes != 3 {
		t.Errorf("TotalBytes = %d, want 3", res.TotalBytes)
	}
	if res.Duration <= 0 {
		t.Errorf("Duration = %v, want > 0", res.Duration)
	}
}

func (s *suite) exitCodes(t *testing.T, r runner.Runner) {
	for _, tc := range []struct {
		name, script string
		want         int
	}{
		{"zero", "exit 0", 0},
		{"three", "exit 3", 3},
		{"sigkill", "kill -KILL $$", 128 + 9},
		{"sigterm", "kill -TERM $$", 128 + 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, t.Context(), r, runner.Request{Argv: sh(tc.script)}, quick)
			if res.ExitCode != tc.want {
				t.Errorf("%q: exit code = %d, want %d", tc.script, res.ExitCode, tc.want)
			}
		})
	}
}

func (s *suite) stdin(t *testing.T, r runner.Runner) {
	t.Run("round-trip", func(t *testing.T) {
		in := make([]byte, 1<<20)
		_, _ = rand.Read(in)
		res := run(t, t.Context(), r, runner.Request{Argv: sh("cat"), Stdin: in, MaxBytes: runner.CeilingMaxBytes}, quick)
		if !bytes.Equal(res.Stdout, in) {
			t.Errorf("stdout: %d bytes differ from the %d stdin bytes", len(res.Stdout), len(in))
		}
	})
	t.Run("unread", func(t *testing.T) {
		// Far more than a pipe holds, to a command that never reads it.
		in := bytes.Repeat([]byte("x"), 4<<20)
		res := run(t, t.Context(), r, runner.Request{Argv: sh("echo done"), Stdin: in}, quick)
		if got := string(res.Stdout); got != "done\n" || res.ExitCode != 0 {
			t.Errorf("stdout, exit = %q, %d; want %q, 0", got, res.ExitCode, "done\n")
		}
	})
	t.Run("none", func(t *testing.T) {
		// With no stdin the command must see EOF, not warden's own stdin.
		res := run(t, t.Context(), r, runner.Request{Argv: sh("wc -c")}, quick)
		if got := strings.TrimSpace(string(res.Stdout)); got != "0" {
			t.Errorf("wc -c of empty stdin = %q, want 0", got)
		}
	})
}

func (s *suite) stderr(t *testing.T, r runner.Runner) {
	res := run(t, t.Context(), r, runner.Request{Argv: sh("echo out; echo err >&2; exit 2")}, quick)
	if got, want := string(res.Stdout), "out\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if got, want := string(res.Stderr), "err\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
	if res.ExitCode != 2 || res.TotalBytes != 8 {
		t.Errorf("exit, total = %d, %d; want 2, 8", res.ExitCode, res.TotalBytes)
	}
}

func (s *suite) cwd(t *testing.T, r runner.Runner) {
	for _, dir := range []string{"/", "/usr"} {
		res := run(t, t.Context(), r, runner.Request{Argv: sh("pwd -P"), Dir: dir}, quick)
		if got, want := string(res.Stdout), dir+"\n"; got != want {
			t.Errorf("Dir %q: pwd = %q, want %q", dir, got, want)
		}
	}
}

// leakVar is set in the test process; a runner that passes its own
// environment on shows it to the command.
const leakVar = "WARDEN_RUNNERTEST_LEAK"

func (s *suite) env(t *testing.T, r runner.Runner) {
	t.Setenv(leakVar, "leaked")
	res := run(t, t.Context(), r, runner.Request{
		Argv: sh(`printf '%s|%s|%s' "$GIVEN" "${` + leakVar + `-unset}" "${HOME-unset}"`),
		Env:  []string{"GIVEN=a b=c"},
	}, quick)
	if got, want := string(res.Stdout), "a b=c|unset|unset"; got != want {
		t.Errorf("given|leak|HOME = %q, want %q (exit %d, stderr %q)", got, want, res.ExitCode, res.Stderr)
	}
	// A nil Env is an empty environment, not an inherited one.
	res = run(t, t.Context(), r, runner.Request{Argv: sh(`printf '%s|%s' "${` + leakVar + `-unset}" "${HOME-unset}"`)}, quick)
	if got, want := string(res.Stdout), "unset|unset"; got != want {
		t.Errorf("nil Env: leak|HOME = %q, want %q (exit %d, stderr %q)", got, want, res.ExitCode, res.Stderr)
	}
}

// shellVars are set by the shell itself, not passed by the runner.
var shellVars = []string{"PWD", "OLDPWD", "SHLVL", "_"}

func (s *suite) envExact(t *testing.T, r runner.Runner) {
	t.Setenv(leakVar, "leaked")
	want := []string{"A=1", "B=two words", "PATH=/usr/bin:/bin"}
	res := run(t, t.Context(), r, runner.Request{Argv: sh("exec env"), Env: want}, quick)
	var got []string
	for line := range strings.Lines(string(res.Stdout)) {
		kv := strings.TrimSuffix(line, "\n")
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(shellVars, name) {
			got = append(got, kv)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("child environment = %q, want exactly %q", got, want)
	}
}

func (s *suite) errors(t *testing.T, r runner.Runner) {
	prog := "warden-no-such-program-" + randomHex()
	_, err := runWithin(t, t.Context(), r, runner.Request{Argv: []string{prog}, Env: []string{"PATH=/usr/bin:/bin"}}, quick)
	if err == nil || !strings.Contains(err.Error(), prog) {
		t.Errorf("missing program: error = %v, want one naming %q", err, prog)
	}
	dir := "/warden-no-such-dir-" + randomHex()
	_, err = runWithin(t, t.Context(), r, runner.Request{Argv: sh("pwd"), Dir: dir}, quick)
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("missing dir: error = %v, want one naming %q", err, dir)
	}
	_, err = runWithin(t, t.Context(), r, runner.Request{}, quick)
	if err == nil {
		t.Errorf("empty argv: error = nil, want one")
	}
}

// marked returns a script that starts a background grandchild whose
// command line carries a fresh marker, then runs then; and the marker. The
// marker is split in the script so only the grandchild's command line
// holds it whole.
func marked(then string) (script, marker string) {
	id := randomHex()
	marker = "warden-rt-" + id
	return fmt.Sprintf(`/bin/sh -c 'sleep 1000; :' 'warden-rt-'%q & %s`, id, then), marker
}

// awaitAlive waits until the marker process is visible, proving the gone
// check that follows can see it.
func (s *suite) awaitAlive(t *testing.T, marker string) {
	t.Helper()
	for end := time.Now().Add(quick); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if !s.opts.ProcessGone(marker) {
			return
		}
	}
	t.Fatalf("process marked %q never appeared", marker)
}

// awaitGone fails the test unless the marker process vanishes shortly.
func (s *suite) awaitGone(t *testing.T, marker string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if s.opts.ProcessGone(marker) {
			return
		}
	}
	t.Errorf("process marked %q still running after the run returned", marker)
}

// startTimed starts a marked command under a short timeout (wrap puts
// the marker's script into its shell text) and returns once the marker
// process is visible. A runner slow to start a command (a container on a
// busy machine) can reach the timeout before the command shows: that run
// is waited out and the next attempt gets a longer timeout, so the kill
// a test then checks is always one of a process seen running.
func (s *suite) startTimed(t *testing.T, r runner.Runner, wrap func(string) string) (<-chan outcome, runner.Request, string) {
	t.Helper()
	for _, timeout := range []time.Duration{time.Second, 5 * time.Second, 20 * time.Second} {
		script, marker := marked("sleep 1000")
		req := runner.Request{Argv: sh(wrap(script)), Timeout: timeout}
		done := start(t.Context(), r, req)
		if s.aliveBefore(marker, done) {
			return done, req, marker
		}
		s.awaitGone(t, marker)
	}
	t.Fatalf("the marked process never appeared before its run's timeout, up to 20s")
	return nil, runner.Request{}, ""
}

// aliveBefore waits until the marker process is visible, and reports
// false if the run ends first (or nothing shows within quick); it takes
// the run's outcome only then.
func (s *suite) aliveBefore(marker string, done <-chan outcome) bool {
	for end := time.Now().Add(quick); time.Now().Before(end); {
		if !s.opts.ProcessGone(marker) {
			return true
		}
		select {
		case <-done:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

func (s *suite) timeout(t *testing.T, r runner.Runner) {
	done, req, marker := s.startTimed(t, r, func(script string) string { return script })
	res := awaitResult(t, done, req, quick+s.opts.KillGrace)
	if !res.TimedOut || res.Canceled {
		t.Errorf("TimedOut, Canceled = %v, %v; want true, false", res.TimedOut, res.Canceled)
	}
	if res.ExitCode == 0 {
		t.Errorf("exit code = 0, want the signal's")
	}
	s.awaitGone(t, marker)
}

func (s *suite) timeoutKill(t *testing.T, r runner.Runner) {
	// SIGTERM is ignored by the shell and, inherited, by everything it
	// starts: only the SIGKILL after the grace period ends them.
	done, req, marker := s.startTimed(t, r, func(script string) string { return `trap "" TERM; ` + script })
	res := awaitResult(t, done, req, quick+s.opts.KillGrace)
	if !res.TimedOut {
		t.Errorf("TimedOut = false, want true")
	}
	if got, want := res.ExitCode, s.opts.TermIgnoredExit; got != want {
		t.Errorf("exit code = %d, want %d", got, want)
	}
	s.awaitGone(t, marker)
}

func (s *suite) cancel(t *testing.T, r runner.Runner) {
	script, marker := marked("sleep 1000")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req := runner.Request{Argv: sh(script), Timeout: time.Hour}
	done := start(ctx, r, req)
	s.awaitAlive(t, marker)
	cancel()
	o := await(t, done, req, quick+s.opts.KillGrace)
	if o.err != nil {
		t.Fatalf("Run error after cancel mid-run: %v, want a result with Canceled", o.err)
	}
	if !o.res.Canceled || o.res.TimedOut {
		t.Errorf("Canceled, TimedOut = %v, %v; want true, false", o.res.Canceled, o.res.TimedOut)
	}
	s.awaitGone(t, marker)
}

func (s *suite) exitKillsGroup(t *testing.T, r runner.Runner) {
	// The grandchild outlives the shell and holds its stdout open.
	script, marker := marked("echo started")
	res := run(t, t.Context(), r, runner.Request{Argv: sh(script)}, quick)
	if got, want := string(res.Stdout), "started\n"; got != want || res.ExitCode != 0 {
		t.Errorf("stdout, exit = %q, %d; want %q, 0", got, res.ExitCode, want)
	}
	s.awaitGone(t, marker)
}

func (s *suite) outputCap(t *testing.T, r runner.Runner) {
	for _, tc := range []struct {
		name      string
		script    string
		max       int
		total     int64
		truncated bool
	}{
		{"stdout", "head -c 1000 /dev/zero", 100, 1000, true},
		{"exact", "head -c 100 /dev/zero", 100, 100, false},
		{"combined", "head -c 600 /dev/zero; head -c 600 /dev/zero >&2", 1000, 1200, true},
		{"stderr", "head -c 5000 /dev/zero >&2", 10, 5000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, t.Context(), r, runner.Request{Argv: sh(tc.script), MaxBytes: tc.max}, quick)
			kept := int64(len(res.Stdout) + len(res.Stderr))
			if want := min(int64(tc.max), tc.total); kept != want {
				t.Errorf("kept %d bytes, want %d", kept, want)
			}
			if res.TotalBytes != tc.total || res.Truncated != tc.truncated {
				t.Errorf("TotalBytes, Truncated = %d, %v; want %d, %v", res.TotalBytes, res.Truncated, tc.total, tc.truncated)
			}
		})
	}
}

func (s *suite) utf8Cut(t *testing.T, r runner.Runner) {
	// é is 2 bytes (\303\251), 😀 is 4 (\360\237\230\200).
	for _, tc := range []struct {
		name, printf string
		max          int
		want         string
		total        int64
	}{
		{"e-acute-split", `a\303\251`, 2, "a", 3},
		{"e-acute-whole", `a\303\251b`, 3, "aé", 4},
		{"emoji-1", `a\360\237\230\200`, 2, "a", 5},
		{"emoji-3", `a\360\237\230\200`, 4, "a", 5},
		{"emoji-whole", `a\360\237\230\200z`, 5, "a😀", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, t.Context(), r, runner.Request{Argv: sh(`printf '` + tc.printf + `'`), MaxBytes: tc.max}, quick)
			if got := string(res.Stdout); got != tc.want || !res.Truncated || res.TotalBytes != tc.total {
				t.Errorf("stdout, truncated, total = %q, %v, %d; want %q, true, %d", got, res.Truncated, res.TotalBytes, tc.want, tc.total)
			}
		})
	}
}

func (s *suite) largeOutput(t *testing.T, r runner.Runner) {
	var res runner.Result
	g := MeasureGrowth(func() {
		res = run(t, t.Context(), r, runner.Request{Argv: sh(fmt.Sprintf("head -c %d /dev/zero", s.opts.LargeOutput))}, 5*time.Minute)
	})
	t.Logf("%d MiB of output: peak RSS growth %.1f MiB (%s), heap allocated %.1f MiB",
		s.opts.LargeOutput>>20, float64(g.PeakRSS)/(1<<20), g.Method, float64(g.Allocated)/(1<<20))
	if len(res.Stdout) != runner.DefaultMaxBytes || !res.Truncated || res.TotalBytes != s.opts.LargeOutput {
		t.Errorf("kept, truncated, total = %d, %v, %d; want %d, true, %d",
			len(res.Stdout), res.Truncated, res.TotalBytes, runner.DefaultMaxBytes, s.opts.LargeOutput)
	}
	if g.PeakRSS > s.opts.MaxGrowth {
		t.Errorf("peak RSS grew %d bytes, want at most %d", g.PeakRSS, s.opts.MaxGrowth)
	}
}

func (s *suite) progress(t *testing.T, r runner.Runner) {
	type tick struct {
		elapsed time.Duration
		bytes   int64
	}
	var (
		mu  sync.Mutex
		got []tick
	)
	every := s.opts.ProgressEvery
	script := fmt.Sprintf("printf 12345; sleep %.3f", (4 * every).Seconds())
	res := run(t, t.Context(), r, runner.Request{
		Argv: sh(script),
		Progress: func(e time.Duration, b int64) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, tick{e, b})
		},
	}, quick+8*every)
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 2 {
		t.Fatalf("Progress called %d times over %v at interval %v, want at least 2", len(got), res.Duration, every)
	}
	for i, tk := range got {
		if i > 0 && tk.elapsed <= got[i-1].elapsed {
			t.Errorf("tick %d elapsed %v not after %v", i, tk.elapsed, got[i-1].elapsed)
		}
		if tk.elapsed > res.Duration {
			t.Errorf("tick %d elapsed %v after the run's duration %v", i, tk.elapsed, res.Duration)
		}
	}
	if last := got[len(got)-1]; last.bytes != 5 {
		t.Errorf("last tick bytes = %d, want 5", last.bytes)
	}
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
