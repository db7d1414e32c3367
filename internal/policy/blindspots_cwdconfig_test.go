package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotPythonModulesFromCwd: python -m puts the working directory
// first on sys.path, so python3 -m json.tool in a directory holding a
// json.py written at tier 1 runs it. The -m read forms are tier 3 where
// the working directory is a temporary one or unknown, unless -I or -P
// leave it out.
func TestBlindSpotPythonModulesFromCwd(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/tmp", "/var/tmp/m", "/dev/shm", "/tmp/a/../b", "$d", "\"$(mktemp -d)\"", "x"} {
		for _, f := range []string{"cd %s && python3 -m json.tool f", "cd %s; python3 -m json.tool < f", "pushd %s && python3.12 -m json.tool",
			"cd %s && python3 -m pip list", "cd %s && python -m pip freeze", "cd %s && python3 -E -m json.tool f", "cd %s && sudo python3 -m json.tool f",
			"cd %s && cat f | python3 -m json.tool", "cd %s && timeout 5 python3 -s -m pip show x"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q"} {
		for _, c := range []string{"python3 -m json.tool f", "python3 -m pip list"} {
			if v := p.Evaluate(Input{Command: c, Dir: d}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q in %s) = %s (%s); want tier 3", c, d, v.Tier, v.Reason)
			}
		}
	}
	runExact(t, p, []exactCase{
		{"no directory named", "python3 -m json.tool f", TierRead},
		{"pipe", "cat f | python3 -m json.tool", TierRead},
		{"isolated", "cd /srv/app && python3 -I -m json.tool f", TierRead},
		{"safe path", "cd /srv/app && python3 -P -m json.tool f", TierRead},
		{"project dir", "cd /srv/app && python3 -m json.tool f", TierRead},
		{"pip list", "cd /srv/app && pip list", TierRead},
		// In a temporary directory python3 and pip may be a version
		// manager's shim, whatever the options (shims.go).
		{"isolated in /tmp", "cd /tmp/x && python3 -I -m json.tool f", TierDestructive},
		{"pip list in /tmp", "cd /tmp/x && pip list", TierDestructive},
	})
}

// TestBlindSpotNpmrcFromCwd: npm reads the project's .npmrc from the
// working directory, and every npm command writes a debug log into its
// logs-dir, so npm ls in a directory a tier 1 write made writes where
// that file says. In a temporary or unknown directory npm's reads are
// tier 2, as --logs-dir is.
func TestBlindSpotNpmrcFromCwd(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/p", "/dev/shm", "$d", "x"} {
		for _, f := range []string{"cd %s && npm ls", "cd %s; npm list --depth 0", "pushd %s && npm view left-pad", "cd %s && npm outdated",
			"cd %s && sudo npm ls", "cd %s && npm config list", "cd %s && timeout 9 npm ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierMutate, false, cmds...))
	if v := p.Evaluate(Input{Command: "npm ls", Dir: "/tmp/proj"}); v.Tier < TierMutate {
		t.Errorf("npm ls in /tmp/proj = %s (%s); want tier 2", v.Tier, v.Reason)
	}
	runExact(t, p, []exactCase{
		{"no directory named", "npm ls", TierRead},
		{"project dir", "cd /srv/app && npm ls", TierRead},
	})
}
