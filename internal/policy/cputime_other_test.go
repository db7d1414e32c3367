//go:build !unix

package policy

import "time"

// cpuTime is unknown here; benchmarks leave out their CPU figure.
func cpuTime() time.Duration { return 0 }
