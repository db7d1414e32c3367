//go:build linux

package session

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

func TestSignalUnknown(t *testing.T) {
	r := newTestRegistry(t, Options{})
	id := startShell(t, r)
	if err := r.Signal(id, "SEGV"); !errors.Is(err, ErrUnknownSignal) {
		t.Errorf("Signal(SEGV) = %v, want ErrUnknownSignal", err)
	}
}

func TestKilledBySignalReported(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{Argv: []string{"sleep", "100"}, Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Signal(info.ID, "TERM"); err != nil {
		t.Fatal(err)
	}
	_, res := readToExit(t, r, info.ID, 5*time.Second)
	if res.Signal != "TERM" || res.ExitCode != nil {
		t.Errorf("result = %+v, want Signal TERM and no exit code", res)
	}
}

// TestFloodKeepsMemoryFlat has a program print 100 MiB nobody reads: the
// heap must stay near the ring's size and every byte must be accounted for,
// kept or dropped.
func TestFloodKeepsMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 100 MiB")
	}
	const total = 100 << 20
	r := newTestRegistry(t, Options{RingBytes: 1 << 20, RecordDir: t.TempDir(), MaxRecordingBytes: 4 << 20})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	start := time.Now()
	info, err := r.Start(context.Background(), Spec{
		Argv: []string{"sh", "-c", `head -c 104857600 /dev/zero | tr '\0' x`},
		Env:  testEnv(),
		PTY:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the exit without reading, so the ring overflows.
	for !r.List()[0].Exited {
		time.Sleep(50 * time.Millisecond)
		if time.Since(start) > 2*time.Minute {
			t.Fatal("flood did not finish")
		}
	}
	res, err := r.Read(context.Background(), info.ID, ReadOptions{Wait: 5 * time.Second, Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-sampled
	growth := int64(peak.Load()) - int64(before.HeapInuse)
	t.Logf("100 MiB in %v; heap in use before %d KiB, peak growth %d KiB; read %d bytes, dropped %d",
		time.Since(start).Round(time.Millisecond), before.HeapInuse>>10, growth>>10, len(res.Data), res.Dropped)
	if growth > 16<<20 {
		t.Errorf("heap grew by %d MiB while the program printed 100 MiB", growth>>20)
	}
	if got := int64(len(res.Data)) + res.Dropped; got != total {
		t.Errorf("read %d + dropped %d = %d, want %d", len(res.Data), res.Dropped, got, total)
	}
	if len(res.Data) != 1<<20 || strings.Trim(res.Data, "x") != "" {
		t.Errorf("read %d bytes (want the ring's 1 MiB of x)", len(res.Data))
	}
	if !res.Exited || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("result = exited %v code %v, want exit 0", res.Exited, res.ExitCode)
	}
}

func TestSessionLimit(t *testing.T) {
	r := newTestRegistry(t, Options{MaxSessions: 2})
	a := startShell(t, r)
	b := startShell(t, r)
	_, err := r.Start(context.Background(), Spec{Env: testEnv(), PTY: true})
	if !errors.Is(err, ErrTooManySessions) {
		t.Fatalf("third Start = %v, want ErrTooManySessions", err)
	}
	if !strings.Contains(err.Error(), "2") {
		t.Errorf("error %q does not say the limit", err)
	}
	for _, id := range []string{a, b} {
		send(t, r, id, "echo still-$((40+2))\n")
		readUntil(t, r, id, "still-42", 5*time.Second)
	}
	if n := len(r.List()); n != 2 {
		t.Errorf("%d sessions after the refusal, want 2", n)
	}

	// A session whose program exited and whose exit was read holds nothing
	// worth keeping, so it makes room; a live one never does.
	send(t, r, a, "exit 0\n")
	readToExit(t, r, a, 5*time.Second)
	// The terminal's end of file, which completes the exit, arrives
	// asynchronously.
	var c *Info
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err = r.Start(context.Background(), Spec{Env: testEnv(), PTY: true})
		if err == nil || !errors.Is(err, ErrTooManySessions) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("Start after one session was spent: %v", err)
	}
	ids := map[string]bool{}
	for _, in := range r.List() {
		ids[in.ID] = true
	}
	if !ids[b] || !ids[c.ID] || ids[a] {
		t.Errorf("sessions = %v, want %s and %s", ids, b, c.ID)
	}
}

func TestCloseKillsBackgroundGrandchildren(t *testing.T) {
	r := newTestRegistry(t, Options{RecordDir: t.TempDir()})
	id := startShell(t, r)
	m := runnertest.Marker(t)
	// One plain background job, and one that ignores HUP and TERM (as its
	// sleep inherits), so only the KILL after the grace period ends it.
	send(t, r, id, "sleep "+m+" &\n")
	send(t, r, id, "sh -c 'trap \"\" HUP TERM; sleep "+m+"; :' &\n")
	runnertest.WaitProcs(t, m, func(n int) bool { return n == 3 }, 5*time.Second)
	start := time.Now()
	ci, err := r.Close(id)
	if err != nil {
		t.Fatalf("Close: %v", err)
	}
	t.Logf("Close took %v", time.Since(start).Round(time.Millisecond))
	// Killed, they leave the process table once reaped, which on a busy
	// machine can come a moment after Close returns.
	runnertest.WaitProcs(t, m, func(n int) bool { return n == 0 }, 5*time.Second)
	if _, err := r.Read(context.Background(), id, ReadOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Read after Close = %v, want ErrNotFound", err)
	}
	if ci.Signal != "HUP" {
		t.Errorf("CloseInfo.Signal = %q, want HUP (the shell dies of it)", ci.Signal)
	}
}

func TestShutdownLeavesNoProcesses(t *testing.T) {
	r := newTestRegistry(t, Options{})
	m := runnertest.Marker(t)
	for i := range 3 {
		id := startShell(t, r)
		send(t, r, id, "sleep "+m+" & sleep "+m+"\n")
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 2*(i+1) }, 5*time.Second)
		if i == 0 {
			// Stopped jobs must die too.
			send(t, r, id, "\x1a")
			readUntil(t, r, id, "Stopped", 5*time.Second)
		}
	}
	_, err := r.Start(context.Background(), Spec{
		Argv: []string{"sh", "-c", "sleep " + m + " & sleep " + m},
		Env:  testEnv(),
	})
	if err != nil {
		t.Fatal(err)
	}
	runnertest.WaitProcs(t, m, func(n int) bool { return n >= 8 }, 5*time.Second)
	if err := r.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if pids := runnertest.Procs(m); len(pids) != 0 {
		t.Errorf("processes survived Shutdown: %v", pids)
	}
	if n := len(r.List()); n != 0 {
		t.Errorf("%d sessions after Shutdown", n)
	}
	if _, err := r.Start(context.Background(), Spec{Env: testEnv()}); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Shutdown = %v, want ErrClosed", err)
	}
}

