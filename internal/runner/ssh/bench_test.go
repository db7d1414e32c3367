package ssh

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
)

// Benchmarks of one remote "echo hi", all against the same loopback sshd
// as a user whose login shell is /bin/sh:
//
//	RunnerEcho          this runner through the pool, one session per call
//	RunnerEchoPrestart  the same with spares (what run_command pays)
//	BareSession         a bare pooled x/crypto session — the floor
//	FreshSSH            a new ssh process and connection per call
//	ControlMaster       an ssh process per call multiplexed over a master
//
// Run with: go test ./internal/runner/ssh -run '^$' -bench . -benchtime 200x

// timed runs op b.N times and reports the median latency.
func timed(b *testing.B, op func() error) {
	b.Helper()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	}
}

func benchFixture(b *testing.B) *fixture {
	b.Helper()
	f := newFixture(b, sshd.Options{User: testUser})
	// Connect before timing.
	if _, err := f.pool.Client(b.Context(), f.target); err != nil {
		b.Fatal(err)
	}
	return f
}

func BenchmarkRunnerEcho(b *testing.B) { benchRunnerEcho(b, Options{}) }

// BenchmarkRunnerEchoPrestart is RunnerEcho with spares: each call runs
// on the session the one before it started.
func BenchmarkRunnerEchoPrestart(b *testing.B) { benchRunnerEcho(b, Options{Prestart: time.Minute}) }

func benchRunnerEcho(b *testing.B, opts Options) {
	f := benchFixture(b)
	r := f.runner(opts)
	req := runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}, Env: []string{"PATH=/usr/bin:/bin"}}
	timed(b, func() error {
		res, err := r.Run(b.Context(), req)
		if err == nil && string(res.Stdout) != "hi\n" {
			b.Fatalf("stdout %q", res.Stdout)
		}
		return err
	})
}

func BenchmarkBareSession(b *testing.B) {
	f := benchFixture(b)
	c, err := f.pool.Client(b.Context(), f.target)
	if err != nil {
		b.Fatal(err)
	}
	timed(b, func() error {
		s, err := c.NewSession()
		if err != nil {
			return err
		}
		defer s.Close()
		out, err := s.Output("echo hi")
		if err == nil && string(out) != "hi\n" {
			b.Fatalf("stdout %q", out)
		}
		return err
	})
}

// sshArgs are the ssh(1) options that make a call non-interactive and
// independent of the machine's own ssh config.
func sshArgs(f *fixture) []string {
	return []string{
		"-F", "/dev/null",
		"-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes",
		"-o", "UserKnownHostsFile=" + f.target.KnownHostsFiles[0],
		"-o", "IdentitiesOnly=yes",
		"-i", f.target.IdentityFiles[0],
		"-p", strconv.Itoa(f.target.Port),
		"-l", f.target.User,
	}
}

func sshEcho(b *testing.B, args []string) error {
	out, err := exec.Command("ssh", args...).CombinedOutput()
	if err == nil && string(out) != "hi\n" {
		b.Fatalf("ssh output %q", out)
	}
	if err != nil {
		b.Logf("ssh: %s", out)
	}
	return err
}

func BenchmarkFreshSSH(b *testing.B) {
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("ssh not installed (openssh-client)")
	}
	f := benchFixture(b)
	args := append(sshArgs(f), "--", f.target.Host, "echo hi")
	timed(b, func() error { return sshEcho(b, args) })
}

func BenchmarkControlMaster(b *testing.B) {
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("ssh not installed (openssh-client)")
	}
	f := benchFixture(b)
	ctl := filepath.Join(b.TempDir(), "ctl")
	base := append(sshArgs(f), "-o", "ControlPath="+ctl)
	master := exec.Command("ssh", append(base, "-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", "--", f.target.Host)...)
	if err := master.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = exec.Command("ssh", append(base, "-O", "exit", "--", f.target.Host)...).Run()
		_ = master.Process.Kill()
		_ = master.Wait()
	})
	check := append(base, "-O", "check", "--", f.target.Host)
	for end := time.Now().Add(10 * time.Second); exec.Command("ssh", check...).Run() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("ControlMaster did not come up")
		}
	}
	args := append(base, "-o", "ControlMaster=no", "--", f.target.Host, "echo hi")
	timed(b, func() error { return sshEcho(b, args) })
}
