package local

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// testOptions shorten the waits so the suite runs quickly; the logic under
// test is the same at production values.
func testOptions() Options {
	return Options{ProgressEvery: 50 * time.Millisecond, KillGrace: 300 * time.Millisecond}
}

func TestConformance(t *testing.T) {
	opts := testOptions()
	runnertest.Run(t, func(*testing.T) runner.Runner { return New(opts) }, runnertest.Options{
		KillGrace:     opts.KillGrace,
		ProgressEvery: opts.ProgressEvery,
	})
}

func TestGiB(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 1 GiB")
	}
	const gib = 1 << 30
	r := New(Options{})
	var (
		res runner.Result
		err error
	)
	g := runnertest.MeasureGrowth(func() {
		res, err = r.Run(t.Context(), runner.Request{Argv: []string{"head", "-c", "1073741824", "/dev/zero"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1 GiB in %v: peak RSS growth %.2f MiB (%s), heap allocated %.2f MiB",
		res.Duration, float64(g.PeakRSS)/(1<<20), g.Method, float64(g.Allocated)/(1<<20))
	if len(res.Stdout) != 64<<10 || !res.Truncated || res.TotalBytes != gib || res.ExitCode != 0 {
		t.Errorf("kept, truncated, total, exit = %d, %v, %d, %d; want %d, true, %d, 0",
			len(res.Stdout), res.Truncated, res.TotalBytes, res.ExitCode, 64<<10, gib)
	}
	if g.PeakRSS > 32<<20 {
		t.Errorf("peak RSS grew %.1f MiB, want under 32 MiB", float64(g.PeakRSS)/(1<<20))
	}
	// Fixed read buffers: allocation must not scale with the output.
	if g.Allocated > 8<<20 {
		t.Errorf("heap allocated %.1f MiB for 1 GiB of output, want under 8 MiB", float64(g.Allocated)/(1<<20))
	}
}

func TestStartErrors(t *testing.T) {
	r := New(Options{})
	for _, tc := range []struct {
		name string
		req  runner.Request
		want string
		is   error
	}{
		{"missing program", runner.Request{Argv: []string{"nope-warden"}},
			`run: exec "nope-warden": executable file not found in $PATH`, exec.ErrNotFound},
		{"missing path", runner.Request{Argv: []string{"/nope/warden"}},
			`run: exec "/nope/warden": no such file or directory`, os.ErrNotExist},
		{"missing dir", runner.Request{Argv: []string{"/bin/sh", "-c", "pwd"}, Dir: "/nope-warden-dir"},
			`run: dir "/nope-warden-dir": no such file or directory`, os.ErrNotExist},
		{"not executable", runner.Request{Argv: []string{"/etc/passwd"}},
			`run: exec "/etc/passwd": permission denied`, os.ErrPermission},
		{"empty argv", runner.Request{}, "run: empty argv", nil},
		// PATH comes from the request, not warden: sh is not in /nonexistent.
		{"request PATH", runner.Request{Argv: []string{"sh"}, Env: []string{"PATH=/nonexistent"}},
			`run: exec "sh": executable file not found in $PATH`, exec.ErrNotFound},
		// A relative PATH entry would let the working directory supply programs.
		{"relative PATH entry", runner.Request{Argv: []string{"sh"}, Env: []string{"PATH=bin"}, Dir: "/"},
			`run: exec "sh": executable file not found in $PATH`, exec.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Run(t.Context(), tc.req)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	// With no PATH in Env, a bare name resolves in the system default.
	res, err := New(Options{}).Run(t.Context(), runner.Request{Argv: []string{"sh", "-c", "echo ok"}})
	if err != nil || string(res.Stdout) != "ok\n" {
		t.Fatalf("Run = %q, %v; want %q, nil", res.Stdout, err, "ok\n")
	}
}

func TestCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := New(Options{}).Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

// TestEscapedWriter covers a grandchild that leaves the process group
// (setsid) while holding stdout: the group kill cannot reach it, so the
// run must stop reading after Drain instead of waiting for it.
func TestEscapedWriter(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	marker := "warden-escaped-" + strings.ReplaceAll(t.Name(), "/", "-")
	t.Cleanup(func() { killGroups(markedPids(marker)) })
	r := New(Options{Drain: 50 * time.Millisecond})
	done := make(chan runner.Result, 1)
	go func() {
		// The escaped process also holds stdin open without reading it,
		// so feeding the 4 MiB must give up too. (dash gives background
		// jobs /dev/null unless stdin is redirected from another fd.)
		res, _ := r.Run(t.Context(), runner.Request{Argv: []string{"/bin/sh", "-c",
			`exec 3<&0; setsid /bin/sh -c 'echo early; sleep 1000; :' "$1" <&3 & sleep 0.2; echo main`, "sh", marker},
			Stdin: make([]byte, 4<<20)})
		done <- res
	}()
	select {
	case res := <-done:
		if got := string(res.Stdout); !strings.Contains(got, "early\n") || !strings.Contains(got, "main\n") {
			t.Errorf("stdout = %q, want both lines", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run waited for a writer outside the process group")
	}
}

// TestSweepKeepsBuffered shows that bytes already in the pipe when the
// drain deadline passes are kept, even though a writer that escaped the
// group still holds the pipe open.
func TestSweepKeepsBuffered(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	want := bytes.Repeat([]byte("x"), 60000)
	if _, err := pw.Write(want); err != nil {
		t.Fatal(err)
	}
	_ = pr.SetReadDeadline(time.Now().Add(-time.Second))
	c := runner.NewCapture(runner.CeilingMaxBytes)
	var wg sync.WaitGroup
	wg.Add(1)
	New(Options{}).drainPipe(pr, c.Stdout(), &wg)
	var res runner.Result
	c.Fill(&res)
	if !bytes.Equal(res.Stdout, want) {
		t.Errorf("kept %d bytes past the deadline, want %d", len(res.Stdout), len(want))
	}
}

// TestPdeathsig shows that the command dies with the process that started
// it: a helper copy of this test binary runs a command and is killed.
func TestPdeathsig(t *testing.T) {
	if os.Getenv("WARDEN_LOCAL_HELPER") != "" {
		_, _ = New(Options{}).Run(context.Background(), runner.Request{
			Argv: []string{"/bin/sh", "-c", "echo started; sleep 1000; :", os.Getenv("WARDEN_LOCAL_HELPER")}})
		return
	}
	marker := "warden-pdeath-" + strings.ReplaceAll(time.Now().Format("150405.000000000"), ".", "")
	var pids []int
	t.Cleanup(func() { killGroups(pids) })
	cmd := exec.Command(os.Args[0], "-test.run=^TestPdeathsig$")
	cmd.Env = append(os.Environ(), "WARDEN_LOCAL_HELPER="+marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { pids = markedPids(marker); return len(pids) > 0 }, "command to start")
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	waitFor(t, func() bool { return runnertest.LocalProcessGone(marker) }, "command to die with its parent")
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// markedPids returns the processes with marker in their command line.
func markedPids(marker string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// killGroups cleans up after a test whose subject is a process the runner
// cannot reach — or after a failure — by killing the process groups the
// test's own commands lead, so nothing is left for the next run.
func killGroups(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// BenchmarkRun measures the fast path: a short command through Runner.
// Compare with BenchmarkFloor, the same command through bare os/exec; both
// report the median single run as p50-ns besides the mean ns/op.
func BenchmarkRun(b *testing.B) {
	r := New(Options{})
	req := runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}}
	ctx := context.Background()
	benchP50(b, func() {
		res, err := r.Run(ctx, req)
		if err != nil || len(res.Stdout) != 3 {
			b.Fatalf("Run = %q, %v", res.Stdout, err)
		}
	})
}

// BenchmarkFloor is the bare os/exec cost of the command BenchmarkRun runs.
func BenchmarkFloor(b *testing.B) {
	benchP50(b, func() {
		out, err := exec.Command("/bin/sh", "-c", "echo hi").Output()
		if err != nil || len(out) != 3 {
			b.Fatalf("Output = %q, %v", out, err)
		}
	})
}

// benchP50 runs op in a benchmark loop and reports its median duration.
func benchP50(b *testing.B, op func()) {
	b.ReportAllocs()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		op()
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
}
