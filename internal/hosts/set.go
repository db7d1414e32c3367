package hosts

import (
	"context"
	"errors"
	"fmt"

	"github.com/warden-mcp/warden/internal/policy"
)

// A Provider resolves the names of one kind of host.
type Provider interface {
	// Resolve returns the host name names, or ok false when name is not
	// one of this provider's. It must not dial: connecting happens once
	// the call is admitted.
	Resolve(ctx context.Context, name string) (h *Host, ok bool, err error)
	// Close releases what the provider holds (connections).
	Close() error
}

// Set resolves host names through its providers, asked in order; it is the
// one Resolver every tool group receives.
type Set struct {
	providers []Provider
}

// New returns a Set of providers, asked in the order given.
func New(providers ...Provider) *Set { return &Set{providers: providers} }

// Resolve returns the host a call names, in time independent of the
// inventory's size, or an error naming the host.
func (s *Set) Resolve(ctx context.Context, name string) (*Host, error) {
	for _, p := range s.providers {
		h, ok, err := p.Resolve(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("host %q: %w (see hosts_list)", name, err)
		}
		if ok {
			return h, nil
		}
	}
	return nil, fmt.Errorf("host %q: not in the inventory (see hosts_list)", name)
}

// Mode is a host's own policy mode, which narrows the global one; none for
// a name that does not resolve (the call fails on it anyway).
func (s *Set) Mode(name string) policy.Mode {
	h, err := s.Resolve(context.Background(), name)
	if err != nil {
		return ""
	}
	return h.Mode
}

// Root reports whether commands on a host run as root; false for a name
// that does not resolve, which no call runs on.
func (s *Set) Root(name string) bool {
	h, err := s.Resolve(context.Background(), name)
	return err == nil && h.Root
}

// Shell is the shell that runs a host's commands, or "" for a name that
// does not resolve.
func (s *Set) Shell(name string) string {
	h, err := s.Resolve(context.Background(), name)
	if err != nil {
		return ""
	}
	return h.Shell
}

// Addrs returns the addresses of a host for host deny rules: none for this
// machine or a name that does not resolve.
func (s *Set) Addrs(name string) []string {
	h, err := s.Resolve(context.Background(), name)
	if err != nil {
		return nil
	}
	return h.Addrs
}

// FilesTransport is how a host's files are reached, or "".
func (s *Set) FilesTransport(name string) string {
	h, err := s.Resolve(context.Background(), name)
	if err != nil {
		return ""
	}
	return h.FilesTransport()
}

// Close closes every provider.
func (s *Set) Close() error {
	var errs []error
	for _, p := range s.providers {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}
