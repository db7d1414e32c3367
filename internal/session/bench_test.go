//go:build linux

package session

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// benchSendReadable measures the time from Send to the program's answer
// being readable through Read.
func benchSendReadable(b *testing.B, spec Spec) {
	r := newTestRegistry(b, Options{})
	spec.Env = testEnv()
	info, err := r.Start(context.Background(), spec)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	// Quiet of 1ns returns as soon as anything has arrived.
	o := ReadOptions{Wait: 5 * time.Second, Quiet: time.Nanosecond}
	for b.Loop() {
		if err := r.Send(ctx, info.ID, []byte("ping\n")); err != nil {
			b.Fatal(err)
		}
		var got string
		for !strings.Contains(got, "ping\n") {
			res, err := r.Read(ctx, info.ID, o)
			if err != nil || res.Exited {
				b.Fatalf("Read: %v %+v", err, res)
			}
			got += res.Data
		}
	}
}

// BenchmarkSendReadable is the local send→readable latency: cat in a PTY
// (terminal echo off, so the answer is cat's) and cat on pipes.
func BenchmarkSendReadable(b *testing.B) {
	b.Run("pty", func(b *testing.B) {
		benchSendReadable(b, Spec{Argv: []string{"sh", "-c", "stty -echo; exec cat"}, PTY: true})
	})
	b.Run("pipes", func(b *testing.B) {
		benchSendReadable(b, Spec{Argv: []string{"cat"}})
	})
	b.Run("shell", func(b *testing.B) {
		// A shell's round trip, fork and exec of echo included.
		benchSendReadable(b, Spec{Argv: []string{"sh", "-c", "stty -echo; while read l; do /bin/echo \"$l\"; done"}, PTY: true})
	})
}

// BenchmarkIdleSession reports what an idle PTY shell session costs warden:
// heap and goroutine stacks per session (the shell's own memory is not
// warden's).
func BenchmarkIdleSession(b *testing.B) {
	const n = 16
	for b.Loop() {
		r := newTestRegistry(b, Options{MaxSessions: n, RecordDir: b.TempDir()})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g0 := runtime.NumGoroutine()
		for range n {
			id := startShell(b, r)
			send(b, r, id, "echo ready\n")
			readUntil(b, r, id, "ready", 5*time.Second)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := float64(after.HeapInuse) - float64(before.HeapInuse)
		stack := float64(after.StackInuse) - float64(before.StackInuse)
		b.ReportMetric(heap/n, "heap-B/session")
		b.ReportMetric(stack/n, "stack-B/session")
		b.ReportMetric(float64(runtime.NumGoroutine()-g0)/n, "goroutines/session")
		if err := r.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
