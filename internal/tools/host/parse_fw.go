package host

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
)

// Chain is one firewall chain with its rules in order.
type Chain struct {
	Table  string `json:"table,omitempty"`
	Family string `json:"family,omitempty"`
	Name   string `json:"name"`
	// Hook is input, forward, output … for base chains; empty otherwise.
	Hook   string `json:"hook,omitempty"`
	Policy string `json:"policy,omitempty"`
	Rules  []Rule `json:"rules"`
}

// Rule is one rule as the backend prints it, with its verdict pulled out.
type Rule struct {
	Text    string `json:"text"`
	Verdict string `json:"verdict,omitempty"`
	Handle  string `json:"handle,omitempty"`
}

var (
	nftTableRE = regexp.MustCompile(`^table\s+(\S+)\s+(\S+)\s*\{`)
	nftChainRE = regexp.MustCompile(`^chain\s+(\S+)\s*\{`)
	nftHookRE  = regexp.MustCompile(`^type\s+\S+\s+hook\s+(\S+)(?:\s+device\s+\S+)?\s+priority\s+[^;]+;\s*(?:policy\s+(\w+);)?`)
	handleRE   = regexp.MustCompile(`\s*#\s*handle\s+(\d+)\s*$`)
)

// parseNftRuleset reads `nft -a list ruleset` text into chains. Sets, maps
// and other blocks are skipped.
func parseNftRuleset(s string) []Chain {
	var out []Chain
	var table, family string
	var cur *Chain
	skip := 0 // depth inside a block that is not a chain
	for _, raw := range strings.Split(s, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if skip > 0 {
			skip += strings.Count(l, "{") - strings.Count(l, "}")
			continue
		}
		if m := nftTableRE.FindStringSubmatch(l); m != nil {
			family, table = m[1], m[2]
			continue
		}
		if m := nftChainRE.FindStringSubmatch(l); m != nil && cur == nil {
			out = append(out, Chain{Table: table, Family: family, Name: m[1], Rules: []Rule{}})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			if strings.HasSuffix(l, "{") || strings.Contains(l, "{ #") {
				skip = strings.Count(l, "{") - strings.Count(l, "}")
			}
			continue
		}
		if l == "}" {
			cur = nil
			continue
		}
		if m := nftHookRE.FindStringSubmatch(l); m != nil {
			cur.Hook, cur.Policy = m[1], m[2]
			if cur.Policy == "" {
				cur.Policy = "accept"
			}
			continue
		}
		r := Rule{Text: l}
		if m := handleRE.FindStringSubmatch(l); m != nil {
			r.Handle = m[1]
			r.Text = strings.TrimSpace(l[:len(l)-len(m[0])])
		}
		r.Verdict = nftVerdict(r.Text)
		cur.Rules = append(cur.Rules, r)
	}
	return out
}

// nftVerdict returns the statement that decides a packet's fate.
func nftVerdict(rule string) string {
	f := strings.Fields(rule)
	for i, w := range f {
		switch w {
		case "accept", "drop", "reject", "return", "queue":
			return w
		case "jump", "goto":
			if i+1 < len(f) {
				return w + " " + f[i+1]
			}
		}
	}
	return ""
}

// parseIptablesS reads `iptables -S`: "-P CHAIN POLICY" and "-A CHAIN …".
func parseIptablesS(s string) []Chain {
	var out []Chain
	idx := map[string]int{}
	get := func(name string) *Chain {
		if i, ok := idx[name]; ok {
			return &out[i]
		}
		out = append(out, Chain{Table: "filter", Name: name, Rules: []Rule{}})
		idx[name] = len(out) - 1
		return &out[len(out)-1]
	}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "-P":
			c := get(f[1])
			if len(f) > 2 {
				c.Policy = strings.ToLower(f[2])
			}
			c.Hook = strings.ToLower(f[1])
		case "-N":
			get(f[1])
		case "-A":
			c := get(f[1])
			r := Rule{Text: strings.Join(f[2:], " ")}
			for i := 2; i+1 < len(f); i++ {
				if f[i] == "-j" || f[i] == "-g" {
					v := strings.ToLower(f[i+1])
					switch v {
					case "accept", "drop", "reject", "return":
						r.Verdict = v
					default:
						r.Verdict = "jump " + f[i+1]
					}
				}
			}
			c.Rules = append(c.Rules, r)
		}
	}
	return out
}

