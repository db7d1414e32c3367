package session

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"
)

// stalledRecording is a recorder whose file is a pipe nobody reads, as a
// file on a share that stopped answering: writes past the pipe's buffer
// wait until the returned drain starts reading it.
func stalledRecording(t *testing.T, wait time.Duration) (*recorder, func() []byte) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close(); pw.Close() })
	header := []byte("{\"version\":2}\n")
	r := &recorder{log: slog.New(slog.DiscardHandler), name: "stalled.cast", begin: time.Now(), wait: wait, max: 64 << 20, size: int64(len(header))}
	r.file.start(r.log, pw, header)
	got := make(chan []byte, 1)
	drain := func() []byte {
		go func() {
			b, _ := io.ReadAll(pr)
			got <- append(header, b...)
		}()
		select {
		case b := <-got:
			return b
		case <-time.After(60 * time.Second):
			t.Fatal("the recording's file was never finished")
			return nil
		}
	}
	return r, drain
}

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s waited on a recording's file that does not answer", what)
	}
}

// TestRecordingNeverWaitsOnItsFile: a session's output and sends are
// recorded without waiting on the file; past maxQueued bytes held for a
// file that does not answer, events are dropped, and once it answers a
// marker says how many bytes were lost, where, and the recording is
// marked incomplete. An end that finds the file not answering says so
// within its wait, and the file is finished when it answers.
func TestRecordingNeverWaitsOnItsFile(t *testing.T) {
	r, drain := stalledRecording(t, 300*time.Millisecond)
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	within(t, 30*time.Second, "output", func() {
		for range 3 * maxQueued / len(chunk) {
			r.output(chunk)
		}
		r.input([]byte("echo typed while stalled\r"))
	})
	var res recordingResult
	var err error
	within(t, 30*time.Second, "close", func() { res, err = r.close() })
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Errorf("close with the file not answering: %v; want it to say so", err)
	}
	if res.sha256 != "" {
		t.Errorf("a digest of a file not yet finished: %s", res.sha256)
	}
	file := string(drain())
	if !strings.Contains(file, `"m", "warden: `) || !strings.Contains(file, "bytes of events were lost here") {
		t.Errorf("no marker of the lost events in the finished file (%d bytes)", len(file))
	}
	if n := strings.Count(file, "x"); n < maxQueued/2 || n > 2*maxQueued+64<<10 {
		t.Errorf("%d bytes of output recorded; want what the queue, the write under way and the pipe held", n)
	}
	if !res.truncated {
		t.Error("a recording that lost events is not marked incomplete")
	}
}

// TestRecordingCatchesUp: events held while the file did not answer are
// written, in order, once it answers; nothing is lost under the bound,
// and the end reports the file's digest.
func TestRecordingCatchesUp(t *testing.T) {
	r, drain := stalledRecording(t, 30*time.Second)
	within(t, 30*time.Second, "output", func() {
		for i := range 200 {
			r.output([]byte(strings.Repeat("y", 1000) + "\r\n"))
			if i == 100 {
				r.input([]byte("middle\r"))
			}
		}
	})
	got := make(chan []byte, 1)
	go func() { got <- drain() }()
	res, err := r.close()
	if err != nil {
		t.Fatal(err)
	}
	file := string(<-got)
	if n := strings.Count(file, strings.Repeat("y", 1000)); n != 200 || strings.Contains(file, "lost here") || res.truncated {
		t.Errorf("%d of 200 events recorded, truncated %v", n, res.truncated)
	}
	if i := strings.Index(file, "middle"); i < 0 || strings.Count(file[:i], strings.Repeat("y", 1000)) != 101 {
		t.Error("the input is not where it was typed")
	}
	if res.sha256 == "" || res.size != int64(len(file)) {
		t.Errorf("size %d digest %q; the file has %d bytes", res.size, res.sha256, len(file))
	}
}
