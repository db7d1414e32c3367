package policy

import "testing"

// TestBlindSpotOperandsAfterAbbreviatedValue: the programs whose first
// operand is their verb (coredumpctl, busctl, systemd-analyze) or whose
// operands are the files they change parse with getopt_long, which takes
// a value-taking long option in any abbreviation and a short one ending
// a cluster; the word after it is its value, not the verb or a file:
// "coredumpctl --dir list debug" runs gdb on a core.
func TestBlindSpotOperandsAfterAbbreviatedValue(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--dir", "--direc", "--director", "-D", "-qD", "--fil", "--fie", "--sin", "--unt", "--ro", "--ima"} {
		cases = append(cases, blindCase{"coredumpctl " + o + " list debug", "coredumpctl " + o + " list debug", TierDestructive, false})
	}
	call := " list call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager Reload"
	for _, o := range []string{"--mach", "--machi", "-M", "--addr", "--add", "--dest", "--mat", "--siz", "--tim", "--js", "--augment", "--expect", "--auto", "--allow", "--watch", "--limit"} {
		cases = append(cases, blindCase{"busctl " + o + call, "busctl " + o + call, TierMutate, false})
	}
	for _, o := range []string{"--mach", "--ro", "--roo", "--from-p", "--to-p", "--fu", "--iter", "--base", "--un", "--sec", "--thr", "--prof"} {
		cases = append(cases,
			blindCase{"systemd-analyze " + o + " verify log-level debug", "systemd-analyze " + o + " verify log-level debug", TierMutate, false},
			blindCase{"systemd-analyze " + o + " blame service-watchdogs no", "systemd-analyze " + o + " blame service-watchdogs no", TierMutate, false},
		)
	}
	cases = append(cases, sameCases(TierMutate, false,
		// mkdir's -Z/--context takes its value only attached.
		"mkdir --context /etc/x", "mkdir --context /srv/a /etc/b",
	)...)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"coredumpctl --dir list", "coredumpctl --dir /var/x list", TierRead},
		{"coredumpctl --sin info", "coredumpctl --sin today info", TierRead},
		{"coredumpctl -qD list", "coredumpctl -qD /x list", TierRead},
		{"busctl --mach list", "busctl --mach c list", TierRead},
		{"busctl --tim status", "busctl --tim 5 status", TierRead},
		{"busctl -M tree", "busctl -M c tree org.freedesktop.systemd1", TierRead},
		{"systemd-analyze --mach blame", "systemd-analyze --mach c blame", TierRead},
		{"systemd-analyze --ro cat-config", "systemd-analyze --ro /mnt cat-config foo", TierRead},
		{"systemd-analyze --thr security", "systemd-analyze --thr 5 security", TierRead},
		{"date --da", "date --da yesterday +%F", TierRead},
		{"date -ud", "date -ud yesterday +%s", TierRead},
		{"mkdir --mo", "mkdir --mo 700 /tmp/x", TierBenign},
		{"touch --da", "touch --da yesterday /tmp/x", TierBenign},
	})
}