// parseUfwStatus reads `ufw status verbose`: whether it is active, its
// default policies and its rules.
func parseUfwStatus(s string) (active string, chains []Chain) {
	active = Unknown
	in := Chain{Table: "ufw", Name: "rules", Rules: []Rule{}}
	rules := false
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Status:"):
			active = strings.TrimSpace(strings.TrimPrefix(t, "Status:"))
		case strings.HasPrefix(t, "Default:"):
			// "Default: deny (incoming), allow (outgoing), disabled (routed)"
			for _, part := range strings.Split(strings.TrimPrefix(t, "Default:"), ",") {
				if strings.Contains(part, "(incoming)") {
					in.Policy = strings.Fields(part)[0]
					in.Hook = "input"
				}
			}
		case strings.HasPrefix(t, "--"):
			rules = true
		case rules && t != "":
			r := Rule{Text: strings.Join(strings.Fields(t), " ")}
			for _, v := range []string{"ALLOW", "DENY", "REJECT", "LIMIT"} {
				if strings.Contains(t, " "+v) {
					r.Verdict = strings.ToLower(v)
					break
				}
			}
			in.Rules = append(in.Rules, r)
		}
	}
	return active, []Chain{in}
}

// parsePfInfo reads `pfctl -s info`'s first line: "Status: Enabled for …".
func parsePfInfo(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "Status:"); ok {
			f := strings.Fields(t)
			if len(f) > 0 {
				switch strings.ToLower(f[0]) {
				case "enabled":
					return "active"
				case "disabled":
					return "inactive"
				}
			}
		}
	}
	return Unknown
}

// parsePfRules reads `pfctl -s rules`: one rule per line, pass or block.
func parsePfRules(s string) []Chain {
	c := Chain{Table: "pf", Name: "rules", Rules: []Rule{}}
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "No ALTQ") {
			continue
		}
		r := Rule{Text: t}
		switch f := strings.Fields(t); f[0] {
		case "pass":
			r.Verdict = "accept"
		case "block":
			r.Verdict = "drop"
			if len(f) > 1 && strings.HasPrefix(f[1], "return") { // return, return-rst, return-icmp, return-icmp6
				r.Verdict = "reject"
			}
		default:
			r.Verdict = f[0]
		}
		c.Rules = append(c.Rules, r)
	}
	return []Chain{c}
}

// Verdicts of the exposure check.
const (
	FWAllowed     = "allowed"
	FWBlocked     = "blocked"
	FWConditional = "conditional"
)

