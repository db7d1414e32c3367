//go:build linux

package session_test

import (
	"testing"

	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/session/sessiontest"
)

// TestLocalConformance runs the Starter suite against the local starter.
func TestLocalConformance(t *testing.T) {
	sessiontest.Run(t, sessiontest.Config{
		Starter:  &session.Local{},
		Env:      []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "LANG=C.UTF-8"},
		SameHost: true,
	})
}
