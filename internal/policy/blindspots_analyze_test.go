package policy

import "testing"

// TestBlindSpotAnalyzeVerifyMan: systemd-analyze verify runs "man SECTION
// PAGE" for each man: URL a unit's Documentation= lists, and a section
// such as -Hcmd makes man run cmd as its browser, so verifying a unit a
// tier 1 write could have made (under a temporary directory, relative to
// a temporary working directory, under a --root there, or at a place
// known only at run time) is tier 3 in every spelling; --man=no, and the
// system's own units, stay reads.
func TestBlindSpotAnalyzeVerifyMan(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierDestructive, false,
		"systemd-analyze verify /tmp/x.service", "systemd-analyze verify /tmp/x/x.service", `systemd-analyze verify "$u"`,
		"systemd-analyze verify $(ls /tmp/*.service)", "systemd-analyze verify --man=yes /tmp/x.service",
		"systemd-analyze verify --man=1 /var/tmp/x.service", "systemd-analyze verify --man $m /tmp/x.service",
		"systemd-analyze --root=/tmp/r verify x.service", "systemd-analyze --root /tmp/r verify x.service",
		"cd /tmp && systemd-analyze verify x.service", "cd /tmp/u && systemd-analyze verify ./x.service",
		"cd /tmp; systemd-analyze --no-pager verify u/x.socket", "systemd-analyze verify /dev/shm/x.timer",
		"systemd-analyze verify /var/tmp/a.service /etc/systemd/system/b.service", "systemd-analyze verify /etc/../tmp/x.service",
		"systemd-analyze verify /tmp/*.service", "systemd-analyze verify /tmp//x.path", "sudo systemd-analyze verify /tmp/x.service",
		"systemd-analyze --recursive-errors=yes verify /tmp/x.service", "find /tmp -name '*.service' -exec systemd-analyze verify {} +",
		"ls /tmp/*.service | xargs systemd-analyze verify",
	)
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"system unit", "systemd-analyze verify /etc/systemd/system/x.service", TierRead},
		{"unit by name", "systemd-analyze verify nginx.service", TierRead},
		{"system glob", "systemd-analyze verify /lib/systemd/system/*.service", TierRead},
		{"--man=no", "systemd-analyze verify --man=no /tmp/x.service", TierRead},
		{"--man no", "systemd-analyze verify --man no /tmp/x.service", TierRead},
		{"--man=false", "systemd-analyze --man=false verify /tmp/x.service", TierRead},
		{"security offline", "systemd-analyze security --offline=yes /tmp/x.service", TierRead},
		{"climb out of tmp", "systemd-analyze verify /tmp/../etc/x.service", TierRead},
		{"blame", "systemd-analyze blame", TierRead},
		{"calendar", "systemd-analyze calendar daily", TierRead},
	})
}

// TestBlindSpotSystemctlHelpMan: systemctl help runs man for each man: URL
// a unit's Documentation= lists, as systemd-analyze verify does, so a unit
// the agent could have written (a user's manager's, a container's, or one
// named only at run time) makes it tier 3; the system manager's units,
// which only a tier 3 link or write changes, stay reads.
func TestBlindSpotSystemctlHelpMan(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"systemctl --user help x", "systemctl --user help x.service", "systemctl --us help x",
		"systemctl --user --no-pager help x", "systemctl --user -- help x", "systemctl help --user x",
		"systemctl -M c help x", "systemctl -M u@ help x", "systemctl --machine=u@.host help x",
		"systemctl --machine c help x", `systemctl help "$u"`,
		`systemctl help $(cat /tmp/u)`, "sudo systemctl --user help x", "sudo -u bob systemctl --user help x",
		`u=x; systemctl --user help "$u"`, "systemctl --user help x || true",
	))
	runExactHosts(t, p, []exactCase{
		{"system unit", "systemctl help nginx", TierRead},
		{"system units", "systemctl help nginx.service sshd.service", TierRead},
		{"no pager", "systemctl --no-pager help nginx", TierRead},
		{"user status", "systemctl --user status x", TierRead},
		{"machine status", "systemctl -M c status x", TierRead},
		{"own help", "systemctl --help", TierRead},
	})
}
