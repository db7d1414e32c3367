//go:build !linux

package session

import (
	"context"
	"errors"
)

// Start refuses: the local starter needs Linux (/proc, PR_SET_PDEATHSIG).
func (l *Local) Start(_ context.Context, _ Spec) (Process, error) {
	return nil, errors.New("local sessions need linux")
}
