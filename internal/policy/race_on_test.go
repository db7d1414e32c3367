//go:build race

package policy

import "testing"

const raceEnabled = true

// classifyOnly: see race_off_test.go.
func classifyOnly(t *testing.T) {
	t.Helper()
	t.Skip("classifies only: scripts/test runs it without -race")
}
