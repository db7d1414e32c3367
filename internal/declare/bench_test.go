package declare

import (
	"os"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/bwrap"
	"github.com/warden-mcp/warden/internal/runner/docker"
	"github.com/warden-mcp/warden/internal/runner/firejail"
	"github.com/warden-mcp/warden/internal/runner/landlock"
	"github.com/warden-mcp/warden/internal/runner/local"
)

// BenchmarkRunners measures `echo hi` through each runner available here,
// reporting the median; the overhead of a sandbox is its median minus
// exec's. Landlock needs a helper binary: set WARDEN_BENCH_HELPER to a
// built warden. Docker uses DOCKER_HOST and warden-test/busybox:local.
//
//	go test -run '^$' -bench BenchmarkRunners -benchtime 50x ./internal/declare
func BenchmarkRunners(b *testing.B) {
	base := local.New(local.Options{})
	argv := []string{"/bin/sh", "-c", "echo hi"}
	env := []string{"PATH=/usr/bin:/bin"}
	cases := map[string]func() (runner.Runner, error){
		"exec": func() (runner.Runner, error) { return base, nil },
		"bubblewrap": func() (runner.Runner, error) {
			p, err := exec.LookPath("bwrap")
			if err != nil {
				return nil, err
			}
			return bwrap.New(base, p, bwrap.Options{})
		},
		"firejail": func() (runner.Runner, error) {
			p, err := exec.LookPath("firejail")
			if err != nil {
				return nil, err
			}
			return firejail.New(base, p, firejail.Options{})
		},
		"landlock": func() (runner.Runner, error) {
			h := os.Getenv("WARDEN_BENCH_HELPER")
			if h == "" {
				return nil, os.ErrNotExist
			}
			return landlock.New(base, []string{h}, landlock.Options{})
		},
		"docker": func() (runner.Runner, error) {
			p, err := exec.LookPath("docker")
			if err != nil {
				return nil, err
			}
			return docker.New(base, p, os.Getenv("DOCKER_HOST"), docker.Options{Image: "warden-test/busybox:local"})
		},
	}
	for _, name := range []string{"exec", "bubblewrap", "firejail", "landlock", "docker"} {
		b.Run(name, func(b *testing.B) {
			r, err := cases[name]()
			if err != nil {
				b.Skipf("%s unavailable: %v", name, err)
			}
			var ds []time.Duration
			for b.Loop() {
				start := time.Now()
				res, err := r.Run(b.Context(), runner.Request{Argv: argv, Env: env})
				if err != nil || string(res.Stdout) != "hi\n" {
					b.Fatalf("run: %v, %q %q", err, res.Stdout, res.Stderr)
				}
				ds = append(ds, time.Since(start))
			}
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms-p50")
		})
	}
}
