//go:build linux

package session

import (
	"context"
	"testing"
	"time"
)

// TestShellWithoutJobControlIsNotAtItsPrompt: with job control off the
// shell runs its programs in its own process group, which leads the
// terminal while they run; a shell whose group holds another process is
// not at its prompt.
func TestShellWithoutJobControlIsNotAtItsPrompt(t *testing.T) {
	for _, line := range []string{"set +m; sleep 30\n", "set +m; (sleep 30)\n", "set +m; sleep 30 &\n"} {
		t.Run(line, func(t *testing.T) {
			r := newTestRegistry(t, Options{})
			info, err := r.Start(context.Background(), Spec{Argv: []string{"/bin/sh"}, PTY: true, Owner: "tester"})
			if err != nil {
				t.Fatal(err)
			}
			if fg := r.ProgramReads(t.Context(), info.ID, 5*time.Second); !fg.Shell {
				t.Fatalf("the shell is not at its prompt before the line: %+v", fg)
			}
			if err := r.Send(context.Background(), info.ID, []byte(line)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			if fg := r.ProgramReads(t.Context(), info.ID, 0); fg.Shell {
				t.Errorf("a shell whose process group runs sleep is taken to be at its prompt: %+v", fg)
			}
		})
	}
}
