package relay

import (
	"errors"
	"fmt"
)

// refusal is a plan step's refusal on grounds the tool itself knows, such
// as a lock-out guard: the call is denied, not malformed.
type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }

// Refuse returns an error a PlanFunc returns to deny a call: the agent sees
// status denied and the audit record says denied, as for a policy refusal.
func Refuse(format string, args ...any) error {
	return &refusal{msg: fmt.Sprintf(format, args...)}
}

// refused reports whether err is a Refuse error.
func refused(err error) bool {
	var r *refusal
	return errors.As(err, &r)
}
