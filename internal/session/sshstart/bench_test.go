package sshstart

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/session"
)

// BenchmarkSendReadable is the send→readable latency of a session on a
// remote host: cat in a PTY over SSH (terminal echo off, so the answer is
// cat's), the counterpart of the local session benchmark.
func BenchmarkSendReadable(b *testing.B) {
	r := session.NewRegistry(session.Options{})
	b.Cleanup(func() { r.Shutdown(context.Background()) })
	ctx := context.Background()
	info, err := r.Start(ctx, session.Spec{
		Argv:    []string{"sh", "-c", "stty -echo; exec cat"},
		Env:     []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"},
		PTY:     true,
		Starter: starter(b, testUser),
	})
	if err != nil {
		b.Fatal(err)
	}
	o := session.ReadOptions{Wait: 5 * time.Second, Quiet: time.Nanosecond}
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
