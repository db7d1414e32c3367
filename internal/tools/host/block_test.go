package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
)

// netns makes a network namespace for the test, with lo up and a veth
// pair holding 192.0.2.10/24, and removes it afterwards.
func netns(t *testing.T, progs ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root for ip netns")
	}
	for _, p := range append([]string{"ip"}, progs...) {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (scripts/test installs iproute2, nftables, iptables, ipset)", p)
		}
	}
	ns := "warden-" + strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())
	if len(ns) > 40 {
		ns = ns[:40]
	}
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("cannot create a network namespace: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "add", "veth0", "type", "veth", "peer", "name", "veth1"},
		{"addr", "add", "192.0.2.10/24", "dev", "veth0"},
		{"link", "set", "veth0", "up"},
	} {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	return ns
}

// pathWith makes a directory of links to the named programs only, so the
// backend detection sees exactly them.
func pathWith(t *testing.T, progs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range progs {
		full, err := exec.LookPath(p)
		if err != nil {
			t.Skipf("%s not installed", p)
		}
		if err := os.Symlink(full, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pathAs is pathWith plus links under other names: as[name] = program.
func pathAs(t *testing.T, as map[string]string, progs ...string) string {
	t.Helper()
	dir := pathWith(t, progs...)
	for name, prog := range as {
		full, err := exec.LookPath(prog)
		if err != nil {
			t.Skipf("%s not installed", prog)
		}
		if err := os.Symlink(full, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// nsDeps runs the host tools inside ns with PATH=path.
func nsDeps(ns, path string, mgmt ...string) *Deps {
	d := depsWith(nsRunner{ns: ns, inner: local.New(local.Options{})}, mgmt...)
	d.Env = []string{"PATH=" + path}
	d.Timeout, d.MaxBytes = 30*time.Second, 1<<20
	return d
}

func nsOut(t *testing.T, ns string, argv ...string) string {
	t.Helper()
	out, err := exec.Command("ip", append([]string{"netns", "exec", ns}, argv...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v %s", argv, err, out)
	}
	return string(out)
}

func runBlock(t *testing.T, plan func(context.Context, *relay.Call, *BlockArgs) (*relay.Plan, error), a BlockArgs) BlockResult {
	t.Helper()
	p, err := plan(context.Background(), nil, &a)
	if err != nil {
		t.Fatalf("%s: %v", a.Address, err)
	}
	o := p.Run(context.Background())
	if o.Status != "" && o.Status != relay.StatusOK {
		t.Fatalf("%s: %s %s", a.Address, o.Status, o.Reason)
	}
	return o.Result.(BlockResult)
}

// TestFirewallBlockIptablesNetns blocks and unblocks with real iptables
// inside a network namespace, with ipset (a set and one rule) and without
// it (one rule per address in warden's chain), chosen by what the PATH
// offers, and checks the lock-out guard leaves everything as it was.
func TestFirewallBlockIptablesNetns(t *testing.T) {
	common := []string{"sh", "ip", "iptables", "ip6tables", "printenv", "ss"}
	for _, tc := range []struct {
		name  string
		progs []string
		want  string
	}{
		{"ipset", append(common, "ipset"), "iptables+ipset"},
		{"chain", common, "iptables"},
		{"legacy", nil, "iptables+ipset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := netns(t, "iptables", "ip6tables", "ipset")
			path := ""
			if tc.name == "legacy" {
				// iptables-legacy under the name iptables, as on a host
				// whose alternatives point there.
				path = pathAs(t, map[string]string{"iptables": "iptables-legacy", "ip6tables": "ip6tables-legacy", "iptables-save": "iptables-legacy-save", "ip6tables-save": "ip6tables-legacy-save"}, "sh", "ip", "printenv", "ss", "ipset")
			} else {
				path = pathWith(t, tc.progs...)
			}
			d := nsDeps(ns, path, "198.51.100.0/24")
			ipt := func(args ...string) string {
				if tc.name == "legacy" {
					args[0] = strings.Replace(args[0], "tables", "tables-legacy", 1)
				}
				return nsOut(t, ns, args...)
			}
			r := runBlock(t, d.planBlock, BlockArgs{Address: "203.0.113.7"})
			wantVariant := "nf_tables"
			if tc.name == "legacy" {
				wantVariant = "legacy"
			}
			if !r.Changed || r.Backend != tc.want || !r.Enforced || r.Variant != wantVariant {
				t.Fatalf("first block = %+v; want changed on %s", r, tc.want)
			}
			if r := runBlock(t, d.planBlock, BlockArgs{Address: "203.0.113.7"}); r.Changed {
				t.Fatalf("second block = %+v; want unchanged", r)
			}
			if r := runBlock(t, d.planBlock, BlockArgs{Address: "2001:db8:bad::/48"}); !r.Changed || !strings.HasPrefix(r.Table, "ip6tables") {
				t.Fatalf("v6 block = %+v; want changed under ip6tables", r)
			}
			rules := ipt("iptables", "-w", "-S")
			rules6 := ipt("ip6tables", "-w", "-S")
			for _, want := range []string{"-A INPUT -j agent_blocklist", "-A FORWARD -j agent_blocklist"} {
				if strings.Count(rules, want) != 1 || strings.Count(rules6, want) != 1 {
					t.Errorf("want exactly one %q in iptables and ip6tables:\n%s\n%s", want, rules, rules6)
				}
			}
			has := func(addr string) bool {
				if tc.name != "chain" {
					return strings.Contains(nsOut(t, ns, "ipset", "list", "agent_blocklist_v4"), addr)
				}
				return strings.Contains(ipt("iptables", "-w", "-S", "agent_blocklist"), "-s "+addr+"/32 -j DROP")
			}
			if tc.name != "chain" {
				if !strings.Contains(rules, "-A agent_blocklist -m set --match-set agent_blocklist_v4 src -j DROP") {
					t.Errorf("no set rule in the chain:\n%s", rules)
				}
				if !strings.Contains(nsOut(t, ns, "ipset", "list", "agent_blocklist_v6"), "2001:db8:bad::/48") {
					t.Error("v6 prefix not in agent_blocklist_v6")
				}
			} else if !strings.Contains(rules6, "-A agent_blocklist -s 2001:db8:bad::/48 -j DROP") {
				t.Errorf("v6 prefix not in ip6tables chain:\n%s", rules6)
			}
			if !has("203.0.113.7") {
				t.Fatal("blocked address is not in the set or chain")
			}

			// Lock-out: a management source makes no host call, the
			// host's own address is refused even with override; nothing
			// changes either way.
			before := ipt("iptables-save") + ipt("ip6tables-save")
			if tc.name != "chain" {
				before += nsOut(t, ns, "ipset", "save")
			}
			for _, a := range []BlockArgs{{Address: "198.51.100.9"}, {Address: "192.0.2.10"}, {Address: "192.0.2.0/24", Override: true}} {
				if _, err := d.planBlock(context.Background(), nil, &a); err == nil || !strings.Contains(err.Error(), "lock-out guard") {
					t.Errorf("block %+v: err = %v; want a lock-out refusal", a, err)
				}
			}
			after := ipt("iptables-save") + ipt("ip6tables-save")
			if tc.name != "chain" {
				after += nsOut(t, ns, "ipset", "save")
			}
			if stripCounters(before) != stripCounters(after) {
				t.Fatalf("a refused block changed the firewall:\nbefore:\n%s\nafter:\n%s", before, after)
			}

			if r := runBlock(t, d.planUnblock, BlockArgs{Address: "203.0.113.7"}); !r.Changed {
				t.Fatalf("unblock = %+v; want changed", r)
			}
			if r := runBlock(t, d.planUnblock, BlockArgs{Address: "203.0.113.7"}); r.Changed {
				t.Fatalf("second unblock = %+v; want unchanged", r)
			}
			if has("203.0.113.7") {
				t.Fatal("unblocked address is still in the set or chain")
			}
		})
	}
}

// stripCounters drops iptables-save's comment and counter lines, which
// differ between two dumps of the same rules.
func stripCounters(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, ":") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestFirewallBlockOwnAddressNftNetns: under nftables too, the host's own
// address is refused with override and the ruleset is unchanged.
func TestFirewallBlockOwnAddressNftNetns(t *testing.T) {
	ns := netns(t, "nft")
	d := nsDeps(ns, pathWith(t, "sh", "ip", "nft", "printenv", "ss"))
	before := nsOut(t, ns, "nft", "list", "ruleset")
	for _, a := range []BlockArgs{{Address: "192.0.2.10"}, {Address: "192.0.2.0/24", Override: true}} {
		if _, err := d.planBlock(context.Background(), nil, &a); err == nil || !strings.Contains(err.Error(), "the host itself") {
			t.Errorf("block %+v: err = %v; want a lock-out refusal", a, err)
		}
	}
	if after := nsOut(t, ns, "nft", "list", "ruleset"); after != before {
		t.Fatalf("a refused block changed the ruleset:\n%s", after)
	}
	if r := runBlock(t, d.planBlock, BlockArgs{Address: "192.0.3.1"}); !r.Changed || r.Backend != "nftables" {
		t.Fatalf("block of a neighbour = %+v", r)
	}
}

// pfHost answers like a FreeBSD host with pf, from captured output where
// there is any: pfctl's table reports (fixtures pfctl-table-add/-delete),
// its rules (pfctl-rules) and sockstat's layout.
func pfHost(t *testing.T, rules string) *recorder {
	return &recorder{reply: func(argv []string) runner.Result {
		j := strings.Join(argv, " ")
		switch {
		case argv[0] == "sh":
			return runner.Result{Stdout: []byte("pfctl\n")}
		case argv[0] == "ifconfig":
			// Constructed in ifconfig's format (no capture): the guard reads only the inet lines.
			return runner.Result{Stdout: []byte("em0: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 1500\n\tinet 192.0.2.2 netmask 0xffffff00 broadcast 192.0.2.255\n\tinet6 fe80::1%em0 prefixlen 64 scopeid 0x1\n")}
		case argv[0] == "printenv":
			return runner.Result{ExitCode: 1}
		case argv[0] == "sockstat":
			return runner.Result{Stdout: []byte(fixture(t, "sockstat-connected"))}
		case j == "pfctl -s rules":
			return runner.Result{Stdout: []byte(rules)}
		case j == "pfctl -s info":
			if rules == "disabled" {
				// The status line as pfctl prints it when pf is off (constructed).
				return runner.Result{Stdout: []byte("Status: Disabled                              Debug: Urgent\n")}
			}
			return runner.Result{Stdout: []byte(fixture(t, "pfctl-info"))}
		case strings.Contains(j, "-T add"):
			return runner.Result{Stderr: []byte(fixture(t, "pfctl-table-add"))}
		case strings.Contains(j, "-T delete"):
			return runner.Result{Stderr: []byte(fixture(t, "pfctl-table-delete"))}
		}
		return runner.Result{ExitCode: 1, Stderr: []byte("unexpected " + j)}
	}}
}

// TestFirewallBlockPF: on a pf host the block is a table edit; the argv
// are exactly pfctl's, the report is read from captured output, and the
// result says whether the loaded rules use the table.
func TestFirewallBlockPF(t *testing.T) {
	rec := pfHost(t, fixture(t, "pfctl-rules"))
	d := depsWith(rec, "192.0.2.200/32")
	r := runBlock(t, d.planBlock, BlockArgs{Address: "203.0.113.7"})
	if r.Backend != "pf" || r.Table != DefaultNFTTable || !r.Changed || r.Enforced || !strings.Contains(r.Note, "block in quick from <agent_blocklist>") {
		t.Fatalf("block on pf = %+v; want changed, not enforced (the captured rules do not use the table), with the pf.conf lines", r)
	}
	var edits []string
	for _, c := range rec.calls {
		if c[0] == "pfctl" {
			edits = append(edits, strings.Join(c, " "))
		}
	}
	if want := "pfctl -t agent_blocklist -T add 203.0.113.7|pfctl -s info|pfctl -s rules"; strings.Join(edits, "|") != want {
		t.Fatalf("pfctl calls = %q; want %q", edits, want)
	}
	// A rules line referencing the table, in pfctl's print_rule form
	// (constructed, not captured).
	rec = pfHost(t, "block drop in quick from <agent_blocklist> to any\n")
	d = depsWith(rec)
	if r := runBlock(t, d.planUnblock, BlockArgs{Address: "203.0.113.0/24"}); !r.Changed || !r.Enforced {
		t.Fatalf("unblock on pf = %+v; want changed and enforced", r)
	}
	if got := strings.Join(rec.calls[len(rec.calls)-3], " "); got != "pfctl -t agent_blocklist -T delete 203.0.113.0/24" {
		t.Fatalf("delete argv = %q", got)
	}
	// With pf disabled nothing is enforced, whatever the rules say.
	d = depsWith(pfHost(t, "disabled"))
	if r := runBlock(t, d.planBlock, BlockArgs{Address: "203.0.113.8"}); r.Enforced || !strings.Contains(r.Note, "pf is disabled") {
		t.Fatalf("block with pf disabled = %+v; want not enforced, saying pf is disabled", r)
	}
	// Lock-out on pf: the SSH peer sockstat reports, the host's own
	// address, and a management source; none reaches pfctl.
	rec = pfHost(t, "")
	d = depsWith(rec, "192.0.2.200/32")
	for _, a := range []BlockArgs{{Address: "198.51.100.23"}, {Address: "2001:db8:77::/48"}, {Address: "192.0.2.2"}, {Address: "192.0.2.0/24", Override: true}, {Address: "192.0.2.200"}} {
		if _, err := d.planBlock(context.Background(), nil, &a); err == nil || !strings.Contains(err.Error(), "lock-out guard") {
			t.Errorf("block %+v on pf: err = %v; want a lock-out refusal", a, err)
		}
	}
	for _, c := range rec.calls {
		if c[0] == "pfctl" {
			t.Fatalf("a refused block ran %q", c)
		}
	}
}

// TestPfTableTools: show, delete and flush run exactly one pfctl argv
// each, read captured output, validate the table name, and are tier 0,
// 2 and 3.
func TestPfTableTools(t *testing.T) {
	rec := &recorder{reply: func(argv []string) runner.Result {
		switch argv[4] {
		case "show":
			if argv[2] == "nosuch" {
				// pfctl's wording, as quoted in pfctl_table.c's error path.
				return runner.Result{ExitCode: 1, Stderr: []byte("pfctl: Table does not exist.\n")}
			}
			return runner.Result{Stdout: []byte(fixture(t, "pfctl-table-show"))}
		case "delete":
			return runner.Result{Stderr: []byte(fixture(t, "pfctl-table-delete"))}
		case "flush":
			// The form FreeBSD's own pf tests expect from -T flush
			// (tests/sys/netpfil/pf/table.sh: "1 addresses deleted.").
			return runner.Result{Stderr: []byte("1 addresses deleted.\n")}
		}
		return runner.Result{ExitCode: 1}
	}}
	d := depsWith(rec)
	ctx := context.Background()
	p, err := d.planPfTableShow(ctx, nil, &PfTableArgs{Table: "bruteforce"})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Run(ctx).Result.(PfTable); !got.Exists || got.Count != 1 || got.Addresses[0] != "192.168.56.2" {
		t.Fatalf("show = %+v", got)
	}
	p, _ = d.planPfTableShow(ctx, nil, &PfTableArgs{Table: "nosuch"})
	if got := p.Run(ctx).Result.(PfTable); got.Exists {
		t.Fatalf("show of a missing table = %+v; want exists=false", got)
	}
	p, err = d.planPfTableDelete(ctx, nil, &PfTableAddrArgs{Table: "bruteforce", Address: "192.168.56.2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Run(ctx).Result.(PfTableEdit); got.Removed != 1 || !got.Exists {
		t.Fatalf("delete = %+v", got)
	}
	p, _ = d.planPfTableFlush(ctx, nil, &PfTableArgs{Table: "sshguard"})
	if got := p.Run(ctx).Result.(PfTableEdit); got.Removed != 1 {
		t.Fatalf("flush = %+v", got)
	}
	want := []string{"pfctl -t bruteforce -T show", "pfctl -t nosuch -T show", "pfctl -t bruteforce -T delete 192.168.56.2", "pfctl -t sshguard -T flush"}
	var got []string
	for _, c := range rec.calls {
		got = append(got, strings.Join(c, " "))
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("argv = %q; want %q", got, want)
	}
	for _, bad := range []string{"", "-F", "-Fall", "a b", "x;y", strings.Repeat("a", 32), "../t", "tab\n"} {
		if _, err := d.planPfTableShow(ctx, nil, &PfTableArgs{Table: bad}); err == nil {
			t.Errorf("table %q accepted", bad)
		}
	}
	if _, err := d.planPfTableDelete(ctx, nil, &PfTableAddrArgs{Table: "t", Address: "-v"}); err == nil {
		t.Error("address -v accepted")
	}
	if len(rec.calls) != len(want) {
		t.Fatalf("refused calls reached the host: %q", rec.calls[len(want):])
	}

	// The tier each tool declares.
	for _, sp := range []struct {
		spec relay.Spec
		want policy.Tier
	}{{pfShowSpec, policy.TierRead}, {pfDeleteSpec, policy.TierMutate}, {pfFlushSpec, policy.TierDestructive}} {
		if sp.spec.Tier != sp.want {
			t.Errorf("%s: tier %v; want %v", sp.spec.Name, sp.spec.Tier, sp.want)
		}
	}
}
