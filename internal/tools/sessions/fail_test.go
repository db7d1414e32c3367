package sessions

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
)

// TestFailSaysWhatToDo: the registry's errors reach the agent with the
// status it can act on, and a send to an ended session says where its
// output still is.
func TestFailSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		err    error
		status relay.Status
		want   string
	}{
		{fmt.Errorf("send to session x: %w with code 3: nothing was typed", session.ErrExited), relay.StatusInvalid, "code 3: nothing was typed; session_read shows its last output"},
		{fmt.Errorf("send to session x: %w", session.ErrNotFound), relay.StatusInvalid, "no such session"},
		{session.ErrTooManySessions, relay.StatusDenied, "close a session first"},
		{errors.New("write /dev/ptmx: input/output error"), relay.StatusError, "input/output error"},
	} {
		got := fail(tc.err)
		if got.Status != tc.status || !strings.Contains(got.Reason, tc.want) {
			t.Errorf("fail(%v) = %s %q, want %s with %q", tc.err, got.Status, got.Reason, tc.status, tc.want)
		}
	}
}