func TestSweepReapsIdleAndOld(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	r := newTestRegistry(t, Options{Now: clock.Now, IdleTimeout: 30 * time.Minute, MaxLifetime: 8 * time.Hour})
	idle := startShell(t, r)
	busy := startShell(t, r)
	m := runnertest.Marker(t)
	send(t, r, idle, "sleep "+m+" &\n")
	runnertest.WaitProcs(t, m, func(n int) bool { return n == 1 }, 5*time.Second)

	clock.Advance(20 * time.Minute)
	if n := r.Sweep(); n != 0 {
		t.Fatalf("Sweep at 20m reaped %d", n)
	}
	if _, err := r.Read(context.Background(), busy, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(15 * time.Minute)
	if n := r.Sweep(); n != 1 {
		t.Fatalf("Sweep at 35m reaped %d, want 1", n)
	}
	if _, err := r.Read(context.Background(), idle, ReadOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("idle session still there: %v", err)
	}
	if pids := runnertest.Procs(m); len(pids) != 0 {
		t.Errorf("the idle session's processes survived: %v", pids)
	}
	l := r.List()
	if len(l) != 1 || l[0].ID != busy {
		t.Fatalf("List = %+v, want only the busy session", l)
	}
	if !l[0].LastActive.Equal(clock.Now().Add(-15 * time.Minute)) {
		t.Errorf("LastActive = %v, want the injected time of the last read", l[0].LastActive)
	}

	// Kept busy, it still ends at MaxLifetime.
	for range 15 {
		clock.Advance(29 * time.Minute)
		send(t, r, busy, "\n")
		r.Sweep()
	}
	if n := len(r.List()); n != 1 {
		t.Fatalf("busy session reaped before its lifetime")
	}
	clock.Advance(29 * time.Minute)
	if n := r.Sweep(); n != 1 {
		t.Errorf("Sweep past MaxLifetime reaped %d, want 1", n)
	}
}

func TestRunSweepsUntilShutdown(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	r := newTestRegistry(t, Options{Now: clock.Now, IdleTimeout: time.Second})
	done := make(chan struct{})
	go func() { r.Run(context.Background()); close(done) }()
	startShell(t, r)
	clock.Advance(time.Hour)
	deadline := time.Now().Add(5 * time.Second)
	for len(r.List()) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("Run never swept the idle session")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := r.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop at Shutdown")
	}
}

