package host

import (
	"net/netip"
	"testing"
)

// TestSockstatCapturedPerkeep holds parseSockstat to a real FreeBSD
// `sockstat -Ptcp` listing (perkeep's test data, testdata/README.md; TestGolden compares
// it with its golden file) that
// has what the other captures lack: the header line, tcp6 rows, sshd
// sessions with their peers (the rows the lock-out guard keeps), sockets
// no process holds ("?" columns), and lines whose long user or command
// name ran into the next column. Those last are skipped, never misread;
// everything else is kept.
func TestSockstatCapturedPerkeep(t *testing.T) {
	rows := parseSockstat(fixture(t, "sockstat-ptcp-perkeep"))

	// 31 rows: five whose columns ran together are skipped.
	if len(rows) != 26 {
		t.Fatalf("%d rows, want 26 (31 printed, 5 with columns run together)", len(rows))
	}
	var peers []netip.Addr
	tcp6, connected, noProcess := 0, 0, 0
	for _, r := range rows {
		if r.Proto == "tcp6" {
			tcp6++
		}
		if r.Foreign.IsValid() {
			connected++
		}
		if sockstatSSHD(r.Command) && r.Foreign.IsValid() {
			peers = append(peers, r.Foreign)
			if r.Local != "192.168.123.5" || r.Port != 22 {
				t.Errorf("sshd session %+v: want local 192.168.123.5:22", r)
			}
		}
		if r.PID == 0 {
			noProcess++
			if r.User != "?" || r.Command != "?" || r.Local != "*" || (r.Port != 895 && r.Port != 777) {
				t.Errorf("socket with no process read as %+v", r)
			}
		}
		// The run-together lines: "really-long-user spc in nam63210 …",
		// "really-long-user really-lon62928 …" and "camlistore
		// camlistore10941 7 tcp4 6 …" must not turn into rows.
		if r.User == "really-long-user" || r.PID == 63210 || r.PID == 62928 || r.PID == 10941 || r.PID == 7 {
			t.Errorf("a run-together line was read as a row: %+v", r)
		}
	}
	if tcp6 != 8 || connected != 9 || noProcess != 2 {
		t.Errorf("tcp6 %d, connected %d, with no process %d; want 8, 9 and 2", tcp6, connected, noProcess)
	}
	// Six sshd sessions, one of them under a user name (camlistore) one
	// character longer than sockstat's column.
	n := map[netip.Addr]int{}
	for _, a := range peers {
		n[a]++
	}
	if len(peers) != 6 || n[netip.MustParseAddr("192.168.123.21")] != 4 || n[netip.MustParseAddr("192.168.123.2")] != 2 {
		t.Errorf("sshd peers %v; want 192.168.123.21 four times and 192.168.123.2 twice", peers)
	}

	// As listeners (the diagnosis' view): loopback dropped, the kernel's
	// NFS-side sockets kept with no process named.
	var kernel []Socket
	for _, s := range sockstatListeners(rows) {
		if s.Port == 9042 {
			t.Errorf("loopback listener kept: %+v", s)
		}
		if s.Port == 895 || s.Port == 777 {
			kernel = append(kernel, s)
		}
	}
	if len(kernel) != 2 || kernel[0].Scope != "all" || len(kernel[0].Processes) != 0 {
		t.Errorf("sockets with no process as listeners: %+v; want *:895 and *:777, scope all, no process", kernel)
	}
}

// TestSockstatSSHDTruncated: sockstat prints ten characters of the
// command (the perkeep capture shows "really-lon" for
// really-only-process-name), so OpenSSH's sshd-session appears as
// "sshd-sessi"; the lock-out guard must still count its peers.
func TestSockstatSSHDTruncated(t *testing.T) {
	for c, want := range map[string]bool{"sshd": true, "sshd-session": true, "sshd-sessi": true, "sshd-sess": false, "nginx": false, "?": false} {
		if sockstatSSHD(c) != want {
			t.Errorf("sockstatSSHD(%q) = %v, want %v", c, !want, want)
		}
	}
}

// TestSockstatSSHPeersRunTogether: the lock-out guard's reading of
// sockstat. On the perkeep capture it finds the six sshd sessions' peers
// and nothing else. An sshd line whose IPv6 local address ran into the
// foreign column (a line constructed in sockstat's layout: no capture
// with such a line was found) is not dropped: every address the merged
// column can end with is protected, the real peer among them.
func TestSockstatSSHPeersRunTogether(t *testing.T) {
	peers := sockstatSSHPeers(fixture(t, "sockstat-ptcp-perkeep"))
	if len(peers) != 6 {
		t.Errorf("perkeep capture: peers %v, want the six sshd sessions'", peers)
	}
	merged := "root     sshd       4242  5  tcp6   2001:db8:1:2:3:4:5:6:222001:db8:9::21:50122\n" +
		"root     nginx      4243  6  tcp6   2001:db8:1:2:3:4:5:6:4432001:db8:9::77:50123\n"
	got := sockstatSSHPeers(merged)
	want := netip.MustParseAddr("2001:db8:9::21")
	found := false
	for _, a := range got {
		if a == want {
			found = true
		}
		if a == netip.MustParseAddr("2001:db8:9::77") {
			t.Errorf("a peer of nginx was protected as sshd's: %v", got)
		}
	}
	if !found {
		t.Errorf("run-together sshd line: peers %v, want %v among them", got, want)
	}
}

// TestSSHPeersDropbear: on a router the SSH server is dropbear, whose
// sessions the lock-out guard must keep as it keeps sshd's (a real
// `ss -Htnp state established` captured here with a dropbear session):
// dropbear's peer is kept, the ssh client's own row is not a server's.
func TestSSHPeersDropbear(t *testing.T) {
	got := sshPeers(fixture(t, "ss-established-dropbear"))
	if len(got) != 1 || got[0] != netip.MustParseAddr("127.0.0.1") {
		t.Errorf("sshPeers = %v; want dropbear's one peer, 127.0.0.1", got)
	}
	if got := sshPeers("0 0 10.0.0.2:22 192.0.2.9:50123 users:((\"sshd-session\",pid=1,fd=4))\n"); len(got) != 1 {
		t.Errorf("sshd-session peer not kept: %v", got)
	}
}
