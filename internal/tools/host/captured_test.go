package host

import (
	"net/netip"
	"testing"
)

// TestSSCapturedAddresses checks what the golden file alone would let
// slip: every listener of the real `ss -H -tulpn` capture keeps a usable
// address, and sockets bound to a device keep it apart from the address.
// ss prints an IPv6 address bound to a device as "[fe80::10]%veth0:9000",
// brackets before the %; parseSS once left "fe80::10]" as the address.
func TestSSCapturedAddresses(t *testing.T) {
	socks := parseSS(fixture(t, "ss-listen"))
	byPort := map[int]Socket{}
	for _, s := range socks {
		if s.Address != "*" {
			if _, err := netip.ParseAddr(s.Address); err != nil {
				t.Errorf("%s port %d: address %q does not parse: %v", s.Proto, s.Port, s.Address, err)
			}
		}
		if s.Interface == "lo" || s.Address == "127.0.0.1" || s.Address == "::1" {
			t.Errorf("loopback listener kept: %+v", s)
		}
		byPort[s.Port] = s
	}
	if s := byPort[9000]; s.Address != "fe80::10" || s.Interface != "veth0" || s.Scope != "interface" {
		t.Errorf("link-local listener = %+v; want fe80::10 on veth0, scope interface", s)
	}
	if s := byPort[67]; s.Address != "0.0.0.0" || s.Interface != "veth0" || s.Scope != "interface" {
		t.Errorf("device-bound UDP listener = %+v; want 0.0.0.0 on veth0, scope interface", s)
	}
	if _, ok := byPort[53]; ok {
		t.Errorf("127.0.0.53%%lo:53 kept: %+v", byPort[53])
	}
	if s := byPort[443]; s.Scope != "all" || len(s.Processes) != 2 {
		t.Errorf("dual-stack listener = %+v; want scope all with its two owners", s)
	}
}

// TestSockstatCapturedConnected holds parseSockstat to a real FreeBSD
// sockstat listing with connected rows (the rows the lock-out guard reads
// peers from): every row is kept, a connected row keeps its peer, and a
// listening row (*:*) has none.
func TestSockstatCapturedConnected(t *testing.T) {
	rows := parseSockstat(fixture(t, "sockstat-4-zenoss"))
	if len(rows) != 35 {
		t.Fatalf("%d rows, want the capture's 35", len(rows))
	}
	connected, listening := 0, 0
	for _, r := range rows {
		if r.Foreign.IsValid() {
			connected++
		} else {
			listening++
		}
	}
	if connected != 29 || listening != 6 {
		t.Errorf("connected %d, listening %d; want 29 and 6", connected, listening)
	}
	want := netip.MustParseAddr("192.168.1.100")
	found := false
	for _, r := range rows {
		if r.PID == 25397 && r.Port == 35744 {
			found = r.Foreign == want && r.Local == "192.168.1.101" && r.Proto == "tcp4"
		}
	}
	if !found {
		t.Errorf("the row 192.168.1.101:35744 -> 192.168.1.100:3306 of pid 25397 lost its peer: %+v", rows)
	}
}
