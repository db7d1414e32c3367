package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/warden-mcp/warden/internal/hosts"
)

var (
	_ blocker = nftBlock{}
	_ blocker = iptBlock{}
	_ blocker = pfBlock{}
)

// nftBlock keeps the block list in sets of warden's own inet table, with
// drop rules in input and forward base chains at priority -10.
type nftBlock struct{ table string }

func (n nftBlock) set(p netip.Prefix) string {
	if p.Addr().Is4() {
		return "block_v4"
	}
	return "block_v6"
}

func (n nftBlock) result(p netip.Prefix) BlockResult {
	return BlockResult{Address: p.String(), Backend: "nftables", Table: "inet " + n.table, Set: n.set(p), Enforced: true}
}

// ensure creates the table, sets and base chains if missing ("add" is a
// no-op for objects that exist). Rules are added only when absent.
func (n nftBlock) ensure() [][]string {
	return [][]string{
		{"nft", "add", "table", "inet", n.table},
		{"nft", "add", "set", "inet", n.table, "block_v4", "{ type ipv4_addr ; flags interval ; }"},
		{"nft", "add", "set", "inet", n.table, "block_v6", "{ type ipv6_addr ; flags interval ; }"},
		{"nft", "add", "chain", "inet", n.table, "input", "{ type filter hook input priority -10 ; policy accept ; }"},
		{"nft", "add", "chain", "inet", n.table, "forward", "{ type filter hook forward priority -10 ; policy accept ; }"},
	}
}

// rules are the drop rules each base chain must hold.
func (n nftBlock) rules() [][]string {
	var out [][]string
	for _, chain := range []string{"input", "forward"} {
		out = append(out,
			[]string{"nft", "add", "rule", "inet", n.table, chain, "ip", "saddr", "@block_v4", "drop"},
			[]string{"nft", "add", "rule", "inet", n.table, chain, "ip6", "saddr", "@block_v6", "drop"})
	}
	return out
}

func (n nftBlock) listChain(chain string) []string {
	return []string{"nft", "list", "chain", "inet", n.table, chain}
}

func (n nftBlock) listSet(p netip.Prefix) []string {
	return []string{"nft", "list", "set", "inet", n.table, n.set(p)}
}

func (n nftBlock) element(verb string, p netip.Prefix) []string {
	return []string{"nft", verb, "element", "inet", n.table, n.set(p), "{ " + elem(p) + " }"}
}

func (n nftBlock) argv(p netip.Prefix, add bool) [][]string {
	if !add {
		return [][]string{n.listSet(p), n.element("delete", p)}
	}
	argvs := append(n.ensure(), n.listChain("input"), n.listChain("forward"))
	argvs = append(argvs, n.rules()...)
	return append(argvs, n.listSet(p), n.element("add", p))
}