// Reach is what the firewall does to new inbound connections to a port.
type Reach struct {
	Backend string `json:"backend"`
	// Verdict is allowed, blocked, conditional (a rule with source,
	// interface or other conditions decides) or unknown.
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// portIn reports whether a dport expression ("22", "{ 22, 80 }",
// "1000-2000", "22,80") includes port.
func portIn(expr string, port int) bool {
	expr = strings.NewReplacer("{", " ", "}", " ", ",", " ").Replace(expr)
	for _, w := range strings.Fields(expr) {
		lo, hi, isRange := strings.Cut(w, "-")
		if !isRange {
			hi = lo
		}
		if isRange && strings.Contains(w, ":") {
			continue
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 == nil && err2 == nil && a <= port && port <= b {
			return true
		}
	}
	return false
}

var (
	nftDportRE = regexp.MustCompile(`\b(tcp|udp|th|sctp)\s+dport\s+(\{[^}]*\}|\S+)`)
	iptDportRE = regexp.MustCompile(`--dports?\s+(\S+)`)
	iptProtoRE = regexp.MustCompile(`-p\s+(\S+)`)
	nftL4RE    = regexp.MustCompile(`\b(?:meta l4proto|ip protocol|ip6 nexthdr)\s+(\{[^}]*\}|\S+)`)
	nftNoiseRE = regexp.MustCompile(`\bct state \S+|\bcounter( packets \d+ bytes \d+)?|\blog( prefix "[^"]*")?|\bmeta l4proto \S+|\bcomment "[^"]*"`)
)

// benignCond are words that do not restrict which new connections match.
var benignCond = map[string]bool{"counter": true, "packets": true, "bytes": true, "log": true, "accept": true, "drop": true, "reject": true, "-m": true, "-j": true, "ACCEPT": true, "DROP": true, "REJECT": true}

// evalChains decides what the input chains do to a new connection to
// proto/port: the first rule that matches decides, an unmatched chain's
// policy decides, and every base input chain must let it through.
func evalChains(backend string, chains []Chain, proto string, port int) Reach {
	res := Reach{Backend: backend, Verdict: FWAllowed, Reason: "no input filter chain"}
	seen := false
	for _, c := range chains {
		if c.Hook != "input" {
			continue
		}
		seen = true
		r := evalChain(backend, c, proto, port)
		switch {
		case r.Verdict == FWBlocked:
			return r
		case r.Verdict == FWConditional && res.Verdict != FWConditional:
			res = r
		case res.Verdict == FWAllowed && (res.Reason == "no input filter chain" || r.Verdict != FWAllowed):
			res = r
		}
	}
	if !seen {
		res.Reason = "no " + backend + " input chain filters traffic"
	}
	return res
}

func evalChain(backend string, c Chain, proto string, port int) Reach {
	for _, r := range c.Rules {
		text := r.Text
		low := strings.ReplaceAll(strings.ToLower(text), `"`, "")
		// Established traffic and loopback say nothing about new inbound
		// connections from the network.
		if strings.Contains(low, "established") && !strings.Contains(low, "new") || strings.Contains(low, "iif lo") ||
			strings.Contains(low, "iifname lo") || strings.Contains(low, "-i lo") {
			continue
		}
		if r.Verdict == "" || r.Verdict == "return" {
			continue
		}
		var ports, p string
		if backend == "nftables" {
			if m := nftDportRE.FindStringSubmatch(text); m != nil {
				p, ports = m[1], m[2]
			}
			// "meta l4proto icmp accept" says nothing about TCP or UDP.
			if m := nftL4RE.FindStringSubmatch(text); m != nil && !l4Has(m[1], proto) {
				continue
			}
		} else {
			if m := iptDportRE.FindStringSubmatch(text); m != nil {
				ports = m[1]
			}
			if m := iptProtoRE.FindStringSubmatch(text); m != nil {
				p = m[1]
			}
		}
		if ports != "" && !portIn(ports, port) {
			continue
		}
		if p != "" && p != "th" && p != proto {
			continue
		}
		if ports == "" && p != "" && p != proto {
			continue
		}
		if strings.HasPrefix(r.Verdict, "jump") || strings.HasPrefix(r.Verdict, "goto") {
			return Reach{Backend: backend, Verdict: FWConditional, Rule: text, Reason: "chain " + c.Name + " hands the packet to another chain"}
		}
		if conditional(backend, text) {
			return Reach{Backend: backend, Verdict: FWConditional, Rule: text, Reason: "a rule with further conditions decides"}
		}
		v := FWAllowed
		if r.Verdict == "drop" || r.Verdict == "reject" {
			v = FWBlocked
		}
		return Reach{Backend: backend, Verdict: v, Rule: text}
	}
	v := FWAllowed
	if c.Policy == "drop" || c.Policy == "reject" {
		v = FWBlocked
	}
	return Reach{Backend: backend, Verdict: v, Reason: "policy " + c.Policy + " of chain " + c.Name}
}

// l4Has reports whether an nftables protocol expression ("icmp", "tcp",
// "{ tcp, udp }", "!= tcp") includes proto.
func l4Has(expr, proto string) bool {
	if strings.HasPrefix(expr, "!=") {
		return true // a negation is left to the rule's other words
	}
	for _, w := range strings.Fields(strings.NewReplacer("{", " ", "}", " ", ",", " ").Replace(expr)) {
		if w == proto {
			return true
		}
	}
	return false
}

// conditional reports whether a rule matches on more than protocol and port.
func conditional(backend, text string) bool {
	if backend == "nftables" {
		t := nftDportRE.ReplaceAllString(text, "")
		t = nftNoiseRE.ReplaceAllString(t, "")
		for _, w := range strings.Fields(t) {
			if !benignCond[w] {
				return true
			}
		}
		return false
	}
	f := strings.Fields(text)
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "-s", "-i", "--src-range", "--source", "--in-interface", "-m", "--match-set", "--uid-owner":
			if f[i] == "-m" && i+1 < len(f) && (f[i+1] == "tcp" || f[i+1] == "udp" || f[i+1] == "multiport" || f[i+1] == "comment" || f[i+1] == "conntrack" || f[i+1] == "state") {
				i++
				continue
			}
			return true
		}
	}
	return false
}

