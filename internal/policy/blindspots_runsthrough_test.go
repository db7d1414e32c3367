package policy

import "testing"

// TestBlindSpotRunsThroughDenied: wrappers the classifier did not know
// (runcon, container inits, daemontools' envuidgid and pgrphack, nocache,
// s6-overlay's with-contenv, flatpak-spawn --host), a shell newgrp or sg
// opens on its input, and the variables naming a program run without a
// shell (the askpass programs, GIT_SSH, CVS_RSH) were tier 3 but not
// denied when what they run is denied, which open mode admits.
func TestBlindSpotRunsThroughDenied(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"runcon -t unconfined_t reboot",
		"runcon unconfined_u:unconfined_r:unconfined_t:s0 /sbin/reboot",
		"runcon --type=x -- poweroff",
		"tini -- reboot",
		"tini -s -e 143 shutdown -h now",
		"dumb-init --single-child reboot",
		"dumb-init -r 15:9 halt",
		"envuidgid root reboot",
		"pgrphack reboot",
		"nocache -n 2 reboot",
		"with-contenv poweroff",
		"flatpak-spawn --host reboot",
		"flatpak-spawn --host --env=A=1 /sbin/shutdown now",
		"newgrp wheel <<< reboot",
		"echo poweroff | newgrp -",
		"sg wheel <<< reboot",
		"SSH_ASKPASS=/sbin/reboot SSH_ASKPASS_REQUIRE=force ssh h",
		"SUDO_ASKPASS=/sbin/reboot sudo -A true",
		"export GIT_ASKPASS=/sbin/poweroff; git fetch",
		"GIT_SSH=/sbin/reboot git fetch",
		"env CVS_RSH=halt cvs up",
	))
	runExactHosts(t, p, []exactCase{
		{"runcon alone prints the context", "runcon", TierRead},
	})
	for _, c := range []string{"runcon -t x ls", "tini -- /usr/bin/app", "GIT_ASKPASS=/usr/bin/true git fetch", "newgrp wheel <<< id"} {
		for _, h := range classifierHosts {
			if v := p.Evaluate(Input{Command: c, Host: h}); v.Denied {
				t.Errorf("Evaluate(%q, host %q) denied (%s); want it not denied", c, h, v.Reason)
			}
		}
	}
}