func TestPipesBackgroundJob(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{
		Argv: []string{"sh", "-c", `echo out; echo err >&2; read x; echo "got $x"; [ -t 0 ] || echo notty; exit 5`},
		Env:  testEnv(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if info.PTY {
		t.Error("Info.PTY = true for a pipes session")
	}
	readUntil(t, r, info.ID, "err\n", 5*time.Second)
	send(t, r, info.ID, "abc\n")
	out, res := readToExit(t, r, info.ID, 5*time.Second)
	if !strings.Contains(out, "got abc\nnotty\n") {
		t.Errorf("output %q, want got abc and notty", out)
	}
	if res.ExitCode == nil || *res.ExitCode != 5 {
		t.Errorf("exit code %v, want 5", res.ExitCode)
	}
	if err := r.Resize(info.ID, 100, 30); !errors.Is(err, ErrNoTerminal) {
		t.Errorf("Resize of a pipes session = %v, want ErrNoTerminal", err)
	}
}

func TestPipesCloseInput(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{Argv: []string{"sort"}, Env: testEnv()})
	if err != nil {
		t.Fatal(err)
	}
	send(t, r, info.ID, "b\na\n")
	if err := r.CloseInput(info.ID); err != nil {
		t.Fatal(err)
	}
	out, res := readToExit(t, r, info.ID, 5*time.Second)
	if out != "a\nb\n" || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("sort gave %q, %v; want a b and exit 0", out, res.ExitCode)
	}
}

func TestReadReturnsWhenQuiet(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{Argv: []string{"sh", "-c", "echo first; sleep 30"}, Env: testEnv(), PTY: true})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := r.Read(context.Background(), info.ID, ReadOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); res.Data != "first\n" || took > 2*time.Second {
		t.Errorf("Read = %q after %v; want first\\n soon after it arrived", res.Data, took)
	}
	// Nothing more comes: the read waits its full time and returns empty.
	start = time.Now()
	res, err = r.Read(context.Background(), info.ID, ReadOptions{Wait: 300 * time.Millisecond})
	if took := time.Since(start); err != nil || res.Data != "" || took < 300*time.Millisecond {
		t.Errorf("idle Read = %+v, %v after %v; want empty after 300ms", res, err, took)
	}
	// A cancelled context ends the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := r.Read(ctx, info.ID, ReadOptions{Wait: 10 * time.Second}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Read with an expiring context = %v", err)
	}
}

