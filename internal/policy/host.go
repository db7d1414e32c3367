package policy

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// CanonicalHost returns the canonical spelling of a host so that deny rules
// cannot be dodged by notation.
//
// IPv4 addresses are accepted in every notation inet_aton(3) accepts —
// decimal (2852039166), hex (0xa9fea9fe), octal (0251.0376.0251.0376), short
// forms (169.254.43518) and mixes of these — and come back as a dotted quad.
// IPv6 addresses come back in RFC 5952 form; IPv4-mapped (::ffff:a.b.c.d) and
// NAT64 (64:ff9b::/96) addresses come back as the IPv4 address they reach.
// Brackets, surrounding space and trailing dots are removed and names are
// lowercased. A name with characters beyond ASCII is mapped as a resolver
// given it maps it (IDNA's UTS #46 lookup mapping): fullwidth and circled
// digits and letters, the ideographic full stop and soft hyphens become
// what they stand for (①⑥⑨.②⑤④.①⑥⑨.②⑤④ is 169.254.169.254), and a
// name in any script its punycode spelling. Anything else is returned
// lowercased and trimmed.
func CanonicalHost(h string) string {
	if !isASCII(h) {
		if a, err := idna.Lookup.ToASCII(strings.TrimSpace(h)); err == nil || a != "" {
			h = a
		}
	}
	for {
		t := strings.TrimRight(strings.TrimSpace(h), ".")
		if len(t) >= 2 && t[0] == '[' && t[len(t)-1] == ']' {
			t = t[1 : len(t)-1]
		}
		if t == h {
			break
		}
		h = t
	}
	h = strings.ToLower(h)
	if a, ok := parseAddr(h); ok {
		return a.String()
	}
	return h
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// parseAddr parses h as an IP address in any notation, unmapping addresses
// that reach an IPv4 host.
func parseAddr(h string) (netip.Addr, bool) {
	if a, ok := parseInetAton(h); ok {
		return a, true
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return netip.Addr{}, false
	}
	return unmap(a), true
}

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

func unmap(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() && nat64.Contains(a.WithZone("")) {
		b := a.As16()
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	return a
}

// parseInetAton implements the classic inet_aton(3) grammar: one to four
// parts separated by dots, each decimal, octal (leading 0) or hex (0x), the
// last part filling the remaining bytes.
func parseInetAton(s string) (netip.Addr, bool) {
	if s == "" || strings.Count(s, ".") > 3 {
		return netip.Addr{}, false
	}
	parts := strings.Split(s, ".")
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, ok := parseAtonPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var out uint64
	n := len(vals)
	for i := 0; i < n-1; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false
		}
		out |= vals[i] << (8 * (3 - i))
	}
	lastBits := 8 * (4 - (n - 1))
	if vals[n-1] >= 1<<lastBits {
		return netip.Addr{}, false
	}
	out |= vals[n-1]
	return netip.AddrFrom4([4]byte{byte(out >> 24), byte(out >> 16), byte(out >> 8), byte(out)}), true
}

func parseAtonPart(p string) (uint64, bool) {
	if p == "" || len(p) > 34 {
		return 0, false
	}
	base := 10
	digits := p
	switch {
	case strings.HasPrefix(p, "0x"):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, true // "0x" alone is zero to inet_aton
		}
	case len(p) > 1 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || v > 0xffffffff {
		return 0, false
	}
	return v, true
}

// hostRule is one parsed DenyHosts entry.
type hostRule struct {
	raw    string
	prefix netip.Prefix // valid for IPs and CIDRs
	name   string       // canonical name; "*.x" style rules keep the leading dot
}

