package confine

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
)

// testPorts: below tier 2 a program cannot take a port a service may
// listen on next and answer its clients in its place: no TCP port of its
// choosing (Landlock), no UDP port of its choosing (bindFor), no
// privileged port at all (CAP_NET_BIND_SERVICE, which a DNS or NTP port
// over UDP needs). A port the kernel picks stays:
// a client that binds before it connects, a program listening for its own
// helper.
func (f fixture) testPorts(t *testing.T) {
	free := func(t *testing.T, network string, from, to int) int {
		for p := from; p < to; p++ {
			if network == "tcp" {
				if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p)); err == nil {
					l.Close()
					return p
				}
			} else if c, err := net.ListenPacket("udp", fmt.Sprintf("127.0.0.1:%d", p)); err == nil {
				c.Close()
				return p
			}
		}
		t.Fatalf("no free %s port in [%d, %d)", network, from, to)
		return 0
	}
	bind := func(kind string, port int) string {
		return fmt.Sprintf(`python3 -c '
import socket
s = socket.socket(type=socket.SOCK_%s)
s.bind(("127.0.0.1", %d))
if s.type == socket.SOCK_STREAM:
    s.listen()
print("bound", s.getsockname()[1])' 2>&1`, kind, port)
	}
	// Each run takes a port free just before it, above the kernel's
	// range for outgoing connections: a port found free once may be a
	// connection's by the time the approved control binds it.
	const low, high = 61000, 65535
	from := low + os.Getpid()%(high-low-1000)
	type probe struct {
		name   string
		script func(t *testing.T) string
	}
	probes := []probe{}
	if f.c.abi >= 4 {
		probes = append(probes, probe{"tcp chosen", func(t *testing.T) string { return bind("STREAM", free(t, "tcp", from, high)) }})
	}
	if f.c.binds {
		// UDP, which Landlock does not rule: WireGuard's or OpenVPN's
		// port taken before the service restarts. Over IPv6 too, and
		// with the socket swapped for another under the same
		// descriptor while the bind is held (what bindFor checks is
		// what it binds).
		probes = append(probes, probe{"udp chosen", func(t *testing.T) string { return bind("DGRAM", free(t, "udp", from, high)) }},
			probe{"udp6 chosen", func(t *testing.T) string {
				return strings.Replace(strings.Replace(bind("DGRAM", free(t, "udp", from, high)), "socket(type=", "socket(socket.AF_INET6, type=", 1), `"127.0.0.1"`, `"::1"`, 1)
			}},
			probe{"udp swapped", func(t *testing.T) string {
				return fmt.Sprintf(`python3 -c '
import os, socket, threading
u = socket.socket(type=socket.SOCK_DGRAM)
def swap():
    for _ in range(20000):
        s = socket.socket(type=socket.SOCK_DGRAM); os.dup2(s.fileno(), u.fileno()); s.close()
threading.Thread(target=swap, daemon=True).start()
for _ in range(2000):
    try:
        u.bind(("127.0.0.1", %d)); print("bound", u.getsockname()[1]); break
    except OSError:
        pass' 2>&1`, free(t, "udp", from, high))
			}})
	}
	if os.Geteuid() == 0 {
		probes = append(probes, probe{"udp privileged", func(t *testing.T) string { return bind("DGRAM", free(t, "udp", 900, 1024)) }},
			probe{"tcp privileged", func(t *testing.T) string { return bind("STREAM", free(t, "tcp", 900, 1024)) }})
	}
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for _, p := range probes {
			t.Run(string(level)+"/"+p.name, func(t *testing.T) {
				_, out := f.run(t, level, p.script(t))
				if bound := strings.Contains(out, "bound"); bound != (level == Full) {
					t.Errorf("bound: %v, want %v: %s", bound, level == Full, out)
				}
			})
		}
		t.Run(string(level)+"/kernel's port", func(t *testing.T) {
			if _, out := f.run(t, level, bind("STREAM", 0)+"; "+bind("DGRAM", 0)); strings.Count(out, "bound") != 2 {
				t.Errorf("a port the kernel picks was refused: %s", out)
			}
		})
		t.Run(string(level)+"/kernel's port from a thread", func(t *testing.T) {
			// The held call names the thread that made it (dig binds
			// from libuv's threads), whose process warden binds for.
			script := `python3 -c '
import socket, threading
def bind():
    s = socket.socket(type=socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print("bound", s.getsockname()[1])
t = threading.Thread(target=bind); t.start(); t.join()' 2>&1`
			if _, out := f.run(t, level, script); !strings.Contains(out, "bound") {
				t.Errorf("a thread's bind to a port the kernel picks was refused: %s", out)
			}
		})
		t.Run(string(level)+"/other binds", func(t *testing.T) {
			// What warden binds for a program below tier 2 it binds as
			// asked: a netlink socket (ip, ss), an abstract Unix name,
			// and as root a packet socket on an interface (tcpdump -i).
			script := `python3 -c '
import os, socket
n = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); n.bind((0, 0)); print("netlink")
u = socket.socket(socket.AF_UNIX); u.bind("\0warden-confine-bind-%d" % os.getpid()); print("abstract", u.getsockname()[1:])
if os.geteuid() == 0:
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW).bind(("lo", 0)); print("packet")
else:
    print("packet")' 2>&1`
			_, out := f.runAs(t, Admission{Level: level, Daemons: true}, script)
			for _, want := range []string{"netlink", "abstract b'warden-confine-bind-", "packet"} {
				if !strings.Contains(out, want) {
					t.Errorf("%s: %s not bound: %s", level, want, out)
				}
			}
		})
	}
}
