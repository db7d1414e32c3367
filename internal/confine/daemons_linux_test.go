package confine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/confine/confinetest"
)

// testDaemons stands in for a daemon that acts on whatever a client that
// connects asks (dockerd, systemd): a socket named by a path that counts
// the connections it takes. Below tier 2 a program reaches it only when
// its admission says it asks daemons (the classifier's Daemons); every
// other way of making a Unix socket is refused too, and socketpair stays.
func (f fixture) testDaemons(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	path := filepath.Join(filepath.Dir(f.state), "daemon.sock")
	taken := confinetest.Daemon(t, path)
	// Each way a client makes its socket: a stream (dockerd, systemd's
	// private socket, a database), a datagram (syslog's /dev/log, wpa_cli)
	// and a sequenced packet socket.
	clients := map[string]string{
		"stream":    `s=socket.socket(socket.AF_UNIX); s.connect(P); print(s.recv(16).decode().strip())`,
		"datagram":  `s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); print("made")`,
		"seqpacket": `s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); print("made")`,
	}
	for _, c := range []struct {
		a     Admission
		reach bool
	}{
		{Admission{Level: Read}, false},
		{Admission{Level: Temp}, false},
		{Admission{Level: Read, Daemons: true}, true},
		{Admission{Level: Temp, Daemons: true}, true},
		{Admission{Level: Inspect}, true},
		{Admission{Level: Full}, true},
	} {
		for kind, code := range clients {
			t.Run(fmt.Sprintf("%s daemons=%v %s", c.a.Level, c.a.Daemons, kind), func(t *testing.T) {
				before := taken.Load()
				py := `import socket; P="` + path + `"; ` + code
				_, out := f.runAs(t, c.a, "python3 -c '"+py+"' 2>&1")
				acted := strings.Contains(out, "acted") || strings.Contains(out, "made")
				if kind == "stream" && acted != (taken.Load() > before) {
					t.Errorf("the client says %q, the daemon took %d connections", out, taken.Load()-before)
				}
				if acted != c.reach {
					t.Errorf("reached a daemon's socket: %v, want %v: %s", acted, c.reach, out)
				}
				if !c.reach && !strings.Contains(out, "Permission denied") {
					t.Errorf("refused without saying why: %s", out)
				}
			})
		}
	}
	// socketpair reaches no one else: reads keep it (a program talking to
	// its own helper).
	_, out := f.run(t, Read, `python3 -c 'import socket; a,b=socket.socketpair(); a.send(b"pair"); print(b.recv(4).decode())'`)
	if !strings.Contains(out, "pair") {
		t.Errorf("socketpair refused to a read: %s", out)
	}
}
