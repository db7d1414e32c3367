package policy

import "testing"

// TestBlindSpotVerbAfterOptionValue: programs whose first operand is the
// verb (systemd-sysext, systemd-confext, portablectl, rfkill) parse with
// getopt_long, so the word after a value-taking option, however spelled,
// is its value and the verb comes next: "portablectl -M list attach IMG"
// attaches in container list. portablectl -H runs ssh, as systemctl -H.
func TestBlindSpotVerbAfterOptionValue(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, prog := range []string{"systemd-sysext", "systemd-confext"} {
		for _, o := range []string{"--root status", "--ro status", "--roo=x", "--json short", "--js short", "--image-p x", "--noexec status", "--mut status"} {
			cmd := prog + " " + o + " merge"
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	for _, o := range []string{"-M list", "--mach list", "--machine list", "-p list", "--prof list", "--copy list", "--ext list", "-qM list"} {
		cmd := "portablectl " + o + " attach /tmp/x.raw"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	for _, o := range []string{"-o DEVICE", "--out DEVICE", "--output ID", "-no DEVICE", "-o list"} {
		cmd := "rfkill " + o + " block all"
		cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
	}
	cases = append(cases, sameCases(TierBenign, false, "portablectl --host db2 list", "portablectl -H db2 list", "portablectl --ho db2 list")...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"systemd-sysext status", "systemd-sysext --json short status", TierRead},
		{"systemd-sysext list", "systemd-sysext list", TierRead},
		{"portablectl list", "portablectl -M c list", TierRead},
		{"portablectl inspect", "portablectl --prof default inspect /tmp/x.raw", TierRead},
		{"rfkill list", "rfkill -o DEVICE list", TierRead},
		{"rfkill", "rfkill", TierRead},
	})
}
