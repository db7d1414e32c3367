package confinetest

import (
	"net"
	"sync/atomic"
	"testing"
)

// Daemon stands in for a daemon that acts on whatever a client that
// connects asks (dockerd, systemd): a Unix socket at path ("@name" for an
// abstract one) that answers every connection with "acted" and closes it,
// until the test ends. It returns the number of connections taken.
func Daemon(t testing.TB, path string) *atomic.Int64 {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var taken atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			taken.Add(1)
			c.Write([]byte("acted\n"))
			c.Close()
		}
	}()
	return &taken
}
