package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/relay"
)

// BlockArgs are firewall_block's and firewall_unblock's arguments.
type BlockArgs struct {
	Address string `json:"address" jsonschema:"An IPv4 or IPv6 address, or a CIDR like 203.0.113.0/24."`
	Host    string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	// Backend picks the firewall when a host has more than one; empty
	// detects it (nftables, else iptables, else pf).
	Backend string `json:"backend,omitempty" jsonschema:"nftables, iptables or pf; default: detected on the host (nftables first)."`
	// Override skips the lock-out guard (management sources and the
	// current SSH clients); loopback, unspecified and the host's own
	// addresses are never allowed.
	Override bool `json:"override,omitempty" jsonschema:"Block even a management source or a current SSH client (firewall_block only)."`
}

// BlockResult is the result of a block or unblock.
type BlockResult struct {
	Address string `json:"address" jsonschema:"The canonical prefix acted on."`
	// Backend is nftables, iptables+ipset, iptables or pf.
	Backend string `json:"backend"`
	// Variant is iptables' kernel interface: nf_tables or legacy.
	Variant string `json:"variant,omitempty"`
	Table   string `json:"table"`
	Set     string `json:"set,omitempty"`
	// Changed is false when the address was already (un)blocked.
	Changed bool `json:"changed"`
	// Enforced says whether a rule drops traffic from the list; under PF
	// the rule is the operator's (pf.conf must reference the table).
	Enforced bool   `json:"enforced"`
	Note     string `json:"note,omitempty"`
	// Guarded lists the sources the lock-out guard checked against.
	Guarded []string `json:"guarded,omitempty"`
}

// ParseBlockAddress parses and canonicalises an address or CIDR for the
// block set. Only the plain dotted-quad and RFC 4291 spellings are taken
// (not 2852039166 or 0xa9fea9fe), zones are refused, host bits must be
// clear, and loopback, unspecified and multicast are refused outright.
// Prefixes wider than /8 (IPv4) or /32 (IPv6) need override.
func ParseBlockAddress(s string, override bool) (netip.Prefix, error) {
	if s == "" || len(s) > 64 || strings.TrimSpace(s) != s {
		return netip.Prefix{}, fmt.Errorf("address %q is not an IP address or CIDR", s)
	}
	var p netip.Prefix
	if strings.Contains(s, "/") {
		q, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("address %q: %v", s, err)
		}
		if q.Masked() != q {
			return netip.Prefix{}, fmt.Errorf("address %q has host bits set; did you mean %s?", s, q.Masked())
		}
		p = q
	} else {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("address %q: %v", s, err)
		}
		if a.Zone() != "" {
			return netip.Prefix{}, fmt.Errorf("address %q has a zone; give the plain address", s)
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	if p.Addr().Is4In6() {
		a := p.Addr().Unmap()
		bits := p.Bits() - 96
		if bits < 0 {
			return netip.Prefix{}, fmt.Errorf("address %q: an IPv4-mapped prefix shorter than /96 covers non-mapped space", s)
		}
		p = netip.PrefixFrom(a, bits)
	}
	a := p.Addr()
	switch {
	case a.IsUnspecified() || p.Bits() == 0:
		return netip.Prefix{}, fmt.Errorf("refusing to block %s: it covers every address", p)
	case a.IsLoopback() || p.Contains(netip.MustParseAddr("127.0.0.1")) || p.Contains(netip.IPv6Loopback()):
		return netip.Prefix{}, fmt.Errorf("refusing to block %s: it covers loopback", p)
	case a.IsMulticast():
		return netip.Prefix{}, fmt.Errorf("refusing to block %s: it is multicast", p)
	case !override && a.Is4() && p.Bits() < 8, !override && a.Is6() && p.Bits() < 32:
		return netip.Prefix{}, fmt.Errorf("refusing to block %s: wider than /8 (IPv4) or /32 (IPv6); pass override=true if you mean it", p)
	}
	return p, nil
}

// LockoutConflict returns the first protected source p overlaps.
func LockoutConflict(p netip.Prefix, protected []netip.Prefix) (netip.Prefix, bool) {
	for _, q := range protected {
		if p.Overlaps(q) {
			return q, true
		}
	}
	return netip.Prefix{}, false
}

var (
	sshEnvArgv     = []string{"printenv", "SSH_CONNECTION", "SSH_CLIENT"}
	sshPeersArgv   = []string{"ss", "-Htnp", "state", "established"}
	bsdPeersArgv   = []string{"sockstat", "-4", "-6", "-c", "-P", "tcp"}
	ownAddrArgv    = []string{"ip", "-o", "addr", "show"}
	bsdOwnAddrArgv = []string{"ifconfig", "-a"}
	blockDetect    = []string{"nft", "iptables", "ip6tables", "ipset", "pfctl"}
	// guardArgv are the lock-out guard's read-only probes, run at planning
	// time and listed in the plan with the rest.
	guardArgv = [][]string{detectArgv(blockDetect...), {"iptables", "-V"}, {"ip6tables", "-V"}, ownAddrArgv, bsdOwnAddrArgv, sshEnvArgv, sshPeersArgv, bsdPeersArgv}
)

