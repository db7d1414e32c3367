package policy

import "testing"

// TestBlindSpotProgramsStoredForLater: a program a CLI's config set
// stores for its later runs (npm's, yarn's and pnpm's script shell, gh's
// and glab's pager, editor and browser, kubectl's exec credential plugin,
// aws's credential_process) and wget's askpass program meet the deny
// rules as the command they are: every later run, or this download,
// starts it. Harmless ones keep the call's own tier.
func TestBlindSpotProgramsStoredForLater(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"npm config set script-shell reboot", "npm config set script-shell=/sbin/reboot", "npm config set --global shell poweroff",
		"yarn config set script-shell reboot", "pnpm config set shell reboot", "npm config set editor reboot",
		"gh config set pager reboot", "gh config set editor 'sh -c reboot'", "gh config set -h github.com browser reboot",
		"glab config set browser reboot", "kubectl config set-credentials u --exec-command=reboot",
		"kubectl config set users.u.exec.command /sbin/poweroff", "aws configure set credential_process reboot",
		"aws configure set credential_process 'sh -c reboot'", "aws configure set profile.p.credential_process '/bin/sh -c \"poweroff\"'",
		"wget -e 'use_askpass=reboot' https://x", "wget -e useaskpass=/sbin/reboot https://x", "wget -e 'use_askpass = reboot' https://x",
		"wget --use-askpass=reboot https://x", "wget --use-askpass /usr/sbin/poweroff https://x", "wget --use-ask=reboot https://x",
	))
	runExactHosts(t, p, []exactCase{
		{"npm bash", "npm config set script-shell /bin/bash", TierMutate},
		{"gh less", "gh config set pager less", TierMutate},
		{"aws helper", "aws configure set credential_process '/usr/local/bin/creds --json'", TierMutate},
		{"aws helper in /tmp", "aws configure set credential_process '/tmp/creds --json'", TierDestructive},
		{"npm registry", "npm config set registry https://registry.example", TierMutate},
	})
}
