package sshstart

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/session/sessiontest"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// testUser is a login of its own with /bin/sh as its shell, so no dotfile
// of the machine's accounts runs in tests.
const testUser = "wardentest"

func starter(t testing.TB, user string) *Starter {
	t.Helper()
	return starterWith(t, sshd.Options{User: user})
}

// starterWith starts a session starter on an sshd started with o.
func starterWith(t testing.TB, o sshd.Options) *Starter {
	t.Helper()
	s := sshd.Start(t, o)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(known, s); err != nil {
		t.Fatal(err)
	}
	p := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { p.Close() })
	return &Starter{Pool: p, KillGrace: 500 * time.Millisecond, Target: sshpool.Target{
		Name: "sshd", Host: s.Host, Port: s.Port, User: s.User,
		IdentityFiles: []string{s.UserKey.Path}, KnownHostsFiles: []string{known},
		HostKeyPolicy: sshpool.HostKeyStrict, Shell: sshpool.DefaultShell,
	}}
}

// TestConformance runs the shared session suite against a real sshd on
// loopback, whose processes this test can see in /proc.
func TestConformance(t *testing.T) {
	sessiontest.Run(t, sessiontest.Config{
		Starter:  starter(t, testUser),
		Env:      []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"},
		SameHost: true,
	})
}

func TestCommandQuotesOnce(t *testing.T) {
	got, err := command(sessionSpec([]string{"sh", "-c", "echo 'a b'; $(id)"}, "/tmp/x y", "A=1 2"), "M", false)
	if err != nil {
		t.Fatal(err)
	}
	want := "echo Mpid:$$\ncd -- '/tmp/x y' || exit 127\nexec env -i 'A=1 2' sh -c 'echo '\\''a b'\\''; $(id)'"
	if got != want {
		t.Errorf("command =\n%s\nwant\n%s", got, want)
	}
	if _, err := command(sessionSpec([]string{"A=b"}, "", ""), "M", false); err == nil {
		t.Error("a program name with '=' was accepted; env would read it as an assignment")
	}
}

func sessionSpec(argv []string, dir, env string) session.Spec {
	s := session.Spec{Argv: argv, Dir: dir}
	if env != "" {
		s.Env = []string{env}
	}
	return s
}

// A remote terminal has the special characters warden's line model
// follows, whatever the remote system's defaults.
func TestRemoteTerminalKeys(t *testing.T) {
	reg := session.NewRegistry(session.Options{})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reg.Shutdown(ctx)
	})
	info, err := reg.Start(t.Context(), session.Spec{
		Argv: []string{"stty", "-a"}, PTY: true, Starter: starter(t, testUser),
		Env: []string{"PATH=/usr/bin:/bin"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out.String(), "icrnl") {
		res, err := reg.Read(t.Context(), info.ID, session.ReadOptions{Wait: time.Second, MaxBytes: 1 << 16})
		if err != nil {
			break
		}
		out.WriteString(res.Data)
	}
	for _, want := range []string{"erase = ^?", "kill = ^U", "werase = ^W", "intr = ^C", "eof = ^D", "lnext = ^V"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stty -a lacks %q: %q", want, out.String())
		}
	}
	flags := strings.Fields(out.String())
	for _, want := range []string{"icanon", "icrnl", "isig", "iexten", "-inlcr", "-igncr"} {
		if !slices.Contains(flags, want) {
			t.Errorf("stty -a lacks %q: %q", want, out.String())
		}
	}
}

// TestStartWaitsForSessionBounded: with every session of the connection
// held by a running session, a start waits for one no longer than
// SlotWait, says why, and starts nothing.
func TestStartWaitsForSessionBounded(t *testing.T) {
	st := starter(t, testUser)
	// One session for programs, one kept for kills.
	p := sshpool.New(sshpool.Options{MaxSessions: 2})
	t.Cleanup(func() { p.Close() })
	st.Pool, st.SlotWait = p, time.Second
	env := []string{"PATH=/usr/bin:/bin"}
	first, err := st.Start(t.Context(), session.Spec{Argv: []string{"sleep", "60"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	marker := filepath.Join(t.TempDir(), "ran")
	// The call's own end comes much later: the start must end first.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	second, err := st.Start(ctx, session.Spec{Argv: []string{"touch", marker}, Env: env})
	if err == nil {
		second.Close()
		t.Fatal("a second session started with the connection's only session held")
	}
	if !strings.Contains(err.Error(), "no session on sshd freed within 1s") {
		t.Errorf("error %q does not say why", err)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refused session's program ran")
	}
}
