package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotLaterCodeAfterCd: a function's body is read where it is
// defined and a trap's action where it is set, but both run later, after
// cds the walk had not reached: f() { git status; }; cd /tmp/x; f runs
// git in /tmp/x, where the repository's .git/config names what git runs,
// and trap 'make' EXIT; cd /tmp/x runs that directory's Makefile. Both
// were tier 0 (make tier 2) on both hosts; a program that takes code
// from its working directory, inside code that runs later, is judged
// against every cd of the input, as it is after them.
func TestBlindSpotLaterCodeAfterCd(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	bodies := []string{"git status", "git log -p", "make -n", "go list", "npm ls", "python3 -m json.tool f", "yarn --version",
		"ansible-inventory --list", "git -p version"}
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/run/lock/r", "\"$d\"", "$(mktemp -d)"} {
		for _, b := range bodies {
			for _, f := range []string{"f() { %b; }; cd %d; f", "f() { %b; }; cd %d && f", "f() { %b; }; (cd %d; f)",
				"f() { %b; }; pushd %d; f", "g() { f; }; f() { %b; }; cd %d; g", "f() { %b; }; cd %d; f >/dev/null",
				"trap '%b' EXIT; cd %d", "trap '%b' ERR; cd %d; false", "trap -- '%b' EXIT; cd %d; ls"} {
				cmds = append(cmds, strings.NewReplacer("%b", b, "%d", d).Replace(f))
			}
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"function, no cd", "f() { git status; }; f", TierRead},
		{"function after an operator's cd", "f() { git status; }; cd /srv/app; f", TierRead},
		{"trap, operator's cd", "trap 'git status' EXIT; cd /srv/app", TierRead},
		{"function of plain reads after cd /tmp", "f() { ls -l; cat f; }; cd /tmp/x; f", TierRead},
		{"trap of a plain read", "trap 'ls /tmp' EXIT; cd /tmp/x", TierRead},
	})
}
