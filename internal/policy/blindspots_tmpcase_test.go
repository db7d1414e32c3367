package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotTemporaryDirInAnyCase: macOS's file systems ignore case by
// default, so on a Mac reached over SSH /TMP/x, /Tmp/x and
// /Private/Var/Tmp/x are the /tmp/x a tier 1 write made: every rule that
// asks whether a directory is a temporary one (a project's code, a
// program's path, a configuration named by option) takes them as one.
// Directories of other names keep their tiers, whatever their case.
func TestBlindSpotTemporaryDirInAnyCase(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/TMP/x", "/Tmp/x", "/tmP", "/VAR/TMP/r", "/var/Tmp", "/Private/Tmp/x", "/PRIVATE/var/tmp/x",
		"/private/TMP/x", "/DEV/SHM/q", "/Usr/Tmp/x", "/Run/Lock/x"} {
		for _, f := range []string{"cd %s && git status", "cd %s; git log -p", "git -C %s status", "env -C %s make -n",
			"cd %s && cargo --version", "cd %s && python3 -m json.tool f", "make -f %s/Makefile", "sh %s/s.sh", "%s/ls",
			"sometool --config %s/c", "cd %s && sometool", "LD_PRELOAD=%s/x.so ls", "ansible-doc -M %s -l"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cd /; cd TMP/x && git log", "cd /Var; cd TMP/x && git status", "cd /PRIVATE && cd Tmp/x && make -n")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/TMP/x", "/Private/Tmp/x"} {
		if v := p.Evaluate(Input{Command: "git status", Dir: d}); v.Tier < TierDestructive {
			t.Errorf("Evaluate(git status in %s) = %s (%s); want tier 3", d, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"home in capitals", "cd /Users/Bob/Proj && git log", TierRead},
		{"srv in capitals", "git -C /SRV/App status", TierRead},
		{"a tmp below another", "cd /srv/TMP/x && git log", TierRead},
		{"volume", "cd /Volumes/Data && git status", TierRead},
	})
}
