//go:build unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockPath takes an exclusive advisory lock on path so that two writers
// never fork one chain.
func lockPath(path string) (func() error, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another process is writing this log: %w", err)
		}
		return nil, fmt.Errorf("lock: %w", err)
	}
	return f.Close, nil
}
