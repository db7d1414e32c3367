package policy

import (
	"net/netip"
	"strconv"
	"strings"
)

// Addresses a destination reaches that its spelling does not show: the
// IPv4 address an IPv6 transition address carries packets to, and the
// address a name resolves to whatever resolver is asked.

// embedsIn reports whether the IPv6 address a carries packets to an IPv4
// address in the IPv4 prefix pre: the deprecated IPv4-compatible form
// (::169.254.169.254), a 6to4 address (2002:a9fe:a9fe::/48, whose relay
// sends to that IPv4 host), the NAT64 local-use prefix 64:ff9b:1::/48 (as
// the well-known 64:ff9b::/96, which unmap already reads), an ISATAP
// interface identifier (::5efe:a.b.c.d), a Teredo address (its server,
// and its client's address stored inverted) and SIIT's IPv4-translated
// ::ffff:0:a.b.c.d.
func embedsIn(a netip.Addr, pre netip.Prefix) bool {
	if !a.Is6() || !pre.Addr().Is4() {
		return false
	}
	b := a.As16()
	v4 := func(i int, xor byte) bool {
		return pre.Contains(netip.AddrFrom4([4]byte{b[i] ^ xor, b[i+1] ^ xor, b[i+2] ^ xor, b[i+3] ^ xor}))
	}
	zero := func(from, to int) bool {
		for _, x := range b[from:to] {
			if x != 0 {
				return false
			}
		}
		return true
	}
	switch {
	case zero(0, 12) && b[12] != 0: // IPv4-compatible; not ::1 nor ::
		return v4(12, 0)
	case b[0] == 0x20 && b[1] == 0x02: // 6to4
		return v4(2, 0)
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0: // Teredo
		return v4(4, 0) || v4(12, 0xff)
	case b[0] == 0 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4] == 0 && b[5] == 1: // 64:ff9b:1::/48
		return v4(12, 0)
	case zero(0, 8) && b[8] == 0xff && b[9] == 0xff && b[10] == 0 && b[11] == 0: // SIIT's ::ffff:0:a.b.c.d
		return v4(12, 0)
	case (b[8] == 0 || b[8] == 2) && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe: // ISATAP
		return v4(12, 0)
	}
	return false
}

// metadataNames are the names clouds give their instance metadata
// service, 169.254.169.254, in the resolvers of their machines.
var metadataNames = set(`metadata metadata.google.internal metadata.goog instance-data instance-data.ec2.internal`)

var metadataAddr = netip.AddrFrom4([4]byte{169, 254, 169, 254})

var (
	loopback4 = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	loopback6 = netip.IPv6Loopback()
)

// loopbackName reports whether c is a name every resolver answers with
// the loopback address: localhost and its subdomains (RFC 6761, as
// systemd-resolved and the browsers answer them), the hosts file's IPv6
// names, and the public names that resolve there (localtest.me, lvh.me).
func loopbackName(c string) bool {
	switch c {
	case "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "localtest.me", "lvh.me":
		return true
	}
	return strings.HasSuffix(c, ".localhost") || strings.HasSuffix(c, ".localtest.me") || strings.HasSuffix(c, ".lvh.me")
}

// nameReaches reports whether the canonical name c reaches an address in
// pre whatever a resolver says: a cloud's metadata name, or an address
// spelled inside the name, as the wildcard DNS services (nip.io, sslip.io,
// traefik.me, 1u.ms and their like) and the clouds' own host names
// (ip-10-0-0-1.ec2.internal) answer for it. The name is read as words
// between dots and dashes: four decimal numbers in a row in any mix of
// the two separators (169.254.169.254.nip.io, app-169-254-169-254.nip.io,
// make-169.254.169.254-rr.1u.ms), a word of eight hex digits with or
// without 0x (a9fea9fe.nip.io, app-a9fea9fe.nip.io), a decimal word that
// is a whole address (2852039166.example), and sslip.io's IPv6 label with
// dashes for colons in any label (--ffff-a9fe-a9fe.sslip.io,
// www.--ffff-a9fe-a9fe.sslip.io).
func nameReaches(c string, pre netip.Prefix) bool {
	if metadataNames[c] && pre.Contains(metadataAddr) {
		return true
	}
	if loopbackName(c) && (pre.Contains(loopback4) || pre.Contains(loopback6)) {
		return true
	}
	var run [4]byte
	n := 0
	for rest := c; rest != ""; {
		i := strings.IndexAny(rest, ".-")
		w := rest
		if i >= 0 {
			w, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if v, err := strconv.ParseUint(w, 10, 8); err == nil && w != "" {
			run[0], run[1], run[2], run[3] = run[1], run[2], run[3], byte(v)
			if n++; n >= 4 && pre.Contains(netip.AddrFrom4(run)) {
				return true
			}
			continue
		}
		n = 0
		if wordAddrIn(w, pre) {
			return true
		}
	}
	for rest := c; strings.Count(rest, "-") >= 2; {
		label, more, _ := strings.Cut(rest, ".")
		if strings.Count(label, "-") >= 2 {
			if a, err := netip.ParseAddr(strings.ReplaceAll(label, "-", ":")); err == nil {
				if a = unmap(a); pre.Contains(a) || embedsIn(a, pre) {
					return true
				}
			}
		}
		rest = more
	}
	return false
}

// wordAddrIn reports whether one word of a name is a whole IPv4 address
// in pre: eight hex digits, with or without 0x, or a decimal number of
// nine or ten digits (shorter ones are ordinary labels: www1, 2024).
func wordAddrIn(w string, pre netip.Prefix) bool {
	w = strings.TrimPrefix(w, "0x")
	var v uint64
	var err error
	switch {
	case len(w) == 8:
		v, err = strconv.ParseUint(w, 16, 32)
	case len(w) == 9 || len(w) == 10:
		v, err = strconv.ParseUint(w, 10, 32)
	default:
		return false
	}
	return err == nil && pre.Contains(netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}))
}
