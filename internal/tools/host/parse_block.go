package host

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
)

// parsePrefix reads an address or CIDR as the firewalls print them; a
// bare address is a host prefix.
func parsePrefix(s string) (netip.Prefix, bool) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		return p.Masked(), err == nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, false
	}
	return netip.PrefixFrom(a, a.BitLen()), true
}

// parseIpsetMembers reads `ipset list NAME`: the lines after "Members:".
func parseIpsetMembers(s string) []netip.Prefix {
	out := []netip.Prefix{}
	in := false
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "Members:" {
			in = true
			continue
		}
		if !in || t == "" {
			continue
		}
		// "203.0.113.7 timeout 30" or "… packets 0 bytes 0" with options.
		if p, ok := parsePrefix(strings.Fields(t)[0]); ok {
			out = append(out, p)
		}
	}
	return out
}

// IPSet is one ipset's header from `ipset list -t`.
type IPSet struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Entries int    `json:"entries"`
}

// parseIpsetTerse reads `ipset list -t`: Name, Type and Number of entries
// of each set.
func parseIpsetTerse(s string) []IPSet {
	out := []IPSet{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Name":
			out = append(out, IPSet{Name: v})
		case "Type":
			if len(out) > 0 {
				out[len(out)-1].Type = v
			}
		case "Number of entries":
			if n, err := strconv.Atoi(v); err == nil && len(out) > 0 {
				out[len(out)-1].Entries = n
			}
		}
	}
	return out
}

// parseIptChainSources reads `iptables -S CHAIN` for the sources of
// "-A CHAIN -s ADDR -j DROP" rules.
func parseIptChainSources(s, chain string) []netip.Prefix {
	out := []netip.Prefix{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) == 6 && f[0] == "-A" && f[1] == chain && f[2] == "-s" && f[4] == "-j" && f[5] == "DROP" {
			if p, ok := parsePrefix(f[3]); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

var pfChangeRE = regexp.MustCompile(`(?m)^(\d+)(?:/(\d+))? addresses (added|deleted)\.`)

// parsePfTableChange reads pfctl's table edit report ("1/1 addresses
// added.", "0/1 addresses deleted.", "3 addresses deleted." after a
// flush): how many changed and of how many given.
func parsePfTableChange(s, verb string) (changed, of int, ok bool) {
	for _, m := range pfChangeRE.FindAllStringSubmatch(s, -1) {
		if m[3] != verb {
			continue
		}
		changed, _ = strconv.Atoi(m[1])
		of = changed
		if m[2] != "" {
			of, _ = strconv.Atoi(m[2])
		}
		return changed, of, true
	}
	return 0, 0, false
}

// parsePfTableShow reads `pfctl -t NAME -T show`: one address or network
// per line, indented, "!" marking a negated entry. Lines that are not
// addresses (macOS's ALTQ notice) are skipped.
func parsePfTableShow(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		neg := strings.HasPrefix(t, "!")
		t = strings.TrimSpace(strings.TrimPrefix(t, "!"))
		if _, ok := parsePrefix(t); !ok {
			continue
		}
		if neg {
			t = "!" + t
		}
		out = append(out, t)
	}
	return out
}

// parsePfTables reads `pfctl -s Tables`: one table name per line.
func parsePfTables(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if pfTableRE.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// pfRulesUse reports whether `pfctl -s rules` output references <table>.
func pfRulesUse(rules, table string) bool {
	return strings.Contains(rules, "<"+table+">")
}

// SockRow is one line of FreeBSD's sockstat.
type SockRow struct {
	User    string `json:"user"`
	Command string `json:"command"`
	PID     int    `json:"pid"`
	Proto   string `json:"proto"`
	Local   string `json:"local"`
	Port    int    `json:"port"`
	// Foreign is the peer address of a connected socket.
	Foreign netip.Addr `json:"-"`
	Remote  string     `json:"remote,omitempty"`
}

// parseSockstat reads sockstat's table (USER COMMAND PID FD PROTO LOCAL
// FOREIGN). Addresses are printed "addr:port" with no brackets for IPv6,
// "*" for the wildcard; unix sockets and unparsable lines are skipped.
// A socket no process holds (a kernel service's, such as NFS's) is
// printed with "?" for user, command, PID and FD; it is kept, with PID 0.
// sockstat prints at most ten characters of the command and pads
// columns only up to fixed positions, so a long user name can run the
// command into the PID ("really-lon62928"): such a line has no PID
// column of its own and is skipped rather than misread.
func parseSockstat(s string) []SockRow {
	out := []SockRow{}
	for _, l := range strings.Split(s, "\n") {
		if r, ok := sockstatRow(l); ok {
			out = append(out, r)
		}
	}
	return out
}

// sockstatRow reads one line of sockstat's table.
func sockstatRow(l string) (SockRow, bool) {
	f := strings.Fields(l)
	if len(f) < 7 || f[0] == "USER" {
		return SockRow{}, false
	}
	proto := f[4]
	if !strings.HasPrefix(proto, "tcp") && !strings.HasPrefix(proto, "udp") {
		return SockRow{}, false
	}
	pid, err := strconv.Atoi(f[2])
	if f[2] == "?" && f[1] == "?" {
		pid, err = 0, nil
	}
	if err != nil {
		return SockRow{}, false
	}
	local, port, ok := splitHostPort(f[5])
	if !ok {
		return SockRow{}, false
	}
	r := SockRow{User: f[0], Command: f[1], PID: pid, Proto: proto, Local: local, Port: port}
	if remote, _, ok := splitHostPort(f[6]); ok && remote != "*" {
		if a, err := netip.ParseAddr(remote); err == nil {
			r.Foreign, r.Remote = a.Unmap(), f[6]
		}
	}
	return r, true
}

// splitHostPort splits sockstat's "addr:port" at the last colon.
func splitHostPort(s string) (string, int, bool) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", 0, false
	}
	host := s[:i]
	if s[i+1:] == "*" {
		return host, 0, true
	}
	port, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return "", 0, false
	}
	return host, port, true
}

