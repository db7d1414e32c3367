package policy

import (
	"strings"
	"testing"
)

// blindCase expects a command to be at least tier min, and denied when deny
// is set (an undenied case must not be denied).
type blindCase struct {
	name string
	cmd  string
	min  Tier
	deny bool
}

// runBlind evaluates cases with p. A case with max set to a tier below
// TierDestructive also checks the tier does not exceed it.
func runBlind(t *testing.T, p *Policy, cases []blindCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := p.Evaluate(Input{Command: tc.cmd})
			if got.Tier < tc.min || got.Denied != tc.deny {
				t.Errorf("Evaluate(%q) = %s denied=%v (%s); want at least %s denied=%v", tc.cmd, got.Tier, got.Denied, got.Reason, tc.min, tc.deny)
			}
			if tc.deny && !strings.HasPrefix(got.Reason, "denied: ") {
				t.Errorf("reason %q does not say denied", got.Reason)
			}
		})
	}
}

// exactCase expects exactly a tier, for the forms that must stay usable.
type exactCase struct {
	name string
	cmd  string
	tier Tier
}

func runExact(t *testing.T, p *Policy, cases []exactCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := p.Evaluate(Input{Command: tc.cmd})
			if got.Tier != tc.tier || got.Denied {
				t.Errorf("Evaluate(%q) = %s denied=%v (%s); want %s", tc.cmd, got.Tier, got.Denied, got.Reason, tc.tier)
			}
		})
	}
}

// TestBlindSpotSingleUser: dropping to single-user mode is denied like a
// reboot, in every spelling of init, telinit and systemctl.
func TestBlindSpotSingleUser(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"init 1", "init 1", TierDestructive, true},
		{"init s", "init s", TierDestructive, true},
		{"init S", "init S", TierDestructive, true},
		{"telinit 1", "telinit 1", TierDestructive, true},
		{"telinit s", "telinit s", TierDestructive, true},
		{"telinit S", "telinit S", TierDestructive, true},
		{"telinit single", "telinit single", TierDestructive, true},
		{"telinit emergency", "telinit emergency", TierDestructive, true},
		{"telinit rescue", "telinit rescue", TierDestructive, true},
		{"absolute path", "/sbin/init 1", TierDestructive, true},
		{"quoted", `"tel"in'it' 'S'`, TierDestructive, true},
		{"sudo", "sudo -n telinit 1", TierDestructive, true},
		{"sh -c", "sh -c 'init s'", TierDestructive, true},
		{"exec", "exec /usr/sbin/telinit S", TierDestructive, true},
		{"xargs known input", "echo 1 | xargs telinit", TierDestructive, true},
		{"xargs quoted input", `echo "'S'" | xargs -r init`, TierDestructive, true},
		{"xargs replace", "printf 's\\n' | xargs -I@ telinit @", TierDestructive, true},
		{"variable", "L=1; init $L", TierDestructive, true},
		{"runlevel computed", "init $(cat /tmp/level)", TierDestructive, false},
		{"xargs unknown input", "cat /tmp/level | xargs init", TierDestructive, false},
		{"isolate rescue", "systemctl isolate rescue.target", TierDestructive, true},
		{"isolate emergency", "systemctl isolate emergency.target", TierDestructive, true},
		{"isolate runlevel1", "systemctl isolate runlevel1.target", TierDestructive, true},
		{"isolate without suffix", "systemctl isolate rescue", TierDestructive, true},
		{"isolate runlevel1 without suffix", "systemctl --no-block isolate runlevel1", TierDestructive, true},
		{"systemctl rescue", "systemctl rescue", TierDestructive, true},
		{"systemctl emergency", "systemctl emergency", TierDestructive, true},
		{"start rescue service", "systemctl start rescue.service", TierDestructive, true},
		{"start reboot service", "systemctl start systemd-reboot", TierDestructive, true},
		{"start poweroff service", "systemctl start systemd-poweroff.service", TierDestructive, true},
		{"ctrl-alt-del", "systemctl start ctrl-alt-del.target", TierDestructive, true},
		{"set-default rescue", "systemctl set-default rescue", TierDestructive, true},
		{"wrapped", "timeout 5 nice systemctl isolate emergency", TierDestructive, true},
		{"init other runlevel", "init 3", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"runlevel reads", "runlevel", TierRead},
		{"who -r reads", "who -r", TierRead},
		{"status of rescue", "systemctl status rescue.target", TierRead},
		{"isolate graphical is not denied", "systemctl isolate graphical", TierDestructive},
	})
}
