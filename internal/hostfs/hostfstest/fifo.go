// Package hostfstest holds what tests of the file tools share: a FIFO
// standing in for a device whose open acts, and a FUSE mount that stops
// answering.
package hostfstest

import (
	"os"
	"syscall"
	"testing"
)

// BlockedFIFO makes a FIFO at p, readable and writable by anyone, with a
// writer blocked in its open, which any open of p for reading releases, as
// an open of /dev/watchdog would arm it. released reports whether that has
// happened; at cleanup the test opens the read end itself so the writer
// never leaks.
func BlockedFIFO(t testing.TB, p string) (released func() bool) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o666) // past the umask
	done := make(chan struct{})
	go func() {
		defer close(done)
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
	}()
	t.Cleanup(func() {
		if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			f.Close()
		}
		<-done
	})
	return func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
}
