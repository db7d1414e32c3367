package ssh

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
)

// waitSpare waits for r's spare and returns the pid of its login shell,
// found on the server side by the spare's marker.
func waitSpare(t *testing.T, r *Runner) int {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r.mu.Lock()
		s := r.spare
		r.mu.Unlock()
		if s != nil {
			// The oldest: the shell may be forking for "export -p". sshd
			// answers the exec before its child has exec'd the shell,
			// so the shell may not be there yet either.
			out, _ := exec.Command("pgrep", "-o", "-f", s.marker).Output()
			if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
				return pid
			}
		}
		if time.Now().After(end) {
			t.Fatal("no spare shell started")
		}
	}
}

// echoPid runs "echo $$" through r: the pid of the login shell the
// command ran in.
func echoPid(t *testing.T, r *Runner) int {
	t.Helper()
	res, err := r.Run(t.Context(), runner.Request{Argv: []string{"sh", "-c", "echo $$"}, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("echo $$: %+v", res)
	}
	return pid
}

// TestSpareRunsNextCall checks that a call runs in the login shell its
// predecessor started, and then leaves a new one.
func TestSpareRunsNextCall(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	r := f.runner(Options{Prestart: time.Minute})
	echoPid(t, r)
	spare := waitSpare(t, r)
	if got := echoPid(t, r); got != spare {
		t.Fatalf("the call ran in shell %d, want the spare %d started before it", got, spare)
	}
	if next := waitSpare(t, r); next == spare {
		t.Fatalf("the used spare %d is still the spare", spare)
	}
}

// TestSpareClosedUnused checks that a spare no call takes is closed, its
// shell gone from the server, and that without Prestart none starts.
func TestSpareClosedUnused(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	r := f.runner(Options{Prestart: 300 * time.Millisecond})
	echoPid(t, r)
	spare := waitSpare(t, r)
	for end := time.Now().Add(5 * time.Second); syscall.Kill(spare, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("unused spare shell %d still running", spare)
		}
	}

	r = f.runner(Options{})
	echoPid(t, r)
	time.Sleep(100 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.spare != nil || r.filling != nil {
		t.Error("a spare started without Prestart")
	}
}

// TestSpareKilledWhileWaiting kills the spare's shell on the server: the
// next call must run once on a new session, not report the dead shell's
// signal as its own exit.
func TestSpareKilledWhileWaiting(t *testing.T) {
	f := newFixture(t, sshd.Options{User: testUser})
	r := f.runner(Options{Prestart: time.Minute})
	echoPid(t, r)
	spare := waitSpare(t, r)
	if err := syscall.Kill(spare, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the server close the channel
	if got := echoPid(t, r); got == spare {
		t.Fatalf("ran in the killed shell %d", got)
	}
}

// TestLoginShellThatTakesNoCommand gives the user nologin as its login
// shell: the call fails saying the login shell did not take the command,
// with what the shell wrote, instead of passing nologin's exit off as the
// command's.
func TestLoginShellThatTakesNoCommand(t *testing.T) {
	f := newFixture(t, sshd.Options{User: "wardennologin", Shell: "/usr/sbin/nologin"})
	_, err := f.runner(Options{}).Run(t.Context(), runner.Request{Argv: []string{"true"}})
	if !errors.Is(err, errNotTaken) || !strings.Contains(err.Error(), "not available") {
		t.Fatalf("err = %v, want the login shell not taking the command, with what nologin wrote", err)
	}
}

// TestNoisyLoginShell gives the user a bash login whose ~/.bashrc (which
// bash reads for sshd's sessions) prints to stderr, the last time without
// a newline: the call still finds the stub's reports, and the noise reaches
// stderr as it would have from a plain ssh.
func TestNoisyLoginShell(t *testing.T) {
	const user = "wardennoisy"
	f := newFixture(t, sshd.Options{User: user, Shell: "/bin/bash"})
	if f.srv.User != user {
		t.Skip("cannot create users")
	}
	out, err := exec.Command("getent", "passwd", user).Output()
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), ":")
	rc := fields[5] + "/.bashrc"
	if err := os.WriteFile(rc, []byte("echo 'bashrc noise' >&2\nprintf 'no newline' >&2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(rc) })
	res, err := f.runner(Options{KillGrace: 300 * time.Millisecond}).Run(t.Context(), runner.Request{
		Argv:    []string{"sh", "-c", "echo hi; sleep 30"},
		Env:     []string{"PATH=/usr/bin:/bin"},
		Timeout: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "hi\n" || !res.TimedOut {
		t.Errorf("result = %+v, want hi and a timeout", res)
	}
	if got := string(res.Stderr); got != "bashrc noise\nno newline" {
		t.Errorf("stderr = %q, want the bashrc's noise", got)
	}
}