func parseHostRule(s string) (hostRule, error) {
	r := hostRule{raw: s}
	t := strings.TrimSpace(s)
	if t == "" {
		return r, fmt.Errorf("policy: deny host %q: empty", s)
	}
	if addr, bits, ok := strings.Cut(t, "/"); ok {
		a, ok := parseAddr(CanonicalHost(addr))
		if !ok {
			return r, fmt.Errorf("policy: deny host %q: not an address prefix", s)
		}
		n, err := strconv.Atoi(bits)
		raw, perr := netip.ParseAddr(strings.Trim(strings.TrimSpace(addr), "[]"))
		if perr == nil && raw.Is4In6() && a.Is4() && err == nil {
			n -= 96 // ::ffff:a.b.c.d/104 is the same as a.b.c.d/8
		}
		if err != nil || n < 0 || n > a.BitLen() {
			return r, fmt.Errorf("policy: deny host %q: bad prefix length", s)
		}
		r.prefix = netip.PrefixFrom(a.WithZone(""), n).Masked()
		return r, nil
	}
	c := CanonicalHost(t)
	if a, ok := parseAddr(c); ok {
		r.prefix = netip.PrefixFrom(a.WithZone(""), a.BitLen())
		return r, nil
	}
	if strings.HasPrefix(c, "*.") {
		c = c[1:]
	}
	if strings.ContainsAny(c, " \t\r\n/@") {
		return r, fmt.Errorf("policy: deny host %q: not a host name, address or CIDR", s)
	}
	r.name = c
	return r, nil
}

// match reports whether the canonical host c falls under the rule. An
// IPv6 address is also read for the IPv4 address it carries to (see
// embedsIn), and a name for the addresses it resolves to without asking
// anyone (see nameReaches).
func (r hostRule) match(c string) bool {
	if r.prefix.IsValid() {
		if a, ok := parseAddr(c); ok {
			return r.prefix.Contains(a.WithZone("")) || embedsIn(a, r.prefix)
		}
		return nameReaches(c, r.prefix)
	}
	if strings.HasPrefix(r.name, ".") {
		return strings.HasSuffix(c, r.name) || c == r.name[1:]
	}
	return c == r.name
}

// hostKey strips what can surround a host in a destination — user@, :port,
// brackets, a URL's scheme and path — and canonicalises what is left.
func hostKey(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "/?#"); j >= 0 {
			s = s[:j]
		}
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "[") {
		if j := strings.Index(s, "]"); j > 0 {
			return CanonicalHost(s[1:j])
		}
	}
	if strings.Count(s, ":") == 1 {
		s, _, _ = strings.Cut(s, ":") // host:port or scp's host:path
	}
	if i := strings.Index(s, "%"); i >= 0 && !strings.Contains(s, ":") {
		s = s[:i]
	}
	return CanonicalHost(s)
}

// hostDenied returns the rule that denies host h, a word that may name a
// host, if any.
func (p *Policy) hostDenied(h string) (string, bool) {
	return p.hostDeniedAs(h, false)
}

// destDenied is hostDenied for a word in a place only a host can be
// (ssh's destination, /dev/tcp/HOST/, a client's -h): there a bare "0"
// is the unspecified address too, as inet_aton reads it.
func (p *Policy) destDenied(h string) (string, bool) {
	return p.hostDeniedAs(h, true)
}

func (p *Policy) hostDeniedAs(h string, dest bool) (string, bool) {
	if len(p.denyHosts) == 0 || h == "" {
		return "", false
	}
	k := hostKey(h)
	if r, ok := p.ruleFor(k); ok {
		return r, true
	}
	if (k == "0.0.0.0" || k == "::") && (dest || strings.ContainsAny(urlAuthority(h), ".:")) {
		// A connection to the unspecified address reaches this host's
		// loopback (curl 0.0.0.0:8080, [::]:8080, ssh 0); a bare "0"
		// anywhere else is more often a count than a host.
		if r, ok := p.ruleFor("127.0.0.1"); ok {
			return r, true
		}
		if r, ok := p.ruleFor("::1"); ok {
			return r, true
		}
	}
	return p.altHostDenied(h)
}

// ruleFor returns the rule that denies the canonical host c, if any.
func (p *Policy) ruleFor(c string) (string, bool) {
	for _, r := range p.denyHosts {
		if r.match(c) {
			return r.raw, true
		}
	}
	return "", false
}

// validHost reports whether h may be used as a host argument: no leading dash
// (ssh would read it as an option) and no characters outside a host spelling.
func validHost(h string) bool {
	if h == "" || h[0] == '-' || len(h) > 512 {
		return false
	}
	for _, c := range h {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune(".-_:[]%@", c):
		default:
			return false
		}
	}
	return true
}
