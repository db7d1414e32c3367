package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestCopyFileStallEnds: a copy_file whose other end stops answering in
// the middle of the transfer (here the SSH server, stopped with SIGSTOP,
// as a NAS or a link that goes away) ends once no byte has moved for
// exec.default_timeout, saying so, instead of hanging; when the server
// answers again the abandoned copy is not committed, and the next copy
// works.
func TestCopyFileStallEnds(t *testing.T) {
	t.Parallel()
	key := sshd.NewKey(t)
	srv := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	t.Cleanup(srv.Resume) // before the server's own stop
	s := nasWarden(t, srv, key, "2s", "")

	src := filepath.Join(t.TempDir(), "big")
	data := make([]byte, 48<<20)
	rand.Read(data)
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := userDir(t)
	// Each try pauses the server as soon as the copy's temporary file
	// appears; a copy that finished before that was not the case wanted.
	for try := range 3 {
		dst := filepath.Join(dir, fmt.Sprintf("out%d", try))
		type result struct {
			res *mcp.CallToolResult
			err error
			at  time.Duration
		}
		done := make(chan result, 1)
		start := time.Now()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "copy_file", Arguments: map[string]any{"from": src, "to": "nas:" + dst}})
			done <- result{res, err, time.Since(start)}
		}()
		paused := false
		var r result
	wait:
		for {
			select {
			case r = <-done:
				break wait
			default:
			}
			if !paused && tempOf(dir, filepath.Base(dst)) != "" {
				srv.Pause()
				paused = true
			}
			time.Sleep(time.Millisecond)
		}
		if r.err != nil {
			t.Fatalf("copy_file: protocol error %v", r.err)
		}
		got := structured(t, r.res)
		if !paused {
			t.Logf("try %d: the copy ended before the server was paused: %v", try, got)
			os.Remove(dst)
			continue
		}
		t.Logf("copy with the server paused mid-transfer ended after %s: %v", r.at.Round(time.Millisecond), got)
		if got["status"] == "ok" || !strings.Contains(fmt.Sprint(got["reason"]), "no byte moved for 2s (exec.default_timeout)") {
			t.Errorf("a copy whose server stopped answering: %v, want an error saying no byte moved for 2s", got)
		}
		srv.Resume()
		// The abandoned copy fails at its next read: its temporary file
		// is removed, and the destination never appears.
		deadline := time.Now().Add(30 * time.Second)
		for tempOf(dir, filepath.Base(dst)) != "" && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if tmp := tempOf(dir, filepath.Base(dst)); tmp != "" {
			t.Errorf("the abandoned copy's temporary file %s is still there 30s after the server answered", tmp)
		}
		if _, err := os.Stat(dst); err == nil {
			t.Errorf("the abandoned copy was committed to %s", dst)
		}
		small := filepath.Join(t.TempDir(), "small")
		os.WriteFile(small, []byte("after\n"), 0o644)
		if _, got := callTool(t, s.cs, "copy_file", map[string]any{"from": small, "to": "nas:" + dst + "-next"}); got["status"] != "ok" {
			t.Errorf("a copy after the server answered again: %v", got)
		}
		if b, _ := os.ReadFile(dst + "-next"); string(b) != "after\n" {
			t.Errorf("the next copy wrote %q", b)
		}
		return
	}
	t.Fatal("every copy ended before the server could be paused")
}

// tempOf names the temporary file a write to name in dir is made in, or
// "" when there is none.
func tempOf(dir, name string) string {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "."+name+".warden-") {
			return e.Name()
		}
	}
	return ""
}
