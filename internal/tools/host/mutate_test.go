package host

import (
	"context"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
)

// recorder is a runner that records every argv, and the timeout it was
// asked to keep, and answers from a table.
type recorder struct {
	mu       sync.Mutex
	calls    [][]string
	timeouts []time.Duration
	reply    func(argv []string) runner.Result
}

func (r *recorder) Run(_ context.Context, req runner.Request) (runner.Result, error) {
	r.mu.Lock()
	r.calls = append(r.calls, req.Argv)
	r.timeouts = append(r.timeouts, req.Timeout)
	r.mu.Unlock()
	if r.reply != nil {
		return r.reply(req.Argv), nil
	}
	return runner.Result{}, nil
}

func depsWith(rn runner.Runner, mgmt ...string) *Deps {
	h := &hosts.Host{Name: "local", Kind: hosts.KindLocal, Runner: rn, Inspect: rn, Shell: "/bin/sh"}
	d := &Deps{Hosts: func(context.Context, string) (*hosts.Host, error) { return h, nil }, NFTTable: DefaultNFTTable}
	for _, m := range mgmt {
		d.Management = append(d.Management, netip.MustParsePrefix(m))
	}
	return d
}

func TestParseBlockAddress(t *testing.T) {
	tests := []struct {
		in, want string
		override bool
	}{
		{in: "203.0.113.7", want: "203.0.113.7/32"},
		{in: "203.0.113.0/24", want: "203.0.113.0/24"},
		{in: "2001:db8::1", want: "2001:db8::1/128"},
		{in: "::ffff:203.0.113.7", want: "203.0.113.7/32"},
		{in: "10.0.0.0/7", want: "10.0.0.0/7", override: true},
		{in: "203.0.113.7/24"},   // host bits set
		{in: "2852039166"},       // integer spelling
		{in: "0xa9fea9fe"},       // hex spelling
		{in: "169.254.169.254."}, // trailing dot
		{in: "0251.0376.0251.0376"},
		{in: " 203.0.113.7"},
		{in: "203.0.113.7\n"},
		{in: "-oProxyCommand=x"},
		{in: "fe80::1%eth0"},
		{in: "0.0.0.0"},
		{in: "0.0.0.0/0", override: true},
		{in: "::/0", override: true},
		{in: "127.0.0.1"},
		{in: "127.0.0.0/8", override: true},
		{in: "::1"},
		{in: "224.0.0.1"},
		{in: "10.0.0.0/7"},
		{in: "2001::/16"},
		{in: "example.com"},
		{in: ""},
	}
	for _, tt := range tests {
		got, err := ParseBlockAddress(tt.in, tt.override)
		if tt.want == "" {
			if err == nil {
				t.Errorf("ParseBlockAddress(%q) = %s; want refusal", tt.in, got)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("ParseBlockAddress(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseBlockAddress(f *testing.F) {
	for _, s := range []string{"203.0.113.7", "10.0.0.0/8", "::1", "0.0.0.0/0", "2852039166", "fe80::1%eth0", "1.2.3.4/33"} {
		f.Add(s, false)
	}
	loop4, loop6 := netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()
	f.Fuzz(func(t *testing.T, s string, override bool) {
		p, err := ParseBlockAddress(s, override)
		if err != nil {
			return
		}
		if !p.IsValid() || p.Masked() != p || p.Bits() == 0 || p.Contains(loop4) || p.Contains(loop6) || p.Addr().Zone() != "" {
			t.Fatalf("ParseBlockAddress(%q) accepted %s", s, p)
		}
		// The element text nft receives is the canonical spelling only.
		if strings.ContainsAny(elem(p), " {};\n\"'$") {
			t.Fatalf("element %q for %q has syntax characters", elem(p), s)
		}
	})
}

// TestLockoutManagementMakesNoHostCall proves a block of a configured
// management source is refused before any command runs on the host.
func TestLockoutManagementMakesNoHostCall(t *testing.T) {
	rec := &recorder{reply: func(argv []string) runner.Result {
		if argv[0] == "sh" {
			return runner.Result{Stdout: []byte("nft\n")}
		}
		return runner.Result{}
	}}
	d := depsWith(rec, "192.0.2.0/24", "2001:db8:1::/48")
	for _, addr := range []string{"192.0.2.10", "192.0.2.0/25", "192.0.0.0/16", "2001:db8:1::5"} {
		_, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: addr})
		if err == nil || !strings.Contains(err.Error(), "lock-out guard") {
			t.Errorf("block %s: err = %v; want a lock-out refusal", addr, err)
		}
	}
	for _, addr := range []string{"not-an-ip", "0.0.0.0/0", "127.0.0.1"} {
		if _, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: addr}); err == nil {
			t.Errorf("block %s: nil error", addr)
		}
	}
	if len(rec.calls) != 0 {
		t.Fatalf("refused blocks ran %q on the host; want nothing", rec.calls)
	}
	// With override the guard steps aside; the plan is made (nothing runs
	// until the relay admits it).
	p, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: "192.0.2.10", Override: true})
	if err != nil || p == nil {
		t.Fatalf("override: %v", err)
	}
	for _, c := range rec.calls {
		if c[0] != "sh" && c[0] != "ip" {
			t.Fatalf("planning with override ran %q; want only the read-only detection and own-address probes before admission", c)
		}
	}
}

