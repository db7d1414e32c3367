package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
)

func (d *Deps) registerMutate(r *relay.Relay) {
	relay.Add[ContainerArgs, Restarted](r, relay.Spec{
		Name: "restart_container", Title: "Restart a container",
		Description: "Restart one Docker or Podman container by name or ID and report its state afterwards. Changes the host, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Restart a container", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planRestartContainer)
	relay.Add[ServiceArgs, Restarted](r, relay.Spec{
		Name: "restart_service", Title: "Restart a service",
		Description: "Restart one service under systemd, OpenRC or SysV init and report its state afterwards. Changes the host, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Restart a service", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planRestartService)
	relay.Add[BlockArgs, BlockResult](r, relay.Spec{
		Name: "firewall_block", Title: "Block an address",
		Description: "Drop inbound and forwarded traffic from one IP address or CIDR by adding it to a set in warden's own nftables table. " +
			"A lock-out guard refuses addresses overlapping the configured management sources or the current SSH client " +
			"unless override=true. Loopback and unspecified addresses are always refused.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Block an address", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planBlock)
	relay.Add[BlockArgs, BlockResult](r, relay.Spec{
		Name: "firewall_unblock", Title: "Unblock an address",
		Description: "Remove an address or CIDR that firewall_block added from warden's nftables set.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Unblock an address", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planUnblock)
}

// ContainerArgs name one container.
type ContainerArgs struct {
	Name string `json:"name" jsonschema:"Container name or ID."`
	Host string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// Restarted is the result of a restart.
type Restarted struct {
	Name    string `json:"name"`
	Manager string `json:"manager" jsonschema:"docker, podman, systemd, openrc or sysv."`
	// State is the state reported after the restart, or unknown.
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

func (d *Deps) planRestartContainer(ctx context.Context, _ *relay.Call, a *ContainerArgs) (*relay.Plan, error) {
	if !containerNameRE.MatchString(a.Name) {
		return nil, fmt.Errorf("container name %q is not a valid name or ID", a.Name)
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	restart := func(rt string) []string { return []string{rt, "restart", "--", a.Name} }
	inspect := func(rt string) []string {
		return []string{rt, "inspect", "--format", "{{.State.Status}}", "--", a.Name}
	}
	// The runtime is found at run time, so the policy sees both spellings.
	in := input(detectArgv("docker", "podman"), restart("docker"), inspect("docker"), restart("podman"), inspect("podman"))
	return &relay.Plan{Host: host, Input: in, Run: func(ctx context.Context) *relay.Outcome {
		rt, why := d.runtimeOf(ctx, t)
		if rt == "" {
			return relay.Fail(relay.StatusError, "%s", why)
		}
		if o := d.exec(ctx, t, restart(rt)); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res := Restarted{Name: a.Name, Manager: rt, State: Unknown}
		if o := d.exec(ctx, t, inspect(rt)); o.ok() {
			res.State = strings.TrimSpace(o.stdout)
		} else {
			res.Reason = o.why
		}
		return &relay.Outcome{Result: res}
	}}, nil
}

func serviceRestartArgv(mgr, name string) []string {
	switch mgr {
	case "systemd":
		return []string{"systemctl", "restart", "--", name}
	case "openrc":
		return []string{"rc-service", name, "restart"}
	case "sysv":
		return []string{"service", name, "restart"}
	}
	return nil
}

func (d *Deps) planRestartService(ctx context.Context, _ *relay.Call, a *ServiceArgs) (*relay.Plan, error) {
	if err := checkService(a.Name); err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argvs := [][]string{initArgv}
	for _, m := range []string{"systemd", "openrc", "sysv"} {
		argvs = append(argvs, serviceRestartArgv(m, a.Name), serviceStatusArgv(m, a.Name))
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		mgr := strings.TrimSpace(d.exec(ctx, t, initArgv).stdout)
		argv := serviceRestartArgv(mgr, a.Name)
		if mgr == "busybox" {
			return relay.Fail(relay.StatusError, "BusyBox init has no service manager; restart_service does not run init scripts, whose actions follow no convention there")
		}
		if argv == nil {
			return relay.Fail(relay.StatusError, "no systemd, OpenRC or SysV service command found")
		}
		if o := d.exec(ctx, t, argv); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res := Restarted{Name: a.Name, Manager: mgr, State: Unknown}
		o := d.exec(ctx, t, serviceStatusArgv(mgr, a.Name), anyCode...)
		switch mgr {
		case "systemd":
			res.State = parseSystemctlShow(a.Name, o.stdout).Active
		case "openrc":
			res.State = parseOpenRCStatus(a.Name, o.stdout+o.stderr, o.code).Active
		default:
			res.State = parseSysVStatus(a.Name, o.stdout+o.stderr, o.code).Active
		}
		return &relay.Outcome{Result: res}
	}}, nil
}

// BlockArgs are firewall_block's and firewall_unblock's arguments.
type BlockArgs struct {
	Address string `json:"address" jsonschema:"An IPv4 or IPv6 address, or a CIDR like 203.0.113.0/24."`
	Host    string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	// Override skips the lock-out guard (management sources and the
	// current SSH client); loopback and unspecified are never allowed.
	Override bool `json:"override,omitempty" jsonschema:"Block even a management source or the current SSH client (firewall_block only)."`
}

// BlockResult is the result of a block or unblock.
type BlockResult struct {
	Address string `json:"address" jsonschema:"The canonical prefix acted on."`
	Table   string `json:"table"`
	Set     string `json:"set"`
	// Changed is false when the address was already (un)blocked.
	Changed bool `json:"changed"`
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
	sshEnvArgv   = []string{"printenv", "SSH_CONNECTION", "SSH_CLIENT"}
	sshPeersArgv = []string{"ss", "-Htnp", "state", "established"}
)

// sshSources asks the target who is connected to it over SSH: the
// runner's own session (SSH_CONNECTION, for SSH targets) and every
// established connection held by sshd. Both are read-only probes.
func (d *Deps) sshSources(ctx context.Context, t *hosts.Host) []netip.Prefix {
	var out []netip.Prefix
	if o := d.exec(ctx, t, sshEnvArgv, 1); o.ok() {
		for _, a := range sshConnection(o.stdout) {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	if o := d.exec(ctx, t, sshPeersArgv); o.ok() {
		for _, a := range sshPeers(o.stdout) {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}

// nft names the objects of warden's table.
type nft struct{ table string }

func (n nft) set(p netip.Prefix) string {
	if p.Addr().Is4() {
		return "block_v4"
	}
	return "block_v6"
}

// ensure creates the table, sets and base chains if missing ("add" is a
// no-op for objects that exist). Rules are added only when absent.
func (n nft) ensure() [][]string {
	return [][]string{
		{"nft", "add", "table", "inet", n.table},
		{"nft", "add", "set", "inet", n.table, "block_v4", "{ type ipv4_addr ; flags interval ; }"},
		{"nft", "add", "set", "inet", n.table, "block_v6", "{ type ipv6_addr ; flags interval ; }"},
		{"nft", "add", "chain", "inet", n.table, "input", "{ type filter hook input priority -10 ; policy accept ; }"},
		{"nft", "add", "chain", "inet", n.table, "forward", "{ type filter hook forward priority -10 ; policy accept ; }"},
	}
}

// rules are the drop rules each base chain must hold.
func (n nft) rules() [][]string {
	var out [][]string
	for _, chain := range []string{"input", "forward"} {
		out = append(out,
			[]string{"nft", "add", "rule", "inet", n.table, chain, "ip", "saddr", "@block_v4", "drop"},
			[]string{"nft", "add", "rule", "inet", n.table, chain, "ip6", "saddr", "@block_v6", "drop"})
	}
	return out
}

func (n nft) listChain(chain string) []string {
	return []string{"nft", "list", "chain", "inet", n.table, chain}
}

func (n nft) listSet(p netip.Prefix) []string {
	return []string{"nft", "list", "set", "inet", n.table, n.set(p)}
}

func (n nft) element(verb string, p netip.Prefix) []string {
	return []string{"nft", verb, "element", "inet", n.table, n.set(p), "{ " + elem(p) + " }"}
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
	if !a.Override {
		ssh := d.sshSources(ctx, t)
		if q, bad := LockoutConflict(p, ssh); bad {
			return nil, relay.Refuse("lock-out guard: %s overlaps %s, a current SSH client of the host; nothing was changed (override=true blocks it anyway)", p, q)
		}
		for _, q := range ssh {
			guarded = append(guarded, q.String()+" (ssh)")
		}
	}
	n := nft{table: d.NFTTable}
	argvs := append(n.ensure(), n.listChain("input"), n.listChain("forward"))
	argvs = append(argvs, n.rules()...)
	argvs = append(argvs, n.listSet(p), n.element("add", p))
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		res := BlockResult{Address: p.String(), Table: "inet " + n.table, Set: n.set(p), Guarded: guarded}
		if err := d.ensureNft(ctx, t, n); err != nil {
			return relay.Fail(relay.StatusError, "%v", err)
		}
		o := d.exec(ctx, t, n.listSet(p))
		if !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		if setHas(o.stdout, p) {
			return &relay.Outcome{Result: res}
		}
		if o := d.exec(ctx, t, n.element("add", p)); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res.Changed = true
		return &relay.Outcome{Result: res}
	}}, nil
}

// ensureNft creates warden's table, sets, chains and drop rules.
func (d *Deps) ensureNft(ctx context.Context, t *hosts.Host, n nft) error {
	for _, argv := range n.ensure() {
		if o := d.exec(ctx, t, argv); !o.ok() {
			return errors.New(o.why)
		}
	}
	have := map[string]string{}
	for _, chain := range []string{"input", "forward"} {
		o := d.exec(ctx, t, n.listChain(chain))
		if !o.ok() {
			return errors.New(o.why)
		}
		have[chain] = o.stdout
	}
	for _, argv := range n.rules() {
		chain, want := argv[5], strings.Join(argv[6:], " ")
		if strings.Contains(have[chain], want) {
			continue
		}
		if o := d.exec(ctx, t, argv); !o.ok() {
			return errors.New(o.why)
		}
	}
	return nil
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
	n := nft{table: d.NFTTable}
	return &relay.Plan{Host: host, Input: input(n.listSet(p), n.element("delete", p)), Run: func(ctx context.Context) *relay.Outcome {
		res := BlockResult{Address: p.String(), Table: "inet " + n.table, Set: n.set(p)}
		o := d.exec(ctx, t, n.listSet(p))
		if !o.ok() {
			if strings.Contains(o.stderr, "No such file") || strings.Contains(o.stderr, "does not exist") {
				return &relay.Outcome{Result: res}
			}
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		if !setHas(o.stdout, p) {
			return &relay.Outcome{Result: res}
		}
		if o := d.exec(ctx, t, n.element("delete", p)); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res.Changed = true
		return &relay.Outcome{Result: res}
	}}, nil
}
