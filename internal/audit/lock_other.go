//go:build !unix

package audit

// lockPath is a no-op where flock is unavailable.
func lockPath(string) (func() error, error) { return func() error { return nil }, nil }
