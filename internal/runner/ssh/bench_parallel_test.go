package ssh

import (
	"testing"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// BenchmarkRunnerEchoParallel is RunnerEcho from eight callers at once on
// one host (SetParallelism 4 on two cores), within the nine run sessions
// the pool puts on an OpenSSH connection.
// Run with: go test ./internal/runner/ssh -run '^$' -bench Parallel -benchtime 400x
func BenchmarkRunnerEchoParallel(b *testing.B) {
	f := benchFixture(b)
	r := f.runner(Options{})
	req := runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}, Env: []string{"PATH=/usr/bin:/bin"}}
	b.SetParallelism(4) // four callers per GOMAXPROCS: eight on two cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := r.Run(b.Context(), req)
			if err != nil {
				b.Error(err)
				return
			}
			if string(res.Stdout) != "hi\n" {
				b.Errorf("stdout %q", res.Stdout)
				return
			}
		}
	})
}

// BenchmarkDropbearEchoParallel is the same on a dropbear host, which
// the pool gives one session per connection (sshpool.OneSessionPerConn):
// concurrency there is paid in connections.
func BenchmarkDropbearEchoParallel(b *testing.B) {
	srv := sshd.StartDropbear(b, sshd.DropbearOptions{User: testUser})
	pool, _, target := sshpooltest.Server(b, srv, "router")
	r := New(pool, target, Options{})
	req := runner.Request{Argv: []string{"echo", "hi"}}
	if _, err := r.Run(b.Context(), req); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := r.Run(b.Context(), req)
			if err != nil {
				b.Error(err)
				return
			}
			if string(res.Stdout) != "hi\n" {
				b.Errorf("stdout %q", res.Stdout)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(pool.Stats().Open), "conns")
}
