package host

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
)

func checkOf(t *testing.T, d Diagnosis, name string) Check {
	t.Helper()
	for _, c := range d.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s check in %+v", name, d)
	return Check{}
}

// planTier0 asserts every command firewall_diagnose declares is tier 0.
func planTier0(t *testing.T, d *Deps) {
	t.Helper()
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.planDiagnose(context.Background(), nil, &HostArg{})
	if err != nil {
		t.Fatal(err)
	}
	if v := pol.Evaluate(p.Input); v.Tier != policy.TierRead || v.Denied {
		t.Fatalf("firewall_diagnose's commands are %v (%s); want tier 0:\n%s", v.Tier, v.Reason, p.Input.Command)
	}
}

// TestFirewallDiagnoseNetns runs the checklist for real inside a network
// namespace: nftables filtering with warden's set, a socket listening on
// every address, no tailscale, and two rule files of which one does not
// parse.
func TestFirewallDiagnoseNetns(t *testing.T) {
	ns := netns(t, "nft", "iptables", "ip6tables", "iptables-restore", "python3")
	path := pathWith(t, "sh", "ip", "nft", "iptables", "ip6tables", "iptables-restore", "ip6tables-restore", "ss", "uname", "printenv")
	d := nsDeps(ns, path)
	dir := t.TempDir()
	good := filepath.Join(dir, "nftables.conf")
	bad := filepath.Join(dir, "iptables", "rules.v4")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(good, []byte("table inet t {\n\tchain c {\n\t\ttype filter hook input priority 0; policy accept;\n\t}\n}\n"), 0o644)
	os.WriteFile(bad, []byte("*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -p tcp --dprt 22 -j ACCEPT\nCOMMIT\n"), 0o644)
	d.RuleFiles = []string{good, bad, filepath.Join(dir, "pf.conf")}
	planTier0(t, d)

	runBlock(t, d.planBlock, BlockArgs{Address: "203.0.113.7"})
	ls := exec.Command("ip", "netns", "exec", ns, "python3", "-c",
		"import socket,time\ns=socket.socket()\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\ns.bind(('0.0.0.0',18080))\ns.listen()\ntime.sleep(120)")
	if err := ls.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ls.Process.Kill(); ls.Wait() })
	for i := 0; ; i++ {
		if strings.Contains(nsOut(t, ns, "ss", "-Htln"), ":18080") {
			break
		}
		if i == 300 {
			t.Fatal("the listener did not appear within 30s")
		}
		time.Sleep(100 * time.Millisecond)
	}

	p, err := d.planDiagnose(context.Background(), nil, &HostArg{})
	if err != nil {
		t.Fatal(err)
	}
	res := p.Run(context.Background()).Result.(Diagnosis)
	if testing.Verbose() {
		b, _ := json.MarshalIndent(res, "", "  ")
		t.Logf("%s", b)
	}
	if res.Platform != "linux" || res.Verdict != VerdictFail {
		t.Fatalf("diagnosis = %+v; want linux, fail (a rule file does not parse)", res)
	}
	if c := checkOf(t, res, "firewall"); c.Verdict != VerdictOK || !strings.Contains(c.Detail, "nft") {
		t.Errorf("firewall = %+v; want ok, filtering by nft", c)
	}
	c := checkOf(t, res, "tables")
	sets, _ := c.Data["nftables"].([]NftSet)
	found := false
	for _, s := range sets {
		if s.Table == DefaultNFTTable && s.Name == "block_v4" && s.Elements == 1 {
			found = true
		}
	}
	if c.Verdict != VerdictOK || !found {
		t.Errorf("tables = %+v; want warden's block_v4 with one element", c)
	}
	c = checkOf(t, res, "listeners")
	socks, _ := c.Data["listeners"].([]Socket)
	found = false
	for _, s := range socks {
		if s.Port == 18080 && s.Scope == "all" {
			found = true
		}
	}
	if c.Verdict != VerdictOK || !found {
		t.Errorf("listeners = %+v; want ok (filtered) with 18080 on every address", c)
	}
	if c := checkOf(t, res, "tailnet"); c.Verdict != VerdictOK || !strings.Contains(c.Detail, "no tailscale") {
		t.Errorf("tailnet = %+v; want ok, nothing to check", c)
	}
	c = checkOf(t, res, "rule_file")
	if c.Verdict != VerdictFail || !strings.Contains(c.Detail, bad) || strings.Contains(c.Detail, good) || !strings.Contains(strings.Join(c.Commands, "\n"), "iptables-restore --test "+bad) {
		t.Errorf("rule_file = %+v; want fail naming %s only", c, bad)
	}

	// Without the bad file the rule file check passes, and with no
	// firewall rules left the listener becomes a warning.
	os.Remove(bad)
	nsOut(t, ns, "nft", "flush", "ruleset")
	res = p.Run(context.Background()).Result.(Diagnosis)
	if c := checkOf(t, res, "rule_file"); c.Verdict != VerdictOK {
		t.Errorf("rule_file with a good file = %+v; want ok", c)
	}
	if c := checkOf(t, res, "firewall"); c.Verdict != VerdictWarn {
		t.Errorf("firewall with an empty ruleset = %+v; want warn", c)
	}
	if c := checkOf(t, res, "listeners"); c.Verdict != VerdictWarn {
		t.Errorf("listeners with nothing filtering = %+v; want warn", c)
	}
}