// TestLockoutSSHClient proves the current SSH client of the target, read
// through the runner, is refused, and that only read-only probes ran.
func TestLockoutSSHClient(t *testing.T) {
	rec := &recorder{reply: func(argv []string) runner.Result {
		switch argv[0] {
		case "sh":
			return runner.Result{Stdout: []byte("nft\n")}
		case "ip":
			return runner.Result{Stdout: []byte("1: lo    inet 127.0.0.1/8 scope host lo\n2: eth0    inet 10.0.0.2/24 brd 10.0.0.255 scope global eth0\n")}
		case "printenv":
			return runner.Result{Stdout: []byte("198.51.100.23 50022 10.0.0.2 22\n")}
		case "ss":
			return runner.Result{Stdout: []byte("0 0 10.0.0.2:22 203.0.113.99:41000 users:((\"sshd\",pid=7,fd=4))\n")}
		}
		return runner.Result{}
	}}
	d := depsWith(rec)
	for _, addr := range []string{"198.51.100.23", "198.51.100.0/24", "203.0.113.99"} {
		_, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: addr})
		if err == nil || !strings.Contains(err.Error(), "SSH client") {
			t.Errorf("block %s: err = %v; want an SSH-client lock-out refusal", addr, err)
		}
	}
	for _, c := range rec.calls {
		if c[0] != "printenv" && c[0] != "ss" && c[0] != "ip" && c[0] != "sh" {
			t.Fatalf("a refused block ran %q; only the read-only probes may run", c)
		}
	}
	// The host's own address is refused even with override.
	if _, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: "10.0.0.0/16", Override: true}); err == nil || !strings.Contains(err.Error(), "the host itself") {
		t.Errorf("block of a prefix holding the host's own address: err = %v; want a lock-out refusal", err)
	}
	if _, err := d.planBlock(context.Background(), nil, &BlockArgs{Address: "198.51.100.24"}); err != nil {
		t.Fatalf("a neighbour of the SSH client is refused: %v", err)
	}
}

// TestPlannedArgvTiers proves what the host tools tell the policy: the
// read-only tools' commands are tier 0 for the real classifier, so they run
// in readonly mode, and the mutations are tier 2.
func TestPlannedArgvTiers(t *testing.T) {
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	read := [][]string{unameArgv, osRelArgv, uptimeArgv, meminfoArgv, cpuinfoArgv, virtArgv, dfArgv, dfiArgv, mountsArgv, dfMountArgv, {"df", "-Pi", "--", "/", "/mnt/nas share"},
		smartScanArgv, smartArgv(smartDevice{Name: "/dev/sda", Type: "sat"}), mdstatArgv, zpoolArgv, dockerPSArgv, podmanPSArgv,
		ssListenArgv, nftListArgv, iptSArgv, ip6tSArgv, ufwArgv, statArgv, dstatArgv, loadArgv, psArgv, busyboxPSArgv,
		systemctlShowArgv("nginx.service"), serviceStatusArgv("sysv", "nginx"), serviceStatusArgv("busybox", "nginx"), initArgv, detectArgv("docker", "podman"),
		updateArgv["apt"], updateArgv["apk"], updateArgv["pacman"], sshEnvArgv, sshPeersArgv, bsdPeersArgv, ownAddrArgv, bsdOwnAddrArgv,
		unameSArgv, ipsetTerse, pfTablesArgv, pfTableArgv("bruteforce", "show"), bsdListenArgv, tsIfArgv, tsStatusArgv, ruleFilesArgv(DefaultRuleFiles),
		parseCheckArgv("/etc/pf.conf"), parseCheckArgv("/etc/nftables.conf"), parseCheckArgv("/etc/iptables/rules.v4"), parseCheckArgv("/etc/iptables/rules.v6"),
		pfRulesArgv, iptBlock{chain: DefaultNFTTable, prog: "iptables", ipset: true}.listSet(), iptBlock{chain: DefaultNFTTable, prog: "iptables"}.listChain(),
		iptBlock{chain: DefaultNFTTable, prog: "iptables", ipset: true}.setRule("-C"), iptBlock{chain: DefaultNFTTable, prog: "ip6tables", v6: true}.jump("-C", "INPUT"),
		{"docker", "logs", "--timestamps", "--tail", "100", "--", "web"}, nftBlock{DefaultNFTTable}.listSet(netip.MustParsePrefix("203.0.113.7/32"))}
	for _, a := range read {
		if v := pol.Evaluate(input(a)); v.Tier != policy.TierRead || v.Denied {
			t.Errorf("%q: tier %d denied=%v (%s); want tier 0", a, v.Tier, v.Denied, v.Reason)
		}
	}
	p := netip.MustParsePrefix("203.0.113.7/32")
	n := nftBlock{DefaultNFTTable}
	mut := append(n.ensure(), n.rules()...)
	v6 := netip.MustParsePrefix("2001:db8::/48")
	for _, b := range []iptBlock{{chain: DefaultNFTTable, prog: "iptables", ipset: true}, {chain: DefaultNFTTable, prog: "iptables"}, {chain: DefaultNFTTable, prog: "ip6tables", ipset: true, v6: true}} {
		q := p
		if b.v6 {
			q = v6
		}
		for _, a := range append(b.argv(q, true), b.argv(q, false)...) {
			if a[1] == "-w" && (a[2] == "-S" || a[2] == "-C") || a[0] == "ipset" && a[1] == "list" {
				continue // the reads among them
			}
			mut = append(mut, a)
		}
	}
	mut = append(mut, pfBlock{DefaultNFTTable}.edit("add", p), pfBlock{DefaultNFTTable}.edit("delete", p), pfTableArgv("bruteforce", "delete", "203.0.113.7"))
	mut = append(mut, n.element("add", p), n.element("delete", p), []string{"docker", "restart", "--", "web"},
		serviceRestartArgv("systemd", "nginx"), serviceRestartArgv("sysv", "nginx"))
	for _, a := range mut {
		if v := pol.Evaluate(input(a)); v.Tier != policy.TierMutate || v.Denied {
			t.Errorf("%q: tier %d denied=%v (%s); want tier 2", a, v.Tier, v.Denied, v.Reason)
		}
	}
}

