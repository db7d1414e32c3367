package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestAnswers: a look that returns gives its own error; one that waits
// past the bound is given up on, saying what did not answer; one whose
// context ends first reports why it ended. The abandoned looks are left
// running, as a system call on a mount that does not answer would be.
func TestAnswers(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	wait := func() error { <-stuck; return nil }

	want := errors.New("not a directory")
	if err := Answers(t.Context(), "dir", time.Minute, func() error { return want }); err != want {
		t.Errorf("a look that returned: %v, want its own error", err)
	}
	err := Answers(t.Context(), "working directory /mnt/nas", 50*time.Millisecond, wait)
	if err == nil || !strings.Contains(err.Error(), "working directory /mnt/nas did not answer within 50ms") {
		t.Errorf("a look past the bound: %v", err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cause := errors.New("client went away")
	time.AfterFunc(20*time.Millisecond, func() { cancel(cause) })
	if err := Answers(ctx, "dir", time.Minute, wait); err != cause {
		t.Errorf("a look whose call ended: %v, want the cause %v", err, cause)
	}
}
