package ssh

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// testUser logs in to test servers: a user of its own whose login shell
// is /bin/sh, so no dotfile of the machine's accounts runs in tests.
const testUser = "wardentest"

// fixture is one sshd with a pool and target that trust it.
type fixture struct {
	srv    *sshd.Server
	pool   *sshpool.Pool
	target sshpool.Target
}

func newFixture(t testing.TB, opts sshd.Options) *fixture {
	t.Helper()
	s := sshd.Start(t, opts)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(known, s); err != nil {
		t.Fatal(err)
	}
	p := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { p.Close() })
	return &fixture{srv: s, pool: p, target: sshpool.Target{
		Name:            "sshd-" + s.Host,
		Host:            s.Host,
		Port:            s.Port,
		User:            s.User,
		IdentityFiles:   []string{s.UserKey.Path},
		KnownHostsFiles: []string{known},
		HostKeyPolicy:   sshpool.HostKeyStrict,
		Shell:           sshpool.DefaultShell,
	}}
}

func (f *fixture) runner(opts Options) *Runner { return New(f.pool, f.target, opts) }

func suiteOptions() runnertest.Options {
	return runnertest.Options{
		KillGrace:     500 * time.Millisecond,
		ProgressEvery: 200 * time.Millisecond,
		// Through encryption on two cores, 256 MiB takes a while.
		LargeOutput: 64 << 20,
	}
}

// TestConformance runs the runner suite as an ordinary user, for whom
// OpenSSH honours signal requests.
func TestConformance(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		return f.runner(Options{KillGrace: 500 * time.Millisecond, ProgressEvery: 200 * time.Millisecond})
	}, suiteOptions())
}

// TestConformancePrestart runs the suite through one Runner with spares
// on, so that most of its calls run on a session started by the call
// before.
func TestConformancePrestart(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	r := f.runner(Options{KillGrace: 500 * time.Millisecond, ProgressEvery: 200 * time.Millisecond, Prestart: time.Minute})
	runnertest.Run(t, func(t *testing.T) runner.Runner { return r }, suiteOptions())
}

// TestConformanceRoot runs it as root, for whom OpenSSH refuses signal
// requests ("session signalling requires privilege separation"), so the
// kills must go by process group from a second session.
func TestConformanceRoot(t *testing.T) {
	f := newFixture(t, sshd.Options{})
	if f.srv.User != "root" {
		t.Skip("not running as root")
	}
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		return f.runner(Options{KillGrace: 500 * time.Millisecond, ProgressEvery: 200 * time.Millisecond})
	}, suiteOptions())
}

