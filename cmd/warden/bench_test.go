package main

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// reportPercentiles adds p50/p90/p99 of the samples as benchmark metrics.
func reportPercentiles(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	at := func(q float64) float64 { return float64(samples[int(q*float64(len(samples)-1))].Nanoseconds()) }
	b.ReportMetric(at(0.50), "p50-ns")
	b.ReportMetric(at(0.90), "p90-ns")
	b.ReportMetric(at(0.99), "p99-ns")
}

// BenchmarkForkExecFloor is the physical floor for run_command("echo hi"):
// Go forking /bin/sh -c 'echo hi' and reading its output.
func BenchmarkForkExecFloor(b *testing.B) {
	samples := make([]time.Duration, 0, b.N)
	for b.Loop() {
		samples = append(samples, forkExecEcho(b))
	}
	reportPercentiles(b, samples)
}

// forkExecEcho runs the floor once and returns how long it took.
func forkExecEcho(b *testing.B) time.Duration {
	start := time.Now()
	out, err := exec.Command("/bin/sh", "-c", "echo hi").Output()
	took := time.Since(start)
	if err != nil || string(out) != "hi\n" {
		b.Fatalf("%q %v", out, err)
	}
	return took
}

// BenchmarkStdioRunCommand is the same command through warden over stdio:
// request line, relay (policy, audit append), local runner, response line.
// The line client measures warden; the SDK client adds the Go SDK client's
// own cost in the benchmark process.
func BenchmarkStdioRunCommand(b *testing.B) {
	for _, client := range []string{"line", "sdk"} {
		b.Run(client, func(b *testing.B) { benchRunCommand(b, client, "none") })
	}
}

// BenchmarkStdioRunCommandFsync is the same with the audit log fsynced per
// record, the cost of power-loss durability.
func BenchmarkStdioRunCommandFsync(b *testing.B) {
	benchRunCommand(b, "line", "always")
}

// BenchmarkStdioVsFloor alternates the two, one floor run then one
// warden call, so both see the same machine: on a small VM the floor
// alone drifts by ±20 % between runs a minute apart, and a floor measured
// in a tight loop of its own runs with every cache hot, which warden's
// child, forked between two JSON-RPC messages, never does. It reports both
// medians and their ratio.
func BenchmarkStdioVsFloor(b *testing.B) {
	for _, client := range []string{"line", "sdk"} {
		b.Run(client, func(b *testing.B) {
			call := stdioRunCommand(b, client, "none")
			floor := make([]time.Duration, 0, b.N)
			warden := make([]time.Duration, 0, b.N)
			for b.Loop() {
				floor = append(floor, forkExecEcho(b))
				start := time.Now()
				call()
				warden = append(warden, time.Since(start))
			}
			slices.Sort(floor)
			slices.Sort(warden)
			f, w := floor[len(floor)/2], warden[len(warden)/2]
			b.ReportMetric(float64(f.Nanoseconds()), "floor-p50-ns")
			b.ReportMetric(float64(w.Nanoseconds()), "warden-p50-ns")
			b.ReportMetric(float64(w)/float64(f), "p50-ratio")
		})
	}
}

func benchRunCommand(b *testing.B, client, sync string) {
	call := stdioRunCommand(b, client, sync)
	samples := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		call()
		samples = append(samples, time.Since(start))
	}
	reportPercentiles(b, samples)
}

// stdioRunCommand starts warden over stdio with the audit log's sync mode,
// connects the client ("line" or "sdk") and returns a function that makes
// one warm run_command("echo hi") call.
func stdioRunCommand(b *testing.B, client, sync string) func() {
	cfg := writeFileB(b, "audit:\n  sync: "+sync+"\n")
	cmd := exec.Command(wardenBin, "serve")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + b.TempDir(), "WARDEN_STATE_DIR=" + b.TempDir(), "WARDEN_CONFIG=" + cfg}
	args := map[string]any{"command": "echo hi"}
	var call func()
	if client == "line" {
		lc := startLine(b, cmd)
		call = func() {
			if out, err := lc.callTool("run_command", args); err != nil || out != "hi\n" {
				b.Fatalf("%q %v", out, err)
			}
		}
	} else {
		ctx := context.Background()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close() })
		params := &mcp.CallToolParams{Name: "run_command", Arguments: args}
		call = func() {
			res, err := cs.CallTool(ctx, params)
			if err != nil || res.IsError {
				b.Fatalf("%v %v", err, res)
			}
		}
	}
	for range 20 { // warm up
		call()
	}
	return call
}
