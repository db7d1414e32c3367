//go:build !linux

package landlock

import (
	"errors"
	"fmt"
	"io"
)

// Available reports that Landlock exists only on Linux.
func Available(bool) error { return errors.New("landlock exists only on Linux") }

// Helper fails: Landlock exists only on Linux.
func Helper(_ []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "warden landlock: landlock exists only on Linux; nothing was run")
	return 126
}
