package policy

import "testing"

// TestBlindSpotComputedProbeDestinations: with host rules set, a probe's
// destination known only at run time may be a host they deny, as a web
// client's computed host is (tier 3). ping, traceroute, tracepath, mtr and
// the scanners go to their operand; dig to @SERVER, host and nslookup to
// their second operand. What a resolver is asked (dig "$name") is not a
// destination, and without host rules nothing changes.
func TestBlindSpotComputedProbeDestinations(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ping -c 1 "$h"`, `ping "$(cat /tmp/h)"`, `ping6 -c1 "$h"`,
		`traceroute "$h"`, `traceroute -n "$h"`, `tracepath "$h"`, `mtr -r "$h"`,
		`dig @"$srv" example.com`, `dig example.com @$srv`, `host example.com "$srv"`, `nslookup example.com "$srv"`,
		`nmap "$net"`, `fping "$h"`, `arping -c1 "$h"`, `snmpwalk -v2c -c public "$h"`, `ntpdate -q "$h"`,
	))
	runExactHosts(t, p, []exactCase{
		{"dig name", `dig +short "$name"`, TierRead},
		{"host name", `host "$name"`, TierRead},
		{"nslookup name", `nslookup "$n"`, TierRead},
		{"ping literal", `ping -c 1 8.8.8.8`, TierRead},
		{"ping loop", `for h in web1 db1; do ping -c1 "$h"; done`, TierRead},
	})
	// Without host rules, a computed destination keeps its tier.
	noRules, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{`traceroute "$h"`, `dig @"$srv" example.com`, `tracepath "$h"`} {
		if v := noRules.Evaluate(Input{Command: c}); v.Tier != TierRead {
			t.Errorf("no host rules: Evaluate(%q) = %s (%s); want tier 0", c, v.Tier, v.Reason)
		}
	}
}

// TestBlindSpotPCIConfigDump: lspci -xxx (three x's in any spelling, or
// a word computed at run time that can become them) reads the whole PCI
// configuration space, which lspci's manual warns crashes some devices.
func TestBlindSpotPCIConfigDump(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`lspci -xxx`, `lspci -xxxx`, `lspci -vxxx`, `lspci -x -x -x`, `lspci -xx -x`, `lspci -s 00:1f.0 -xxx`,
		`read o; lspci $o`, `sudo lspci -xxx`,
	))
	runExactHosts(t, p, []exactCase{
		{"plain", `lspci`, TierRead}, {"-x", `lspci -x`, TierRead}, {"-xx", `lspci -xx`, TierRead},
		{"-vvv", `lspci -vvv`, TierRead}, {"-nnk", `lspci -nn -k`, TierRead},
	})
}
