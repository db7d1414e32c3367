//go:build !linux

package confine

import (
	"context"
	"errors"
	"runtime"
)

// Confiner reports that nothing confines programs outside Linux; with
// Auto they run as they are, as the operator was warned.
type Confiner struct{ status Status }

// New returns a Confiner that confines nothing, or an error with Required.
func New(_ Options, req Requirement) (*Confiner, error) {
	st := Status{Mechanism: "none: confinement needs Linux (this is " + runtime.GOOS + ")"}
	if req == Required {
		return nil, errors.New("confinement is required but unavailable: " + st.Mechanism)
	}
	return &Confiner{status: st}, nil
}

// Status reports that nothing holds.
func (c *Confiner) Status() Status { return c.status }

// Start runs start unconfined.
func (c *Confiner) Start(_ context.Context, start func() error) (func(), error) {
	return func() {}, start()
}

// Rebuild does nothing: there are no rules to build here.
func (c *Confiner) Rebuild() {}

// HideProcess does nothing outside Linux.
func HideProcess() error { return nil }

// HostPaths finds nothing outside Linux, where warden enters no other
// process's namespaces.
func HostPaths(int, []string) ([]string, error) { return nil, nil }
