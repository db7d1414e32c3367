package packs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

func TestBuiltinPacksLoad(t *testing.T) {
	ps, err := Load(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, " "), "asuswrt-merlin freebsd openwrt pfsense synology"; got != want {
		t.Errorf("built-in packs %q, want %q", got, want)
	}
}

func writePack(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pack.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOperatorPacks: an operator file adds a pack or replaces a built-in
// of its name; a bad file is refused with every problem named.
func TestOperatorPacks(t *testing.T) {
	add := writePack(t, `name: edgeos
family: router
description: Ubiquiti EdgeOS.
detect: {argv: [cat, /etc/version], match: '^EdgeRouter'}
deny: ['^(reset-config|factory-reset)( |$)']
tools:
  - name: dhcp_leases
    description: Leases.
    parse: dhcp_leases
    steps: [{id: leases, argv: [cat, /var/run/dhcpd.leases]}]
`)
	ps, err := Load(Options{Files: []string{add}})
	if err != nil {
		t.Fatal(err)
	}
	if ps[len(ps)-1].Name != "edgeos" || ps[len(ps)-1].builtin {
		t.Errorf("operator pack not added: %v", ps[len(ps)-1].Name)
	}

	replace := writePack(t, `name: openwrt
family: router
description: Mine.
detect: {argv: [cat, /etc/openwrt_release], match: OpenWrt}
`)
	ps, err = Load(Options{Files: []string{replace}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Name == "openwrt" && (p.builtin || len(p.Tools) != 0) {
			t.Error("openwrt not replaced by the operator's pack")
		}
	}

	bad := []struct{ name, body, want string }{
		{"unknown key", "name: x\nfamily: router\ncolour: red\n", "colour"},
		{"family", "name: x\nfamily: toaster\ndetect: {argv: [true], match: x}\n", "family"},
		{"deny regex", "name: x\nfamily: nas\ndetect: {argv: [true], match: x}\ndeny: ['(']\n", "deny"},
		{"parser", "name: x\nfamily: nas\ndetect: {argv: [true], match: x}\ntools: [{name: t, description: d, parse: nope, steps: [{id: a, argv: [true]}]}]\n", "not a parser"},
		{"placeholder", "name: x\nfamily: nas\ndetect: {argv: [true], match: x}\ntools: [{name: t, description: d, parse: action, steps: [{id: a, argv: [echo, '{who}']}]}]\n", "{who} is not a param"},
		{"approval in operator pack", "name: x\nfamily: nas\ndetect: {argv: [true], match: x}\ntools: [{name: t, description: d, tier: 3, approval: yes, parse: action, steps: [{id: a, argv: [reboot]}]}]\n", "approval is only"},
		{"enum value", "name: x\nfamily: nas\ndetect: {argv: [true], match: x}\ntools: [{name: t, description: d, parse: action, params: [{name: s, kind: enum, enum: ['-rf']}], steps: [{id: a, argv: [echo, '{s}']}]}]\n", "enum value"},
		{"shared tool differs", "name: x\nfamily: router\ndetect: {argv: [true], match: x}\ntools: [{name: dhcp_leases, description: d, tier: 2, parse: dhcp_leases, steps: [{id: leases, argv: [true]}]}]\n", "differs"},
	}
	for _, b := range bad {
		_, err := Load(Options{Files: []string{writePack(t, b.body)}})
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want one naming %q", b.name, err, b.want)
		}
	}
	if _, err := Load(Options{Disable: []string{"no_such_tool"}}); err == nil {
		t.Error("disabling an unknown tool was accepted")
	}
	if _, err := Load(Options{Disable: []string{"reboot", "appliance_packs"}}); err != nil {
		t.Errorf("disable reboot: %v", err)
	}
}

// TestParamValues: parameters only ever become safe argv words.
func TestParamValues(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var diag *Tool
	for _, p := range ps {
		for i := range p.Tools {
			if p.Name == "openwrt" && p.Tools[i].Name == "diagnostics" {
				diag = &p.Tools[i]
			}
		}
	}
	ok := []map[string]any{
		{"host": "r", "tool": "ping", "target": "example.com"},
		{"host": "r", "tool": "ping", "target": "192.0.2.1", "count": float64(10)},
		{"host": "r", "tool": "nslookup", "target": "2001:db8::1"},
		{"host": "r", "tool": "traceroute", "target": "host-1.lan."},
	}
	for _, a := range ok {
		if _, err := diag.values(a); err != nil {
			t.Errorf("%v: %v", a, err)
		}
	}
	bad := []map[string]any{
		{"host": "r", "tool": "ping", "target": "-oProxyCommand=x"},
		{"host": "r", "tool": "ping", "target": "a;reboot"},
		{"host": "r", "tool": "ping", "target": "$(reboot)"},
		{"host": "r", "tool": "ping", "target": "2852039166"},
		{"host": "r", "tool": "ping", "target": "0x7f.1"},
		{"host": "r", "tool": "ping", "target": "fe80::1%eth0"},
		{"host": "r", "tool": "ping", "target": "a\nb"},
		{"host": "r", "tool": "ping", "target": strings.Repeat("a", 300)},
		{"host": "r", "tool": "ping", "target": "x.com", "count": float64(11)},
		{"host": "r", "tool": "ping", "target": "x.com", "count": float64(0)},
		{"host": "r", "tool": "ping", "target": "x.com", "count": 1.5},
		{"host": "r", "tool": "sh", "target": "x.com"},
		{"host": "r", "target": "x.com"},
		{"host": "r", "tool": "ping", "target": "x.com", "extra": "y"},
	}
	for _, a := range bad {
		if _, err := diag.values(a); err == nil {
			t.Errorf("%q accepted", a)
		}
	}
	v, _ := diag.values(map[string]any{"host": "r", "tool": "ping", "target": "x.com"})
	argv, err := expand(diag.Steps[0].Argv, v, "")
	if err != nil || strings.Join(argv, " ") != "ping -c 3 -W 2 x.com" {
		t.Errorf("ping argv %q (%v)", argv, err)
	}
}

// TestDetectorMatch reads the detection script's output: a pack is
// detected when its probe exited 0 and its output matches.
func TestDetectorMatch(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDetector(ps, nil, 0)
	out := marker + " asuswrt-merlin\nRT-AX86U\n" + marker + " rc 0\n" +
		marker + " freebsd\nLinux\n" + marker + " rc 0\n" +
		marker + " openwrt\n" + marker + " rc 1\n" +
		marker + " pfsense\npfSense\n" + marker + " rc 1\n" +
		marker + " synology\n" + marker + " rc 1\n"
	if got := strings.Join(d.match(out), " "); got != "asuswrt-merlin" {
		t.Errorf("detected %q, want asuswrt-merlin", got)
	}
	// The script is every probe, quoted once; it parses and reads as
	// tier 0 to the classifier.
	p, _ := policy.New(policy.Rules{})
	if v := p.Evaluate(policy.Input{Argv: d.Argv()}); v.Tier != policy.TierRead {
		t.Errorf("detection script: tier %d (%s), want 0", v.Tier, v.Reason)
	}
}

// TestGuard: a pack's deny rules apply on hosts where it was detected and
// on hosts not probed yet, not on hosts where other packs were found.
func TestGuard(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := policy.New(policy.Rules{})
	d := NewDetector(ps, nil, 0)
	g, err := NewGuard(base, ps, d)
	if err != nil {
		t.Fatal(err)
	}
	d.cache["asus"] = []string{"asuswrt-merlin"}
	d.cache["nas"] = []string{"synology"}
	d.cache["owrt"] = []string{"openwrt"}
	tests := []struct {
		host, cmd string
		denied    bool
	}{
		{"unprobed", "nvram erase", true},
		{"unprobed", "service reboot", true},
		{"unprobed", "firstboot -y", true},
		{"asus", "nvram erase", true},
		{"asus", "service restart_reboot", true},
		{"asus", "nvram set restore_defaults=1", true},
		{"asus", "mtd-write -i fw -d linux", true},
		{"asus", "echo ok && busybox sh -c 'nvram erase'", true},
		{"asus", "n=nvram; $n erase", true},
		{"asus", `"nv"ram erase`, true},
		{"asus", "/usr/sbin/nvram   erase", true},
		{"asus", "echo nvram erase | sh", true},
		{"asus", `eval "nvram erase"`, true},
		{"asus", "x=$(nvram erase)", true},
		{"asus", "env nvram erase", true},
		{"asus", "nohup service reboot &", true},
		{"asus", "nvram get productid", false},
		{"asus", "service restart_dnsmasq", false},
		{"owrt", "mtd -r erase rootfs_data", true},
		{"owrt", "sysupgrade -n /tmp/fw.bin", true},
		{"owrt", "jffs2reset -y", true},
		{"owrt", "ubus call system reboot", true},
		{"owrt", "ubus call network.interface.wan status", false},
		{"nas", "service reboot", false},
		{"nas", "synodsdefault --reset", true},
	}
	for _, tt := range tests {
		v := g.Evaluate(policy.Input{Command: tt.cmd, Host: tt.host})
		if v.Denied != tt.denied {
			t.Errorf("%s on %s: denied %v (%s), want %v", tt.cmd, tt.host, v.Denied, v.Reason, tt.denied)
		}
	}
	if err := g.SetHostDeny(map[string][]string{"asus": {`^service restart_wan( |$)`}}); err != nil {
		t.Fatal(err)
	}
	if v := g.Evaluate(policy.Input{Command: "true && service restart_wan", Host: "asus"}); !v.Denied || !strings.Contains(v.Reason, "host asus") {
		t.Errorf("host deny rule: %+v", v)
	}
	if v := g.Evaluate(policy.Input{Command: "service restart_wan", Host: "owrt"}); v.Denied {
		t.Errorf("another host's deny rule applied: %+v", v)
	}
	if err := g.SetHostDeny(map[string][]string{"asus": {"("}}); err == nil {
		t.Error("an invalid host deny rule was accepted")
	}
	if v := g.Evaluate(policy.Input{Command: "service restart_wan", Host: "asus"}); !v.Denied {
		t.Error("a failed SetHostDeny dropped the rules in force")
	}
	d.Forget()
	if v := g.Evaluate(policy.Input{Command: "nvram erase", Host: "nas"}); !v.Denied {
		t.Error("after Forget, an unprobed host is not held to every pack's rules")
	}
}
