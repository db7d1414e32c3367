package edge

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestLockoutCountsIPv6By64 holds that an IPv6 client cannot dodge the
// lockout by moving through the addresses of its /64, that the lock
// covers the whole /64 and nothing outside it, and that spoofed
// forwarding headers do not move a failure to another source.
func TestLockoutCountsIPv6By64(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := NewSources(SourceOptions{MaxFailures: 3, Window: time.Hour, Duration: time.Hour, Now: func() time.Time { return now }})
	fail := func(remote string, header ...string) bool {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = remote
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		return s.Fail(r)
	}
	attacker := []string{
		"[2001:db8:1:2::1]:1000", "[2001:db8:1:2::2]:1000", "[2001:db8:1:2:ffff:ffff:ffff:ffff]:1000",
		"[2001:db8:1:2:8000::1]:2000", "[2001:DB8:1:2::abcd]:3000", "[2001:db8:1:2::1%eth0]:4000",
	}
	locked := false
	for i, a := range attacker[:4] {
		locked = fail(a, "X-Forwarded-For", "192.0.2.1", "Forwarded", "for=192.0.2.1")
		if locked != (i == 3) {
			t.Fatalf("failure %d from %s: locked %v", i+1, a, locked)
		}
	}
	var expired []string
	for _, a := range attacker {
		if !s.lockedLocked(addrOf(a), &expired) {
			t.Errorf("%s, in the locked /64, is not locked", a)
		}
	}
	for _, a := range []string{"[2001:db8:1:3::1]:1", "[2001:db8:1:1:ffff:ffff:ffff:ffff]:1", "[::1]:1", "127.0.0.1:1", "192.0.2.1:1", "[::ffff:192.0.2.1]:1"} {
		if s.lockedLocked(addrOf(a), &expired) {
			t.Errorf("%s, outside the locked /64, is locked", a)
		}
	}
	if l := s.List(); len(l) != 1 || l[0].Addr != "2001:db8:1:2::/64" {
		t.Errorf("lockout list: %+v, want the one /64", l)
	}
	for _, spelling := range []string{"2001:db8:1:2::77", "2001:db8:1:2::/64"} {
		ok, err := s.Delete(spelling)
		if err != nil || !ok {
			t.Errorf("delete %s: %v %v", spelling, ok, err)
		}
		for _, a := range attacker[:4] {
			fail(a)
		}
	}
	// IPv4 and loopback are still counted per address.
	for range 4 {
		fail("192.0.2.10:1")
		fail("[::1]:1")
	}
	if s.lockedLocked(addrOf("192.0.2.11:1"), &expired) || s.lockedLocked(addrOf("[::2]:1"), &expired) {
		t.Error("an IPv4 or loopback lock spread to a neighbour")
	}
	if !s.lockedLocked(addrOf("192.0.2.10:9"), &expired) || !s.lockedLocked(addrOf("[::1]:9"), &expired) {
		t.Error("an IPv4 or loopback address was not locked")
	}
}