func (n nftBlock) add(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := n.result(p)
	for _, argv := range n.ensure() {
		if err := d.must(ctx, t, argv); err != nil {
			return res, err
		}
	}
	have := map[string]string{}
	for _, chain := range []string{"input", "forward"} {
		o := d.exec(ctx, t, n.listChain(chain))
		if !o.ok() {
			return res, errors.New(o.why)
		}
		have[chain] = o.stdout
	}
	for _, argv := range n.rules() {
		chain, want := argv[5], strings.Join(argv[6:], " ")
		if strings.Contains(have[chain], want) {
			continue
		}
		if err := d.must(ctx, t, argv); err != nil {
			return res, err
		}
	}
	o := d.exec(ctx, t, n.listSet(p))
	if !o.ok() {
		return res, errors.New(o.why)
	}
	if setHas(o.stdout, p) {
		return res, nil
	}
	if err := d.must(ctx, t, n.element("add", p)); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

func (n nftBlock) remove(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := n.result(p)
	o := d.exec(ctx, t, n.listSet(p))
	if !o.ok() {
		if strings.Contains(o.stderr, "No such file") || strings.Contains(o.stderr, "does not exist") {
			return res, nil
		}
		return res, errors.New(o.why)
	}
	if !setHas(o.stdout, p) {
		return res, nil
	}
	if err := d.must(ctx, t, n.element("delete", p)); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

// elem is how nft prints a set element: a bare address for a host prefix.
func elem(p netip.Prefix) string {
	if p.IsSingleIP() {
		return p.Addr().String()
	}
	return p.String()
}

// setHas reports whether `nft list set` output holds p as an element.
func setHas(listing string, p netip.Prefix) bool {
	i := strings.Index(listing, "elements")
	if i < 0 {
		return false
	}
	body := strings.NewReplacer("{", " ", "}", " ", ",", " ", "=", " ").Replace(listing[i+len("elements"):])
	for _, w := range strings.Fields(body) {
		if w == elem(p) {
			return true
		}
	}
	return false
}

// iptBlock keeps the block list under iptables (or ip6tables for IPv6):
// a chain named after warden's table, jumped to first from INPUT and
// FORWARD, that drops sources in an ipset (NAME_v4/NAME_v6, hash:net)
// when ipset is present, or holds one "-s ADDR -j DROP" rule per address
// otherwise.
type iptBlock struct {
	chain   string
	prog    string // iptables or ip6tables
	ipset   bool
	v6      bool
	variant string // nf_tables, legacy or unknown
}

func (b iptBlock) setName() string {
	if b.v6 {
		return b.chain + "_v6"
	}
	return b.chain + "_v4"
}

func (b iptBlock) result(p netip.Prefix) BlockResult {
	r := BlockResult{Address: p.String(), Backend: "iptables", Variant: b.variant, Table: b.prog + " filter chain " + b.chain, Enforced: true}
	if b.ipset {
		r.Backend, r.Set = "iptables+ipset", b.setName()
	}
	return r
}

func (b iptBlock) ipt(args ...string) []string {
	return append([]string{b.prog, "-w"}, args...)
}

func (b iptBlock) listChain() []string { return b.ipt("-S", b.chain) }

// setRule is the one rule of the chain in ipset mode.
func (b iptBlock) setRule(verb string) []string {
	return b.ipt(verb, b.chain, "-m", "set", "--match-set", b.setName(), "src", "-j", "DROP")
}

func (b iptBlock) jump(verb, from string) []string {
	if verb == "-I" {
		return b.ipt("-I", from, "1", "-j", b.chain)
	}
	return b.ipt(verb, from, "-j", b.chain)
}

func (b iptBlock) addrRule(verb string, p netip.Prefix) []string {
	return b.ipt(verb, b.chain, "-s", p.String(), "-j", "DROP")
}

func (b iptBlock) createSet() []string {
	family := "inet"
	if b.v6 {
		family = "inet6"
	}
	return []string{"ipset", "-exist", "create", b.setName(), "hash:net", "family", family}
}

func (b iptBlock) listSet() []string { return []string{"ipset", "list", b.setName()} }

func (b iptBlock) member(verb string, p netip.Prefix) []string {
	return []string{"ipset", verb, b.setName(), p.String()}
}

// ensureArgv are the commands that make the chain and its jumps.
func (b iptBlock) ensureArgv() [][]string {
	out := [][]string{b.listChain(), b.ipt("-N", b.chain)}
	if b.ipset {
		out = append([][]string{b.createSet()}, out...)
		out = append(out, b.setRule("-C"), b.setRule("-A"))
	}
	for _, from := range []string{"INPUT", "FORWARD"} {
		out = append(out, b.jump("-C", from), b.jump("-I", from))
	}
	return out
}

func (b iptBlock) argv(p netip.Prefix, add bool) [][]string {
	switch {
	case add && b.ipset:
		return append(b.ensureArgv(), b.listSet(), b.member("add", p))
	case add:
		return append(b.ensureArgv(), b.addrRule("-A", p))
	case b.ipset:
		return [][]string{b.listSet(), b.member("del", p)}
	}
	return [][]string{b.listChain(), b.addrRule("-D", p)}
}

// ensure makes the set, the chain, its rule and the jumps, each only when
// missing (-C answers 0 when a rule exists, 1 when it does not).
func (b iptBlock) ensure(ctx context.Context, d *Deps, t *hosts.Host) (chain string, err error) {
	if b.ipset {
		if err := d.must(ctx, t, b.createSet()); err != nil {
			return "", err
		}
	}
	o := d.exec(ctx, t, b.listChain())
	if !o.ok() {
		if err := d.must(ctx, t, b.ipt("-N", b.chain)); err != nil {
			return "", err
		}
		o = d.exec(ctx, t, b.listChain())
		if !o.ok() {
			return "", errors.New(o.why)
		}
	}
	if b.ipset {
		if c := d.exec(ctx, t, b.setRule("-C"), 1); c.ok() && c.code == 1 {
			if err := d.must(ctx, t, b.setRule("-A")); err != nil {
				return "", err
			}
		} else if !c.ok() {
			return "", errors.New(c.why)
		}
	}
	for _, from := range []string{"INPUT", "FORWARD"} {
		c := d.exec(ctx, t, b.jump("-C", from), 1)
		if !c.ok() {
			return "", errors.New(c.why)
		}
		if c.code == 1 {
			if err := d.must(ctx, t, b.jump("-I", from)); err != nil {
				return "", err
			}
		}
	}
	return o.stdout, nil
}

func (b iptBlock) add(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := b.result(p)
	chain, err := b.ensure(ctx, d, t)
	if err != nil {
		return res, err
	}
	if b.ipset {
		o := d.exec(ctx, t, b.listSet())
		if !o.ok() {
			return res, errors.New(o.why)
		}
		if prefixIn(parseIpsetMembers(o.stdout), p) {
			return res, nil
		}
		if err := d.must(ctx, t, b.member("add", p)); err != nil {
			return res, err
		}
		res.Changed = true
		return res, nil
	}
	if prefixIn(parseIptChainSources(chain, b.chain), p) {
		return res, nil
	}
	if err := d.must(ctx, t, b.addrRule("-A", p)); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

func (b iptBlock) remove(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := b.result(p)
	if b.ipset {
		o := d.exec(ctx, t, b.listSet())
		if !o.ok() {
			if strings.Contains(o.stderr, "does not exist") {
				return res, nil
			}
			return res, errors.New(o.why)
		}
		if !prefixIn(parseIpsetMembers(o.stdout), p) {
			return res, nil
		}
		if err := d.must(ctx, t, b.member("del", p)); err != nil {
			return res, err
		}
		res.Changed = true
		return res, nil
	}
	o := d.exec(ctx, t, b.listChain())
	if !o.ok() {
		if strings.Contains(o.stderr, "No chain") || strings.Contains(o.stderr, "does not exist") {
			return res, nil
		}
		return res, errors.New(o.why)
	}
	if !prefixIn(parseIptChainSources(o.stdout, b.chain), p) {
		return res, nil
	}
	if err := d.must(ctx, t, b.addrRule("-D", p)); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

func prefixIn(list []netip.Prefix, p netip.Prefix) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// pfBlock keeps the block list in a PF table named after warden's table.
// warden does not edit pf.conf: the table only drops traffic once the
// loaded ruleset references it, and the result says whether it does.
type pfBlock struct{ table string }

var pfRulesArgv = []string{"pfctl", "-s", "rules"}

func (b pfBlock) result(p netip.Prefix) BlockResult {
	return BlockResult{Address: p.String(), Backend: "pf", Table: b.table}
}

func (b pfBlock) edit(verb string, p netip.Prefix) []string {
	return []string{"pfctl", "-t", b.table, "-T", verb, elem(p)}
}

func (b pfBlock) argv(p netip.Prefix, add bool) [][]string {
	if add {
		return [][]string{b.edit("add", p), pfInfoArgv, pfRulesArgv}
	}
	return [][]string{b.edit("delete", p), pfInfoArgv, pfRulesArgv}
}

// enforced reads whether pf is enabled and the loaded rules reference
// the table.
func (b pfBlock) enforced(ctx context.Context, d *Deps, t *hosts.Host, res *BlockResult) {
	if o := d.exec(ctx, t, pfInfoArgv); o.ok() && parsePfInfo(o.stdout) == "inactive" {
		res.Note = "pf is disabled (pfctl -s info: Status: Disabled); the table drops nothing until pf is enabled"
		return
	}
	o := d.exec(ctx, t, pfRulesArgv)
	switch {
	case !o.ok():
		res.Note = "could not read the loaded rules: " + o.why
	case pfRulesUse(o.stdout, b.table):
		res.Enforced = true
	default:
		res.Note = fmt.Sprintf("no loaded rule references <%s>; add `table <%s> persist` and `block in quick from <%s>` to pf.conf so the table drops traffic", b.table, b.table, b.table)
	}
}

func (b pfBlock) add(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := b.result(p)
	o := d.exec(ctx, t, b.edit("add", p))
	if !o.ok() {
		return res, errors.New(o.why)
	}
	n, _, ok := parsePfTableChange(o.stderr+o.stdout, "added")
	if !ok {
		return res, fmt.Errorf("pfctl -T add: unexpected answer %q", strings.TrimSpace(o.stderr+o.stdout))
	}
	res.Changed = n > 0
	b.enforced(ctx, d, t, &res)
	return res, nil
}

func (b pfBlock) remove(ctx context.Context, d *Deps, t *hosts.Host, p netip.Prefix) (BlockResult, error) {
	res := b.result(p)
	o := d.exec(ctx, t, b.edit("delete", p))
	if !o.ok() {
		if strings.Contains(o.stderr, "Table does not exist") {
			return res, nil
		}
		return res, errors.New(o.why)
	}
	n, _, ok := parsePfTableChange(o.stderr+o.stdout, "deleted")
	if !ok {
		return res, fmt.Errorf("pfctl -T delete: unexpected answer %q", strings.TrimSpace(o.stderr+o.stdout))
	}
	res.Changed = n > 0
	b.enforced(ctx, d, t, &res)
	return res, nil
}

// must runs argv and turns a failure into an error.
func (d *Deps) must(ctx context.Context, t *hosts.Host, argv []string) error {
	if o := d.exec(ctx, t, argv); !o.ok() {
		return errors.New(o.why)
	}
	return nil
}
