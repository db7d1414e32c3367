package policy

import "testing"

// TestBlindSpotSubcommandAfterAbbreviatedValue: getopt_long (and Python's
// argparse, optparse and getopt) take a long option in any unambiguous
// abbreviation and a short one at the end of a cluster, and either takes
// the next word as its value. The verb is the word after that value:
// "systemctl --mach c help x" is help on container c, not the verb c.
// The verb is found so for the tier and for the denials alike.
func TestBlindSpotSubcommandAfterAbbreviatedValue(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--mach c", "--machi c", "--machin c", "-qM c", "-qM c --no-pager"} {
		cases = append(cases, sameCases(TierDestructive, false,
			"systemctl "+o+" help x",
			"systemctl "+o+" stop sshd",
			"systemctl "+o+" disable ssh.service",
			"loginctl "+o+" terminate-user bob",
		)...)
	}
	// Each option alone: its value is the read verb after it.
	for _, o := range []string{"--ty", "--typ", "--pro", "--prop", "--proper", "-p", "-qp", "--property", "-t", "-at",
		"--sta", "--li", "-qn", "--out", "--sig", "--ki", "--ro", "--ho", "--legend", "--check-i", "--ti", "--whe", "--job-m"} {
		cases = append(cases,
			blindCase{"systemctl " + o + " x stop sshd", "systemctl " + o + " x stop sshd", TierDestructive, false},
			blindCase{"systemctl " + o + " status reboot", "systemctl " + o + " status reboot", TierDestructive, true},
			blindCase{"systemctl " + o + " show isolate rescue", "systemctl " + o + " show isolate rescue", TierDestructive, true},
			blindCase{"systemctl " + o + " cat poweroff", "systemctl " + o + " cat poweroff", TierDestructive, true},
		)
	}
	cases = append(cases, sameCases(TierDestructive, true,
		"loginctl -p status poweroff", "loginctl --prop status poweroff", "loginctl --sig status reboot",
		"systemctl -p --user exit", "systemctl --prop --user exit", "systemctl -p --us exit",
	)...)
	cases = append(cases, sameCases(TierDestructive, false,
		"timedatectl --mach c set-time 2020-01-01", "timedatectl --prop x set-time 2020-01-01", "timedatectl -p x set-time 2020-01-01",
		"networkctl --li 5 down eth0", "networkctl -n 5 down eth0", "networkctl --lin=5 --js short down eth0",
		"resolvectl --proto status revert", "resolvectl -p status revert",
		"pip --prox x uninstall -y foo", "pip --ti 5 uninstall foo", "pip --trusted h uninstall foo",
	)...)
	cases = append(cases, sameCases(TierMutate, false,
		"hostnamectl --mach c set-hostname x", "hostnamectl --js short set-hostname x",
		"dnf --set x=1 remove foo", "dnf --exc x remove foo", "yum --releasev 9 remove foo",
	)...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"systemctl --no-pager", "systemctl --no-pager status nginx", TierRead},
		{"systemctl --us", "systemctl --us status x", TierRead},
		{"systemctl --user", "systemctl --user status x", TierRead},
		{"systemctl --li", "systemctl --li 50 status nginx", TierRead},
		{"systemctl -qn5", "systemctl -qn5 status nginx", TierRead},
		{"systemctl -qn 5", "systemctl -qn 5 status nginx", TierRead},
		{"systemctl --sta", "systemctl --sta failed list-units", TierRead},
		{"systemctl --state", "systemctl --state failed", TierRead},
		{"systemctl --prop", "systemctl --prop Id show nginx", TierRead},
		{"systemctl -T", "systemctl -T status nginx", TierRead},
		{"loginctl --ki", "loginctl --no-legend list-sessions", TierRead},
		{"loginctl -pId", "loginctl -pId show-session 1", TierRead},
		{"timedatectl --prop", "timedatectl --prop NTP show", TierRead},
		{"networkctl --li", "networkctl --li 5 status", TierRead},
		{"resolvectl --proto", "resolvectl --proto dns query example.com", TierRead},
		{"pip --ti", "pip --ti 5 list", TierRead},
		{"dnf --setop", "dnf --setop x=1 list", TierRead},
	})
}