func TestArgvQuotedOnce(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	args := []string{"a b", "$(id)", "it's", "`id`", ";echo pwned", `\`, "*", "~", "", "line\nbreak", `"q"`, "$HOME", "a=b", "-n"}
	res, err := f.runner(Options{}).Run(t.Context(), runner.Request{
		Argv: append([]string{"printf", `[%s]\n`}, args...),
		Env:  []string{"PATH=/usr/bin:/bin", "HOME=/nowhere"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, a := range args {
		want.WriteString("[" + a + "]\n")
	}
	if got := string(res.Stdout); got != want.String() {
		t.Errorf("stdout = %q, want %q", got, want.String())
	}
}

func TestShDashCUsesConfiguredShell(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	f.target.Shell = "/bin/bash"
	res, err := f.runner(Options{}).Run(t.Context(), runner.Request{Argv: []string{"sh", "-c", `echo "${BASH_VERSION:+bash}"`}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); got != "bash\n" {
		t.Errorf("sh -c ran under %q, want the configured /bin/bash", got)
	}

	f.target.Shell = "/nonexistent/sh"
	_, err = f.runner(Options{}).Run(t.Context(), runner.Request{Argv: []string{"sh", "-c", "echo hi"}})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/sh") {
		t.Errorf("sh -c with a missing configured shell: err = %v, want one naming it", err)
	}
}

// TestTimeoutKillsRemoteProcess checks with pgrep, on the server side,
// that a timed-out command and its background child are gone: as root,
// where only the process-group kill works, and as a user.
func TestTimeoutKillsRemoteProcess(t *testing.T) {
	for _, user := range []string{"", testUser} {
		t.Run("user="+user, func(t *testing.T) {
			f := newFixture(t, sshd.Options{User: user})
			marker := fmt.Sprintf("warden-timeout-%d", time.Now().UnixNano())
			script := fmt.Sprintf(`/bin/sh -c 'sleep 1000; : %s' & sleep 1000`, marker)
			res, err := f.runner(Options{KillGrace: 300 * time.Millisecond}).Run(t.Context(), runner.Request{
				Argv:    []string{"/bin/sh", "-c", script},
				Timeout: time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !res.TimedOut || res.ExitCode != 128+15 {
				t.Errorf("result = %+v, want timed out with SIGTERM's 143", res)
			}
			for end := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				out, err := exec.Command("pgrep", "-f", marker).Output()
				if err != nil {
					break // pgrep exits 1: no such process
				}
				if time.Now().After(end) {
					t.Fatalf("remote process still running after timeout: pids %s", out)
				}
			}
		})
	}
}

func TestServerKilledMidCall(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	r := f.runner(Options{})
	if _, err := r.Run(t.Context(), runner.Request{Argv: []string{"true"}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		f.srv.Stop()
	}()
	_, err := r.Run(t.Context(), runner.Request{Argv: []string{"sleep", "30"}, Timeout: 20 * time.Second})
	if !errors.Is(err, sshpool.ErrConnLost) || !strings.Contains(err.Error(), "outcome is unknown") {
		t.Fatalf("err = %v, want a lost connection with unknown outcome", err)
	}
	f.srv.Restart(t)
	res, err := r.Run(t.Context(), runner.Request{Argv: []string{"echo", "back"}})
	if err != nil || string(res.Stdout) != "back\n" {
		t.Fatalf("after restart: %+v, %v; want back", res, err)
	}
}

func TestCommandRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  runner.Request
	}{
		{"empty-argv", runner.Request{}},
		{"empty-program", runner.Request{Argv: []string{""}}},
		{"assignment-program", runner.Request{Argv: []string{"A=1"}}},
		{"nul-arg", runner.Request{Argv: []string{"echo", "a\x00b"}}},
		{"env-no-equals", runner.Request{Argv: []string{"env"}, Env: []string{"FOO"}}},
		{"env-bad-name", runner.Request{Argv: []string{"env"}, Env: []string{"A;B=1"}}},
		{"env-digit-name", runner.Request{Argv: []string{"env"}, Env: []string{"1A=1"}}},
		{"env-nul", runner.Request{Argv: []string{"env"}, Env: []string{"A=\x00"}}},
		{"dir-nul", runner.Request{Argv: []string{"pwd"}, Dir: "/\x00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if cmd, _, err := command("/bin/sh", tc.req, false); err == nil {
				t.Errorf("command(%q) = %q, want an error", tc.req.Argv, cmd)
			}
		})
	}
}

func TestStderrFilter(t *testing.T) {
	const marker = "warden-0123:"
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
		pid    int
	}{
		{"whole", []string{marker + "pid:42\n" + marker + "go\nerr\n"}, "err\n", 42},
		{"split", []string{"war", "den-0123:p", "id:42", "\n", marker + "g", "o\n", "e", "rr\n"}, "err\n", 42},
		{"no-report", []string{"plain\n"}, "plain\n", 0},
		{"lookalike", []string{"warden-9999:pid:7\n"}, "warden-9999:pid:7\n", 0},
		{"report-then-lookalike", []string{marker + "pid:5\n" + marker + "go\nwarden-0123\n"}, "warden-0123\n", 5},
		// Startup files may print before the stub, even without a newline.
		{"login-noise", []string{"stty: not a tty\n" + marker + "pid:6\n" + marker + "go\nerr\n"}, "stty: not a tty\nerr\n", 6},
		{"login-noise-same-line", []string{"noise", " war", "den-0123:pid:8\n" + marker + "go\n"}, "noise ", 8},
		// After go, a report only at the start: the command cannot make one.
		{"command-after-go", []string{marker + "pid:9\n" + marker + "go\nout\n" + marker + "pid:1\n"}, "out\n" + marker + "pid:1\n", 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			rep := newReport()
			f := &stderrFilter{w: &out, marker: []byte(marker), rep: rep}
			for _, c := range tc.chunks {
				if n, err := f.Write([]byte(c)); n != len(c) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", c, n, err)
				}
			}
			f.flush()
			if out.String() != tc.want || rep.getPid() != tc.pid {
				t.Errorf("passed %q, pid %d; want %q, %d", out.String(), rep.getPid(), tc.want, tc.pid)
			}
		})
	}
}

// TestLoginEnvironmentNeverReachesCommand gives every session a variable
// from sshd itself (SetEnv) and checks that neither path shows it to the
// command: the in-shell path, taken when the login shell is the configured
// /bin/sh (the command then runs in the login shell, whose command line is
// warden's script), and the env -i path, taken for root's bash login.
func TestLoginEnvironmentNeverReachesCommand(t *testing.T) {
	for _, tc := range []struct {
		user    string
		inShell bool
	}{{testUser, true}, {"", false}} {
		t.Run("user="+tc.user, func(t *testing.T) {
			f := newFixture(t, sshd.Options{User: tc.user, ExtraConfig: []string{"SetEnv WARDEN_LOGIN_LEAK=leaked"}})
			if tc.user == "" && f.srv.User != "root" {
				t.Skip("not running as root")
			}
			res, err := f.runner(Options{}).Run(t.Context(), runner.Request{
				Argv: []string{"sh", "-c", `printf '%s|' "${WARDEN_LOGIN_LEAK-unset}" "$GIVEN"; tr '\0' ' ' </proc/$$/cmdline`},
				Env:  []string{"PATH=/usr/bin:/bin", "GIVEN=x y"},
			})
			if err != nil {
				t.Fatal(err)
			}
			leak, rest, _ := strings.Cut(string(res.Stdout), "|")
			given, cmdline, _ := strings.Cut(rest, "|")
			if leak != "unset" || given != "x y" {
				t.Errorf("WARDEN_LOGIN_LEAK, GIVEN = %q, %q; want unset, %q (stderr %q)", leak, given, "x y", res.Stderr)
			}
			if got := strings.Contains(cmdline, "export -p"); got != tc.inShell {
				t.Errorf("ran in the login shell = %v, want %v; command line %q", got, tc.inShell, cmdline)
			}
		})
	}
}

// TestWaitForSessionBoundedByTimeout: with every session of the
// connection running a command, a call waits for one to free no longer
// than its own timeout, and says why it did not run.
func TestWaitForSessionBoundedByTimeout(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	// One session for commands, one kept for kills.
	f.pool = sshpool.New(sshpool.Options{MaxSessions: 2})
	t.Cleanup(func() { f.pool.Close() })
	r := f.runner(Options{KillGrace: 500 * time.Millisecond})
	marker := filepath.Join(t.TempDir(), "ran")
	held := make(chan error, 1)
	go func() {
		_, err := r.Run(t.Context(), runner.Request{Argv: []string{"sleep", "20"}, Timeout: time.Minute})
		held <- err
	}()
	// The sleep holds the only session once it runs.
	deadline := time.Now().Add(30 * time.Second)
	for len(f.srv.SignalNamed("sleep", 0)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the holding command did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	_, err := r.Run(t.Context(), runner.Request{Argv: []string{"touch", marker}, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "no session on "+f.target.Name+" freed within 1s") {
		t.Fatalf("a call with every session busy: %v (after %s), want it ended at its timeout", err, time.Since(start))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the call that found no session ran")
	}
	f.srv.SignalNamed("sleep", syscall.SIGKILL)
	<-held
}