// sshSources asks the target who is connected to it over SSH: the
// runner's own session (SSH_CONNECTION, for SSH targets) and every
// established connection held by sshd (ss on Linux, sockstat on the BSDs).
// All are read-only probes.
func (d *Deps) sshSources(ctx context.Context, t *hosts.Host, bsd bool) []netip.Prefix {
	var out []netip.Prefix
	if o := d.exec(ctx, t, sshEnvArgv, 1); o.ok() {
		for _, a := range sshConnection(o.stdout) {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	var peers []netip.Addr
	if bsd {
		if o := d.exec(ctx, t, bsdPeersArgv); o.ok() {
			peers = sockstatSSHPeers(o.stdout)
		}
	} else if o := d.exec(ctx, t, sshPeersArgv); o.ok() {
		peers = sshPeers(o.stdout)
	}
	for _, a := range peers {
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out
}

// sockstatSSHPeers returns the peers of sshd's connections in a sockstat
// listing. A line whose address columns ran together (an IPv6 local
// address longer than its column) cannot be split for sure; for an sshd
// line every address it could end with is kept, since protecting one
// address too many costs nothing and missing the operator's locks them out.
func sockstatSSHPeers(s string) []netip.Addr {
	var peers []netip.Addr
	for _, l := range strings.Split(s, "\n") {
		if r, ok := sockstatRow(l); ok {
			if sockstatSSHD(r.Command) && r.Foreign.IsValid() {
				peers = append(peers, r.Foreign)
			}
			continue
		}
		f := strings.Fields(l)
		if len(f) < 2 || !sockstatSSHD(f[1]) {
			continue
		}
		for _, tok := range f[2:] {
			peers = append(peers, runTogetherPeers(tok)...)
		}
	}
	return peers
}

// runTogetherPeers returns every address a token could end with if it is
// two "addr:port" columns printed without a blank between them.
func runTogetherPeers(tok string) []netip.Addr {
	var out []netip.Addr
	for i := 1; i < len(tok); i++ {
		if _, _, ok := splitHostPort(tok[:i]); !ok {
			continue
		}
		host, _, ok := splitHostPort(tok[i:])
		if !ok {
			continue
		}
		if a, err := netip.ParseAddr(host); err == nil {
			out = append(out, a.Unmap())
		}
	}
	return out
}

// sockstatSSHD reports whether a sockstat COMMAND is OpenSSH's server:
// sshd, or the per-session sshd-session of OpenSSH 9.8 and later, which a
// sockstat that prints the command with "%.10s" (FreeBSD's for years; the
// perkeep capture shows "really-lon") shows as "sshd-sessi".
func sockstatSSHD(command string) bool {
	return command == "sshd" || command == "sshd-session" || command == "sshd-sessi"
}

// ownAddresses reads the target's interface addresses: ip -o addr on
// Linux, else ifconfig -a (a router without ip), and ifconfig on the
// BSDs. An unreadable answer is an error: the guard does not block what
// it could not check.
func (d *Deps) ownAddresses(ctx context.Context, t *hosts.Host, bsd bool) ([]netip.Prefix, error) {
	var o out
	if !bsd {
		o = d.exec(ctx, t, ownAddrArgv)
	}
	if bsd || !o.ok() {
		o = d.exec(ctx, t, bsdOwnAddrArgv)
	}
	if !o.ok() {
		return nil, fmt.Errorf("lock-out guard: cannot read the host's own addresses (%s): %s; nothing was changed", strings.Join(o.argv, " "), o.why)
	}
	var out []netip.Prefix
	for _, a := range parseIfAddrs(o.stdout) {
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// guard runs the lock-out guard for p on t: the host's own addresses
// always, the SSH clients unless override. It returns what it checked.
func (d *Deps) guard(ctx context.Context, t *hosts.Host, p netip.Prefix, bsd, override bool) ([]string, error) {
	var guarded []string
	own, err := d.ownAddresses(ctx, t, bsd)
	if err != nil {
		return nil, relay.Refuse("%v", err)
	}
	if q, bad := LockoutConflict(p, own); bad {
		return nil, relay.Refuse("lock-out guard: %s overlaps %s, an address of the host itself; nothing was changed (override does not apply)", p, q)
	}
	for _, q := range own {
		guarded = append(guarded, q.Addr().String()+" (own)")
	}
	if override {
		return guarded, nil
	}
	ssh := d.sshSources(ctx, t, bsd)
	if q, bad := LockoutConflict(p, ssh); bad {
		return nil, relay.Refuse("lock-out guard: %s overlaps %s, a current SSH client of the host; nothing was changed (override=true blocks it anyway)", p, q)
	}
	for _, q := range ssh {
		guarded = append(guarded, q.String()+" (ssh)")
	}
	return guarded, nil
}

// chooseBlocker picks the backend for t: the one asked for, else
// nftables, iptables (with ipset when present) or pf, in that order.
func (d *Deps) chooseBlocker(ctx context.Context, t *hosts.Host, want string, p netip.Prefix) (blocker, error) {
	switch want {
	case "", "nftables", "iptables", "pf":
	default:
		return nil, fmt.Errorf("backend %q is not nftables, iptables or pf", want)
	}
	found := d.detect(ctx, t, blockDetect...)
	name := d.NFTTable
	pick := want
	if pick == "" {
		switch {
		case found["nft"]:
			pick = "nftables"
		case found["iptables"]:
			pick = "iptables"
		case found["pfctl"]:
			pick = "pf"
		default:
			return nil, errors.New("no nft, iptables or pfctl found on the host; firewall_block needs one of them")
		}
	}
	switch pick {
	case "nftables":
		if !found["nft"] {
			return nil, errors.New("nft not found on the host")
		}
		return nftBlock{table: name}, nil
	case "iptables":
		prog := "iptables"
		if p.Addr().Is6() {
			prog = "ip6tables"
		}
		if !found[prog] {
			return nil, fmt.Errorf("%s not found on the host", prog)
		}
		b := iptBlock{chain: name, prog: prog, ipset: found["ipset"], v6: p.Addr().Is6()}
		// "iptables v1.8.9 (nf_tables)" or "(legacy)": which kernel
		// interface the rules go to, for the result.
		if o := d.exec(ctx, t, []string{prog, "-V"}); o.ok() {
			b.variant = iptVariant(o.stdout)
		}
		return b, nil
	default:
		if !found["pfctl"] {
			return nil, errors.New("pfctl not found on the host")
		}
		return pfBlock{table: name}, nil
	}
}

// blocker is one backend's way of keeping warden's block list.
type blocker interface {
	// result fills in where p lives.
	result(p netip.Prefix) BlockResult
	// argv lists every command add or remove may run, for the policy.
	argv(p netip.Prefix, add bool) [][]string
	add(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error)
	remove(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error)
}

func (d *Deps) planBlock(ctx context.Context, _ *relay.Call, a *BlockArgs) (*relay.Plan, error) {
	p, err := ParseBlockAddress(a.Address, a.Override)
	if err != nil {
		return nil, err
	}
	guarded := make([]string, 0, len(d.Management))
	if !a.Override {
		// Configured sources first: a refusal here touches no host at all.
		if q, bad := LockoutConflict(p, d.Management); bad {
			return nil, relay.Refuse("lock-out guard: %s overlaps the management source %s; nothing was changed (override=true blocks it anyway)", p, q)
		}
		for _, q := range d.Management {
			guarded = append(guarded, q.String())
		}
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	b, err := d.chooseBlocker(ctx, t, a.Backend, p)
	if err != nil {
		return nil, err
	}
	_, bsd := b.(pfBlock)
	more, err := d.guard(ctx, t, p, bsd, a.Override)
	if err != nil {
		return nil, err
	}
	guarded = append(guarded, more...)
	return &relay.Plan{Host: host, Input: input(append(b.argv(p, true), guardArgv...)...), Run: func(ctx context.Context) *relay.Outcome {
		res, err := b.add(ctx, d, t, p)
		if err != nil {
			return relay.Fail(relay.StatusError, "%v", err)
		}
		res.Guarded = guarded
		return &relay.Outcome{Result: res}
	}}, nil
}

func (d *Deps) planUnblock(ctx context.Context, _ *relay.Call, a *BlockArgs) (*relay.Plan, error) {
	p, err := ParseBlockAddress(a.Address, true)
	if err != nil {
		return nil, err
	}
	if a.Override {
		return nil, errors.New("override applies to firewall_block only")
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	b, err := d.chooseBlocker(ctx, t, a.Backend, p)
	if err != nil {
		return nil, err
	}
	return &relay.Plan{Host: host, Input: input(b.argv(p, false)...), Run: func(ctx context.Context) *relay.Outcome {
		res, err := b.remove(ctx, d, t, p)
		if err != nil {
			return relay.Fail(relay.StatusError, "%v", err)
		}
		return &relay.Outcome{Result: res}
	}}, nil
}