// Socket is one listening socket.
type Socket struct {
	Proto   string `json:"proto"`
	Address string `json:"address"`
	Port    int    `json:"port"`
	// Scope is all (a wildcard address), address or interface.
	Scope     string   `json:"scope"`
	Interface string   `json:"interface,omitempty"`
	Processes []string `json:"processes,omitempty"`
	Firewall  *Reach   `json:"firewall,omitempty"`
}

var ssProcRE = regexp.MustCompile(`\("([^"]*)",pid=(\d+)`)

// parseSS reads `ss -H -tulpn`, dropping sockets bound to loopback.
func parseSS(s string) []Socket {
	out := []Socket{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 6 {
			continue
		}
		proto := f[0]
		if proto != "tcp" && proto != "udp" {
			continue
		}
		local := f[4]
		i := strings.LastIndex(local, ":")
		if i < 0 {
			continue
		}
		port, err := strconv.Atoi(local[i+1:])
		if err != nil {
			continue
		}
		// ss prints a socket bound to a device as ADDR%DEV:PORT, the
		// brackets of an IPv6 address before the %: "[fe80::10]%veth0:9000",
		// "0.0.0.0%veth0:67", "127.0.0.53%lo:53".
		host, zone, zoned := strings.Cut(local[:i], "%")
		addr := strings.Trim(host, "[]")
		sk := Socket{Proto: proto, Address: addr, Port: port, Scope: "address"}
		if zoned {
			sk.Interface, sk.Scope = strings.TrimSuffix(zone, "]"), "interface"
		}
		switch addr {
		case "*", "0.0.0.0", "::":
			if sk.Scope != "interface" {
				sk.Scope = "all"
			}
		default:
			ip, err := netip.ParseAddr(addr)
			if err != nil || ip.Unmap().IsLoopback() {
				continue
			}
		}
		if sk.Interface == "lo" {
			continue
		}
		for _, m := range ssProcRE.FindAllStringSubmatch(strings.Join(f[6:], " "), -1) {
			sk.Processes = append(sk.Processes, m[1]+"/"+m[2])
		}
		out = append(out, sk)
	}
	return out
}

// sshPeers reads `ss -Htnp state established` and returns the peer
// addresses of connections held by sshd, sshd-session or dropbear.
func sshPeers(s string) []netip.Addr {
	var out []netip.Addr
	for _, l := range strings.Split(s, "\n") {
		// OpenSSH's sshd (and its per-session sshd-session, which the
		// prefix covers), and dropbear, the SSH server of routers.
		if !strings.Contains(l, `(("sshd`) && !strings.Contains(l, `(("dropbear"`) {
			continue
		}
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		if ap, err := netip.ParseAddrPort(f[3]); err == nil {
			out = append(out, ap.Addr().Unmap())
		}
	}
	return out
}

// sshConnection reads SSH_CONNECTION ("client port server port") or
// SSH_CLIENT ("client port port") lines.
func sshConnection(s string) []netip.Addr {
	var out []netip.Addr
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 {
			if a, err := netip.ParseAddr(f[0]); err == nil {
				out = append(out, a.Unmap())
			}
		}
	}
	return out
}
