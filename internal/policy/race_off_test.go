//go:build !race

package policy

import "testing"

const raceEnabled = false

// classifyOnly marks a test that only classifies, one input after
// another: the race detector has no goroutines of its to watch and slows
// it tenfold, so it skips under -race, and scripts/test runs it without.
func classifyOnly(*testing.T) {}
