package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotNpmShorthandPrefix: npm's -C is nopt's shorthand for
// --prefix (npm 11 took -C DIR, --C DIR, -C=DIR and -gC DIR as the
// project directory, reading its .npmrc), so every spelling of it naming
// a directory a tier 1 write may have filled is judged as --prefix is:
// tier 3, where a read took it for an unknown word and stayed tier 0 or
// only the scripts it runs were checked.
func TestBlindSpotNpmShorthandPrefix(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/n", "/run/lock/r", "$d"} {
		for _, f := range []string{"npm ls -C %s", "npm -C %s ls", "npm ls --C %s", "npm ls -C=%s", "npm ls --C=%s",
			"npm ls -gC %s", "npm config get prefix -C %s", "npm view x -C %s", "npm -dC %s outdated",
			"npm --C %s run build", "npm -gC %s test", "sudo npm ls --C=%s", "timeout 9 npm -lC %s explain x"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's prefix", "npm ls -C /srv/app", TierRead},
		{"operator's prefix, long", "npm ls --C=/srv/app", TierRead},
		{"global", "npm ls -g", TierRead},
		{"plain", "npm ls", TierRead},
		{"view", "npm view react version", TierRead},
	})
}