func TestReadMaxBytesAndRaw(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{
		Argv: []string{"printf", `\033[1;31mred\033[0m h\303\251llo\n`},
		Env:  testEnv(),
	})
	if err != nil {
		t.Fatal(err)
	}
	// 17 bytes cut the é in half: the half is held back, not mangled.
	res, err := r.Read(context.Background(), info.ID, ReadOptions{Wait: 5 * time.Second, MaxBytes: 17, Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[1;31mred\x1b[0m h"; res.Data != want || !res.More {
		t.Errorf("raw first read = %q more %v, want %q more", res.Data, res.More, want)
	}
	res, err = r.Read(context.Background(), info.ID, ReadOptions{Wait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Data != "éllo\n" || !res.Exited {
		t.Errorf("second read = %+v, want éllo and exited", res)
	}
}

// TestSendHonoursContext sends more than a terminal buffers to a program
// that never reads: the send must give up when its context does.
func TestSendHonoursContext(t *testing.T) {
	r := newTestRegistry(t, Options{})
	info, err := r.Start(context.Background(), Spec{Argv: []string{"sleep", "100"}, Env: testEnv(), PTY: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = r.Send(ctx, info.ID, []byte(strings.Repeat("xxxxxxx\n", 1<<17)))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Errorf("Send = %v after %v; want DeadlineExceeded soon", err, time.Since(start))
	}
}

func TestStartErrors(t *testing.T) {
	r := newTestRegistry(t, Options{RecordDir: t.TempDir()})
	_, err := r.Start(context.Background(), Spec{Argv: []string{"no-such-program-here"}, Env: testEnv()})
	if err == nil {
		t.Fatal("Start of a missing program succeeded")
	}
	if n := len(r.List()); n != 0 {
		t.Errorf("%d sessions after a failed start", n)
	}
	recs, err := ListRecordings(r.opts.RecordDir)
	if err != nil || len(recs) != 0 {
		t.Errorf("recordings after a failed start: %v %v", recs, err)
	}
	for _, op := range []func() error{
		func() error { return r.Send(context.Background(), "nope", nil) },
		func() error { return r.Resize("nope", 1, 1) },
		func() error { return r.Signal("nope", "INT") },
		func() error { _, err := r.Close("nope"); return err },
	} {
		if err := op(); !errors.Is(err, ErrNotFound) {
			t.Errorf("operation on an unknown session = %v, want ErrNotFound", err)
		}
	}
}

func TestDefaultShellFromEnv(t *testing.T) {
	r := newTestRegistry(t, Options{})
	env := append(testEnv(), "SHELL=/bin/bash")
	info, err := r.Start(context.Background(), Spec{Env: env, PTY: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Argv) != 1 || info.Argv[0] != "/bin/bash" {
		t.Errorf("Argv = %v, want the SHELL of the given env", info.Argv)
	}
	send(t, r, info.ID, "echo \"$BASH_VERSION\" | cut -c1-2 ; echo env-$TERM\n")
	readUntil(t, r, info.ID, "env-xterm-256color", 5*time.Second)
}

// TestSendAfterExit: a send to a session whose program has ended is
// refused, saying how it ended, rather than typed into a terminal or pipe
// nothing reads any more.
func TestSendAfterExit(t *testing.T) {
	r := newTestRegistry(t, Options{})
	for _, tc := range []struct {
		script, want string
		pty          bool
	}{
		{"exit 3", "with code 3", true},
		{"exit 3", "with code 3", false},
		{"kill -TERM $$", "on signal TERM", true},
	} {
		info, err := r.Start(context.Background(), Spec{Argv: []string{"sh", "-c", tc.script}, Env: testEnv(), PTY: tc.pty})
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); ; {
			res, err := r.Read(context.Background(), info.ID, ReadOptions{Wait: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Exited {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%q never exited", tc.script)
			}
		}
		err = r.Send(context.Background(), info.ID, []byte("echo hi\n"))
		if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q (pty %v): Send after exit = %v, want ErrExited %s", tc.script, tc.pty, err, tc.want)
		}
	}
}
