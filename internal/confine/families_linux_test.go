package confine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// familiesProbe tries to make a socket of each family warden's rules care
// about and prints the names of those made.
const familiesProbe = `python3 -c '
import socket
fams = {"INET": 2, "INET6": 10, "NETLINK": 16, "PACKET": 17, "KEY": 15, "RDS": 21, "LLC": 26,
        "CAN": 29, "TIPC": 30, "BLUETOOTH": 31, "RXRPC": 33, "PHONET": 35, "IEEE802154": 36,
        "ALG": 38, "NFC": 39, "VSOCK": 40, "KCM": 41, "QIPCRTR": 42, "SMC": 43, "XDP": 44, "MCTP": 45}
made = []
for name, fam in fams.items():
    for kind in (1, 2, 3, 5):
        try:
            socket.socket(fam, kind, 1 if name == "BLUETOOTH" else 0).close()
            made.append(name)
            break
        except OSError:
            pass
print(" ".join(made))
'`

// testFamilies: below tier 2 a program makes sockets of the families
// reads use (familyRule) and of no other the kernel has: a virtual
// machine's socket would reach the hypervisor's agents, AF_XDP sends raw
// frames, CAN and Bluetooth act on a bus or a controller. Approved, the
// same script makes every family this kernel has, so the refusals test
// the filter and not a kernel without them.
func (f fixture) testFamilies(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	_, out := f.run(t, Full, familiesProbe)
	all := strings.Fields(out)
	if !slices.Contains(all, "INET") {
		t.Fatalf("the probe made no socket even approved: %s", out)
	}
	for _, level := range []Level{Read, Temp, Inspect} {
		_, out := f.run(t, level, familiesProbe)
		made := strings.Fields(out)
		for _, fam := range all {
			t.Run(string(level)+"/"+fam, func(t *testing.T) {
				want := slices.Contains([]string{"INET", "INET6", "NETLINK", "PACKET"}, fam)
				if got := slices.Contains(made, fam); got != want {
					t.Errorf("made a %s socket: %v, want %v (made: %s)", fam, got, want, out)
				}
			})
		}
	}
	f.testUsersock(t)
	// The refusal reads as a kernel without the family, which programs
	// handle.
	if _, out := f.run(t, Read, `python3 -c 'import socket; socket.socket(40, 1)' 2>&1`); !strings.Contains(out, "Address family not supported") {
		t.Errorf("AF_VSOCK refused without saying why: %s", out)
	}
}

// testUsersock stands in for a daemon that takes requests over
// NETLINK_USERSOCK, which the kernel lets any user send to: below tier 2
// no program reaches it, and reads keep the netlink protocols ip and ss
// use.
func (f fixture) testUsersock(t *testing.T) {
	if f.enter > 0 {
		t.Log("the daemon would be in another network namespace than the programs")
		return
	}
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_USERSOCK)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	port := sa.(*unix.SockaddrNetlink).Pid
	tv := unix.NsecToTimeval(int64(100 * time.Millisecond))
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	taken := func() bool {
		got := false
		buf := make([]byte, 256)
		for {
			n, _, err := unix.Recvfrom(fd, buf, 0)
			if err != nil {
				return got
			}
			got = got || strings.Contains(string(buf[:n]), "act!")
		}
	}
	send := fmt.Sprintf(`python3 -c '
import socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2)
s.sendto(struct.pack("=LHHLL", 20, 0x10, 0, 1, 0) + b"act!", (%d, 0))
print("sent")' 2>&1`, port)
	for _, c := range []struct {
		level Level
		reach bool
	}{{Read, false}, {Temp, false}, {Inspect, false}, {Full, true}} {
		t.Run(string(c.level)+"/usersock", func(t *testing.T) {
			taken()
			_, out := f.run(t, c.level, send)
			if got := taken(); got != c.reach {
				t.Errorf("reached a daemon over NETLINK_USERSOCK: %v, want %v: %s", got, c.reach, out)
			}
			if !c.reach && !strings.Contains(out, "Protocol not supported") {
				t.Errorf("refused without saying why: %s", out)
			}
		})
		t.Run(string(c.level)+"/route", func(t *testing.T) {
			if code, out := f.run(t, c.level, `ip -br link && ss -tan >/dev/null`); code != 0 || !strings.Contains(out, "lo") {
				t.Errorf("ip and ss failed: exit %d: %s", code, out)
			}
		})
	}
}
