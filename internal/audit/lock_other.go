//go:build !unix

package audit

import "os"

// fileLock is a no-op where flock is unavailable: there, only one process
// may write a log at a time.
type fileLock struct{}

func openLock(string) (*fileLock, error) { return &fileLock{}, nil }
func (*fileLock) lock() error            { return nil }
func (*fileLock) unlock()                {}
func (*fileLock) close() error           { return nil }

func inode(os.FileInfo) uint64 { return 0 }
