package confinetest

import (
	"net"
	"testing"
)

// Agent stands in for an ssh-agent: a Unix socket at path that answers
// every connection with reply and closes it, until the test ends.
func Agent(t testing.TB, path, reply string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			conn.Write([]byte(reply + "\n"))
			conn.Close()
		}
	}()
}
