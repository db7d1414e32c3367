package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotNixFlakeOperands: nix develop runs a flake's shellHook,
// nix run and nix shell its programs, nix flake and nix eval its Nix code
// (and what import-from-derivation builds). The flake or file is named by
// an operand in any of its reference forms or by -f, so one under a
// temporary directory, or known only at run time, runs what a tier 1
// write left there, as nix-shell /tmp/x/shell.nix does.
func TestBlindSpotNixFlakeOperands(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/f", "/dev/shm/q", "/tmp", "/private/tmp/x", "/tmp/x/../y"} {
		for _, ref := range []string{"%s", "%s#dev", "path:%s", "'path:%s?dir=sub'", "git+file://%s", "'git+file://%s?ref=main'", "file://%s"} {
			r := strings.ReplaceAll(ref, "%s", d)
			for _, f := range []string{"nix flake show %s", "nix flake check %s", "nix flake metadata %s", "nix develop %s",
				"nix develop %s -c ls", "nix run %s", "nix shell %s -c hello", "nix build %s", "nix eval %s#x", "nix print-dev-env %s",
				"sudo nix develop %s", "nix --extra-experimental-features flakes develop %s"} {
				cmds = append(cmds, strings.ReplaceAll(f, "%s", r))
			}
		}
		for _, f := range []string{"nix eval -f %s/x.nix", "nix build -f %s", "nix build --file %s/default.nix", "nix-build %s",
			"nix-shell %s/shell.nix --run ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "nix develop \"$d\"", "nix run \"$(mktemp -d)\"", "cd /tmp/x && nix develop", "cd /tmp/x && nix flake show",
		"cd /tmp/x && nix build .#x", "cd / && nix develop tmp/x")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"a registry flake", "nix run nixpkgs#hello", TierMutate},
		{"a forge flake", "nix flake show github:owner/repo", TierMutate},
		{"the operator's flake", "nix build 'git+file:///srv/app?ref=main'", TierMutate},
		{"a relative flake", "nix build .#x", TierMutate},
		{"version", "nix --version", TierMutate},
	})
}

// TestBlindSpotNpmConfigFiles: npm --userconfig and --globalconfig name
// an .npmrc, which names the programs npm starts (git, script-shell) and
// where it writes; one a tier 1 write made is tier 3 as the working
// directory's is.
func TestBlindSpotNpmConfigFiles(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/n", "/dev/shm/q", "$d", "\"$(mktemp -d)\""} {
		for _, f := range []string{"npm --userconfig %s/rc ls", "npm ls --userconfig=%s/rc", "npm ls --userc %s/rc", "npm --globalconfig %s/g ls",
			"npm outdated --userconfig %s/rc", "npm view left-pad --userconfig %s/rc", "sudo npm --userconfig %s/rc ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cd /tmp/x && npm --userconfig rc ls")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"a home npmrc", "npm --userconfig ~/.npmrc-work ls", TierRead},
		{"an operator's npmrc", "npm --userconfig /etc/npmrc ls", TierRead},
	})
}
