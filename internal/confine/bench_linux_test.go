package confine

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hosts/hoststest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/nsenter"
)

// BenchmarkConfinedEcho alternates three ways of running sh -c 'echo hi',
// so that all see the same machine: the fork/exec floor (os/exec), warden's
// local runner unconfined, and the same runner confined at each level. It
// reports each median and the added cost of confinement.
func BenchmarkConfinedEcho(b *testing.B) {
	c, err := New(Options{Protect: []string{b.TempDir()}}, Required)
	if err != nil {
		b.Skipf("confinement unavailable: %v", err)
	}
	plain := local.New(local.Options{})
	confined := local.New(local.Options{Confine: c})
	run := func(r *local.Runner, ctx context.Context) time.Duration { return timeEcho(b, r, ctx) }
	for _, level := range []Level{Read, Temp, Full} {
		b.Run(string(level), func(b *testing.B) {
			ctx := With(context.Background(), Admission{Level: level})
			run(confined, ctx) // builds the level's worker
			var floor, bare, conf []time.Duration
			for b.Loop() {
				start := time.Now()
				if out, err := exec.Command("/bin/sh", "-c", "echo hi").Output(); err != nil || string(out) != "hi\n" {
					b.Fatalf("%q %v", out, err)
				}
				floor = append(floor, time.Since(start))
				bare = append(bare, run(plain, ctx))
				conf = append(conf, run(confined, ctx))
			}
			f, u, k := median(floor), median(bare), median(conf)
			b.ReportMetric(float64(f.Nanoseconds()), "floor-p50-ns")
			b.ReportMetric(float64(u.Nanoseconds()), "runner-p50-ns")
			b.ReportMetric(float64(k.Nanoseconds()), "confined-p50-ns")
			b.ReportMetric(float64(k-u)/1e3, "added-µs")
			b.ReportMetric(float64(k)/float64(f), "confined/floor")
		})
	}
}

// timeEcho runs sh -c 'echo hi' with r and returns how long it took.
func timeEcho(b *testing.B, r runner.Runner, ctx context.Context) time.Duration {
	start := time.Now()
	res, err := r.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}, Env: []string{"PATH=/usr/bin:/bin"}})
	took := time.Since(start)
	if err != nil || string(res.Stdout) != "hi\n" {
		b.Fatalf("%q %v", res.Stdout, err)
	}
	return took
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkEnteredEcho is the container shape's start (host_namespace:
// pid1): sh -c 'echo hi' in another process's namespaces, wrapped in
// nsenter as warden does where it cannot confine there, against started
// from a confined thread that joined them (a read). Root only.
func BenchmarkEnteredEcho(b *testing.B) {
	pid := hoststest.Target(b, "warden-bench-host", nil)
	c, err := New(Options{Protect: []string{b.TempDir()}, Enter: pid}, Required)
	if err != nil {
		b.Skipf("confinement unavailable: %v", err)
	}
	wrapped, err := nsenter.New(nsenter.Options{PID: pid, Inner: local.New(local.Options{})})
	if err != nil {
		b.Fatal(err)
	}
	confined := local.New(local.Options{Confine: c})
	ctx := With(context.Background(), Admission{Level: Read})
	run := func(r runner.Runner) time.Duration { return timeEcho(b, r, ctx) }
	run(confined) // builds the worker
	var floor, ns, conf []time.Duration
	for b.Loop() {
		start := time.Now()
		if out, err := exec.Command("/bin/sh", "-c", "echo hi").Output(); err != nil || string(out) != "hi\n" {
			b.Fatalf("%q %v", out, err)
		}
		floor = append(floor, time.Since(start))
		ns = append(ns, run(wrapped))
		conf = append(conf, run(confined))
	}
	f, n, k := median(floor), median(ns), median(conf)
	b.ReportMetric(float64(f.Nanoseconds()), "floor-p50-ns")
	b.ReportMetric(float64(n.Nanoseconds()), "nsenter-p50-ns")
	b.ReportMetric(float64(k.Nanoseconds()), "entered-p50-ns")
	b.ReportMetric(float64(k)/float64(f), "entered/floor")
}