var ifAddrRE = regexp.MustCompile(`\binet6?\s+(?:addr:\s*)?([0-9A-Fa-f:.]+)(?:%\S+)?`)

// parseIfAddrs reads the interface addresses of `ip -o addr show`
// ("inet 10.0.0.2/24 …"), BSD ifconfig ("inet 10.0.0.2 netmask …",
// "inet6 fe80::1%em0 prefixlen 64") and BusyBox or net-tools ifconfig
// ("inet addr:10.0.0.2  Bcast:…", "inet6 addr: fe80::1/64 Scope:Link").
func parseIfAddrs(s string) []netip.Addr {
	var out []netip.Addr
	seen := map[netip.Addr]bool{}
	for _, m := range ifAddrRE.FindAllStringSubmatch(s, -1) {
		a, err := netip.ParseAddr(strings.SplitN(m[1], "/", 2)[0])
		if err != nil || seen[a] {
			continue
		}
		seen[a] = true
		out = append(out, a.Unmap())
	}
	return out
}

// NftSet is one set of an nftables ruleset.
type NftSet struct {
	Family   string `json:"family"`
	Table    string `json:"table"`
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Elements int    `json:"elements"`
}

var (
	nftSetRE  = regexp.MustCompile(`^(?:set|map)\s+(\S+)\s*\{`)
	nftTypeRE = regexp.MustCompile(`^type\s+([^;]+?)\s*;?$`)
)

// parseNftSets reads the sets and maps of `nft list ruleset` with their
// element counts (elements are comma-separated, possibly over many lines).
func parseNftSets(s string) []NftSet {
	out := []NftSet{}
	var family, table string
	var cur *NftSet
	inElems := false
	for _, raw := range strings.Split(s, "\n") {
		l := strings.TrimSpace(raw)
		if m := nftTableRE.FindStringSubmatch(l); m != nil {
			family, table = m[1], m[2]
			continue
		}
		if cur == nil {
			if m := nftSetRE.FindStringSubmatch(l); m != nil {
				out = append(out, NftSet{Family: family, Table: table, Name: m[1]})
				cur = &out[len(out)-1]
			}
			continue
		}
		if inElems || strings.HasPrefix(l, "elements") {
			body := l
			if !inElems {
				_, body, _ = strings.Cut(l, "{")
			}
			end := strings.Contains(body, "}")
			body, _, _ = strings.Cut(body, "}")
			for _, e := range strings.Split(body, ",") {
				if strings.TrimSpace(e) != "" {
					cur.Elements++
				}
			}
			inElems = !end
			continue
		}
		if m := nftTypeRE.FindStringSubmatch(l); m != nil {
			cur.Type = m[1]
			continue
		}
		if l == "}" {
			cur = nil
		}
	}
	return out
}

// iptVariant reads `iptables -V` ("iptables v1.8.9 (nf_tables)", "(legacy)";
// releases before 1.8 print no variant and are legacy).
func iptVariant(s string) string {
	switch {
	case strings.Contains(s, "(nf_tables)"):
		return "nf_tables"
	case strings.Contains(s, "(legacy)"):
		return "legacy"
	case strings.HasPrefix(strings.TrimSpace(s), "ip"):
		return "legacy"
	}
	return Unknown
}
