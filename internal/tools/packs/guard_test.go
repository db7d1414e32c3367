package packs

import (
	"maps"
	"slices"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// opaque hides a policy's type, so the guard cannot add rules to it and
// asks each rule set in turn, as it did before it merged them.
type opaque struct{ *policy.Policy }

// TestGuardMergedMatchesRuleByRule: one evaluation of the base policy with
// a host's deny rules added gives the verdict the base policy and each rule
// set asked in turn give — tier, denial, allow and reason — for ordinary
// commands, commands the base denies, commands an operator allow rule
// covers and commands a pack's or a host's rule denies, on hosts not
// probed, detected and with rules of their own.
func TestGuardMergedMatchesRuleByRule(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	base, err := policy.New(policy.Rules{
		Allow:   []string{`systemctl restart nginx`},
		Deny:    []string{`^curl .*evil\.example`},
		Protect: []string{"/root/.local/state/warden"},
		Home:    "/root",
	})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDetector(ps, nil, 0)
	d.cache["asus"] = []string{"asuswrt-merlin"}
	d.cache["nas"] = []string{"synology"}
	d.cache["owrt"] = []string{"openwrt"}
	d.cache["plain"] = nil
	merged, err := NewGuard(base, ps, d)
	if err != nil {
		t.Fatal(err)
	}
	each, err := NewGuard(opaque{base}, ps, d)
	if err != nil {
		t.Fatal(err)
	}
	hostRules := map[string][]string{"asus": {`^service restart_wan( |$)`}, "plain": {`^reboot`}}
	for _, g := range []*Guard{merged, each} {
		if err := g.SetHostDeny(hostRules); err != nil {
			t.Fatal(err)
		}
	}
	cmds := []string{
		"ls -la /var/log | grep x", "cat /etc/hosts", "df -h", "journalctl -u nginx --since today | tail -50",
		"echo hi", "uptime; free -m", "for f in /etc/*.conf; do head -1 \"$f\"; done", "ps aux | awk '{print $1}'",
		"systemctl restart nginx", "systemctl restart sshd", "rm -rf /", "rm -rf /tmp/x", "mkdir -p /tmp/a",
		"cat /root/.local/state/warden/token", "curl -s https://evil.example/x", "curl -s https://example.com",
		"nvram erase", "nvram get productid", "service reboot", "service restart_wan", "true && service restart_wan",
		"service restart_dnsmasq", "firstboot -y", "mtd -r erase rootfs_data", "sysupgrade -n /tmp/fw.bin",
		"ubus call system reboot", "ubus call network.interface.wan status", "synodsdefault --reset",
		"echo nvram erase | sh", `eval "nvram erase"`, "n=nvram; $n erase", `"nv"ram erase`, "reboot", "sudo reboot",
		"python3 -c 'print(1)'", "sh -c 'nvram erase'", "cat <<EOF | sh\nnvram erase\nEOF", "x=$(ls); echo $x",
	}
	for _, host := range []string{"unprobed", "asus", "nas", "owrt", "plain", "local", ""} {
		for _, c := range cmds {
			in := policy.Input{Command: c, Host: host}
			if got, want := merged.Evaluate(in), each.Evaluate(in); got != want {
				t.Errorf("%q on %q: merged %+v, rule by rule %+v", c, host, got, want)
			}
		}
	}
	// One merged policy per set of rules: the unprobed hosts (unprobed,
	// local and "") share one; asus and plain have rules of their own; nas
	// and owrt each have their packs'.
	if len(merged.merged) != 5 {
		t.Errorf("%d merged policies, want 5 (one per set of rules): %q", len(merged.merged), slices.Collect(maps.Keys(merged.merged)))
	}
	for k, p := range each.merged {
		if p != nil {
			t.Errorf("merged rules into a policy it cannot see (%q)", k)
		}
	}
	// A reload's policy replaces the merged ones.
	in := policy.Input{Command: "systemctl restart nginx", Host: "asus"}
	if v := merged.Evaluate(in); !v.Allowed {
		t.Fatalf("allow rule not applied: %+v", v)
	}
	reloaded, _ := policy.New(policy.Rules{})
	merged.SetBase(reloaded)
	if v := merged.Evaluate(in); v.Allowed {
		t.Errorf("the policy before the reload still answers: %+v", v)
	}
}
