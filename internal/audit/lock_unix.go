//go:build unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// fileLock is an advisory lock held only around each append, so that any
// number of processes can share one log: whoever holds it reads the chain
// head from the file, writes one line and updates the head file. The kernel
// drops it when its holder dies, so a killed writer never blocks the others.
type fileLock struct{ f *os.File }

func openLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &fileLock{f: f}, nil
}

// lockWait bounds how long an append waits for the lock. Appends hold it
// for microseconds; a holder that keeps it far longer (a stopped process,
// an older warden that held it for its whole life) fails the append rather
// than hanging the call.
const lockWait = 10 * time.Second

// lock takes the lock, polling with backoff so the wait is bounded.
func (l *fileLock) lock() error {
	fd := int(l.f.Fd())
	deadline := time.Now().Add(lockWait)
	pause := 20 * time.Microsecond
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("audit: lock %s: %w", l.f.Name(), err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("audit: lock %s: held by another process for over %s (a stopped warden, or an older version that holds it while it runs)", l.f.Name(), lockWait)
		}
		time.Sleep(pause)
		pause = min(pause*2, 2*time.Millisecond)
	}
}

func (l *fileLock) unlock() { syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN) }

func (l *fileLock) close() error { return l.f.Close() }

// inode returns the file's inode number, which the head file records so a
// writer can tell whether the head describes the file it has open.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