// nsRunner runs every command inside a network namespace.
type nsRunner struct {
	ns    string
	inner runner.Runner
}

func (n nsRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	req.Argv = append([]string{"ip", "netns", "exec", n.ns}, req.Argv...)
	return n.inner.Run(ctx, req)
}

// TestFirewallBlockNetns blocks and unblocks addresses with real nftables
// inside a network namespace made for the test.
func TestFirewallBlockNetns(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for ip netns")
	}
	for _, p := range []string{"ip", "nft"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (iproute2, nftables)", p)
		}
	}
	ns := "warden-fw-" + strings.ReplaceAll(t.Name(), "/", "-")
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("cannot create a network namespace: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })
	env := []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	d := depsWith(nsRunner{ns: ns, inner: local.New(local.Options{})}, "192.0.2.0/24")
	d.Env = env
	d.Timeout, d.MaxBytes = 30*time.Second, 1<<20
	ctx := context.Background()
	run := func(plan func(context.Context, *relay.Call, *BlockArgs) (*relay.Plan, error), addr string) BlockResult {
		t.Helper()
		p, err := plan(ctx, nil, &BlockArgs{Address: addr})
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		out := p.Run(ctx)
		if out.Status != "" && out.Status != relay.StatusOK {
			t.Fatalf("%s: %s %s", addr, out.Status, out.Reason)
		}
		return out.Result.(BlockResult)
	}
	ruleset := func() string {
		out, err := exec.Command("ip", "netns", "exec", ns, "nft", "list", "ruleset").CombinedOutput()
		if err != nil {
			t.Fatalf("nft list ruleset: %v %s", err, out)
		}
		return string(out)
	}
	if r := run(d.planBlock, "203.0.113.7"); !r.Changed || r.Set != "block_v4" {
		t.Fatalf("first block = %+v; want changed in block_v4", r)
	}
	if r := run(d.planBlock, "203.0.113.7"); r.Changed {
		t.Fatalf("second block = %+v; want unchanged", r)
	}
	if r := run(d.planBlock, "2001:db8:bad::/48"); !r.Changed || r.Set != "block_v6" {
		t.Fatalf("v6 block = %+v", r)
	}
	rs := ruleset()
	for _, want := range []string{"table inet " + DefaultNFTTable, "203.0.113.7", "2001:db8:bad::/48", "ip saddr @block_v4 drop", "ip6 saddr @block_v6 drop", "hook input", "hook forward"} {
		if !strings.Contains(rs, want) {
			t.Errorf("ruleset lacks %q:\n%s", want, rs)
		}
	}
	if n := strings.Count(rs, "ip saddr @block_v4 drop"); n != 2 {
		t.Errorf("drop rule for v4 appears %d times; want once per chain (2):\n%s", n, rs)
	}
	// The management source is refused and the ruleset is untouched.
	if _, err := d.planBlock(ctx, nil, &BlockArgs{Address: "192.0.2.1"}); err == nil {
		t.Fatal("blocking a management source was not refused")
	}
	if strings.Contains(ruleset(), "192.0.2.1") {
		t.Fatal("refused address reached the ruleset")
	}
	if r := run(d.planUnblock, "203.0.113.7"); !r.Changed {
		t.Fatalf("unblock = %+v; want changed", r)
	}
	if r := run(d.planUnblock, "203.0.113.7"); r.Changed {
		t.Fatalf("second unblock = %+v; want unchanged", r)
	}
	if strings.Contains(ruleset(), "203.0.113.7") {
		t.Fatalf("unblocked address still in the ruleset:\n%s", ruleset())
	}
}
