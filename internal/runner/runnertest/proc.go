package runnertest

import (
	"bytes"
	"os"
	"path/filepath"
)

// LocalProcessGone reports whether no process on this machine has marker
// in its command line. Zombies have an empty command line and count as
// gone: they hold no resources but a pid.
func LocalProcessGone(marker string) bool {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return false
	}
	m := []byte(marker)
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && bytes.Contains(b, m) {
			return false
		}
	}
	return true
}