// TestFirewallDiagnoseFreeBSD runs the checklist against a FreeBSD host
// answering from captured output (pfctl-info, pfctl-rules,
// pfctl-table-show, pfctl-nf-error, sockstat-46s).
func TestFirewallDiagnoseFreeBSD(t *testing.T) {
	var unexpected []string
	rec := &recorder{reply: func(argv []string) runner.Result {
		j := strings.Join(argv, " ")
		switch {
		case j == "uname -s":
			return runner.Result{Stdout: []byte("FreeBSD\n")}
		case argv[0] == "sh" && strings.Contains(argv[2], "command -v"):
			return runner.Result{Stdout: []byte("pfctl\n")}
		case argv[0] == "sh":
			return runner.Result{Stdout: []byte("/etc/pf.conf\n")}
		case j == "pfctl -s info":
			return runner.Result{Stdout: []byte(fixture(t, "pfctl-info"))}
		case j == "pfctl -s rules":
			return runner.Result{Stdout: []byte(fixture(t, "pfctl-rules"))}
		case j == "pfctl -s Tables":
			// Table names one per line, as pfctl prints them (constructed).
			return runner.Result{Stdout: []byte("bruteforce\nsshguard\n")}
		case strings.HasSuffix(j, "-T show"):
			return runner.Result{Stdout: []byte(fixture(t, "pfctl-table-show"))}
		case j == "sockstat -4 -6 -l":
			return runner.Result{Stdout: []byte(fixture(t, "sockstat-46s"))}
		case j == "ifconfig tailscale0":
			return runner.Result{ExitCode: 1, Stderr: []byte("ifconfig: interface tailscale0 does not exist\n")}
		case j == "pfctl -n -f /etc/pf.conf":
			return runner.Result{ExitCode: 1, Stderr: []byte(fixture(t, "pfctl-nf-error"))}
		}
		unexpected = append(unexpected, j)
		return runner.Result{ExitCode: 1, Stderr: []byte("unexpected " + j)}
	}}
	d := depsWith(rec)
	planTier0(t, d)
	host, _ := d.Hosts(context.Background(), "local")
	res := d.diagnose(context.Background(), host)
	if res.Platform != "freebsd" || res.Verdict != VerdictFail {
		t.Fatalf("diagnosis = %+v; want freebsd, fail", res)
	}
	if c := checkOf(t, res, "firewall"); c.Verdict != VerdictOK || c.Detail != "filtering: pfctl" {
		t.Errorf("firewall = %+v; want ok (pf enabled)", c)
	}
	c := checkOf(t, res, "tables")
	sizes, _ := c.Data["pf"].([]PfTableSize)
	if c.Verdict != VerdictOK || len(sizes) != 2 || sizes[0].Name != "bruteforce" || sizes[0].Entries != 1 {
		t.Errorf("tables = %+v; want bruteforce and sshguard with one entry each", c)
	}
	c = checkOf(t, res, "listeners")
	if socks, _ := c.Data["listeners"].([]Socket); c.Verdict != VerdictOK || len(socks) != 2 || socks[0].Port != 22 || socks[0].Scope != "all" || socks[0].Processes[0] != "sshd/1718" {
		t.Errorf("listeners = %+v; want ok, sshd on *:22 twice (tcp6, tcp4)", c)
	}
	if c := checkOf(t, res, "tailnet"); c.Verdict != VerdictOK {
		t.Errorf("tailnet = %+v; want ok (no tailscale)", c)
	}
	if c := checkOf(t, res, "rule_file"); c.Verdict != VerdictFail || !strings.Contains(c.Detail, "could not parse host specification") {
		t.Errorf("rule_file = %+v; want fail with pfctl's message", c)
	}
	if len(unexpected) > 0 {
		t.Errorf("commands a FreeBSD diagnosis should not run: %q", unexpected)
	}
	if testing.Verbose() {
		b, _ := json.MarshalIndent(res, "", "  ")
		t.Logf("%s", b)
	}
}
