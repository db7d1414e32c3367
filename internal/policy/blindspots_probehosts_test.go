package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotProbeDestinations: scanners, probes and SNMP, NTP, SMB and
// rsync-daemon clients reach the hosts their operands name, as curl its
// URL's, so a denied host (in any notation, inside a scanned range, after
// //, \\ or before ::) is denied there too.
func TestBlindSpotProbeDestinations(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, h := range []string{"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518",
		"[::ffff:169.254.169.254]", "10.1.2.3", "metadata.google.internal", "db.internal", "fd00::1"} {
		for _, f := range []string{
			"nmap %s", "nmap -sV -p 80,443 %s", "sudo nmap -sS %s", "masscan -p80 %s", "arping -c1 %s", "fping %s",
			"hping3 -S -p 80 %s", "tcptraceroute %s 443", "nping --tcp %s", "ntpdate -q %s", "sntp %s", "ntpq -p %s",
			"snmpwalk -v2c -c public %s", "snmpget -v1 -c public %s sysName.0", "smbclient -L %s -N",
			"smbclient //%s/share -N", "rpcclient -U '' %s", "nmblookup -A %s", "iperf3 -c %s", "iperf3 --client=%s",
			"iperf -c%s", "chronyc -h %s sources", "rsync %s::module /tmp/x", "rsync -av %s::m/ /tmp/x",
			"timeout 5 nmap %s", "sh -c 'nmap %s'",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", h))
		}
	}
	cmds = append(cmds, `smbclient '\\169.254.169.254\share' -N`, "nmap 169.254.0.0/16", "nmap 169.254.169.1-255",
		"nmap '169.254.*.*'", "fping -g 169.254.169.0/24", "masscan 0.0.0.0/0 -p80", "nmap 10.0.0.0/24", "zmap -p 80 10.0.0.0/8",
		"nmap 10.0.*.*")
	runBlind(t, p, sameCases(TierDestructive, true, cmds...))
	runExact(t, p, []exactCase{
		{"chronyc local", "chronyc sources", TierRead},
		{"traceroute lan", "traceroute 192.168.1.1", TierRead},
	})
	for _, c := range []string{"nmap 192.168.1.0/24", "nmap 192.168.1.1-20", "fping -g 192.168.1.0/24", "rsync -a /srv/ backup::data",
		"snmpwalk -v2c -c public 192.168.1.1 1.3.6.1.2.1.1", "iperf3 -c 192.168.1.5 -t 10", "smbclient -L nas -N"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) denied: %s", c, v.Reason)
		}
	}
}
