package policy

import "testing"

// TestBlindSpotPrefixOptions: options of parsers that take a prefix —
// getopt_long's systemd-tmpfiles, systemd-sysusers and systemd-dissect,
// iproute2's tc (any prefix, one dash or two) and nmcli (any prefix,
// the first option it begins winning) — count in every spelling, and a
// prefix of a value-taking nmcli option takes the next word.
func TestBlindSpotPrefixOptions(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, prog := range []string{"systemd-tmpfiles", "systemd-sysusers"} {
		for _, o := range []string{"--rep=/tmp/x.conf", "--repl /tmp/x.conf", "--replac=/tmp/x.conf", "--replace /tmp/x.conf"} {
			cases = append(cases, blindCase{prog + " " + o, prog + " " + o, TierDestructive, false})
		}
	}
	for _, o := range []string{"--wi", "--wit", "--with"} {
		cases = append(cases, blindCase{"systemd-dissect " + o, "systemd-dissect " + o + " /tmp/img.raw sh -c id", TierDestructive, false})
	}
	for _, o := range []string{"-b", "-ba", "-bat", "-batc", "-batch", "--ba", "--batch", "-ba=/tmp/f", "--bat=/tmp/f"} {
		cmd := "tc " + o + " /tmp/f"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	for _, o := range []string{"--fi", "--fie", "-fi", "-fields", "--fields", "-g", "--get", "-get-v", "-mo", "--mod", "-col", "--es", "-w", "--wa"} {
		for _, tail := range []string{"general networking off", "general radio all off", "device connection down x", "g connection delete x"} {
			cmd := "nmcli " + o + " " + tail
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"systemd-tmpfiles --cat", "systemd-tmpfiles --cat", TierRead},
		{"systemd-tmpfiles --cat-config", "systemd-tmpfiles --cat-config", TierRead},
		{"systemd-tmpfiles --create", "systemd-tmpfiles --create", TierMutate},
		{"systemd-sysusers --tl", "systemd-sysusers --tl", TierRead},
		{"systemd-dissect", "systemd-dissect /tmp/img.raw", TierMutate},
		{"tc qdisc show", "tc -s qdisc show dev eth0", TierRead},
		{"nmcli -t general", "nmcli -t general", TierRead},
		{"nmcli -p general status", "nmcli -p general status", TierRead},
		{"nmcli --mo tabular general", "nmcli --mo tabular general", TierRead},
		{"nmcli -f con show", "nmcli -f NAME,UUID connection show", TierRead},
		{"nmcli --fi dev status", "nmcli --fi DEVICE,STATE device status", TierRead},
		{"nmcli -te", "nmcli -terse device status", TierRead},
	})
}
