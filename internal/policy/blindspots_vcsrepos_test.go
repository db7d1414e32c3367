package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotOtherVCSToldWhichRepository: jj, Sapling, darcs, fossil and
// Breezy run what their repository's configuration names on reads (jj's
// pager and diff tools, Sapling's hooks and extensions, darcs'
// posthooks, fossil's diff-command), from the repository an option names
// (-R, --repository, --repodir, --cwd, --chdir, -d) as well as the
// working directory; so does any program given --repository, --repo or
// --repodir. One under a temporary directory, or known only at run time,
// is tier 3 as git -C there is. The operator's repositories, and the
// backup tools the classifier knows, keep their tiers.
func TestBlindSpotOtherVCSToldWhichRepository(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp/x/../y", "$d", "/TMP/x"} {
		for _, f := range []string{"jj -R %s log", "jj --repository %s diff", "jj --repository=%s st", "sl -R %s log",
			"sl --repository %s status", "sl --cwd %s diff", "darcs log --repodir %s", "darcs whatsnew --repodir=%s",
			"fossil timeline -R %s/r.fossil", "fossil status --chdir %s", "fossil diff --repository %s/r.fossil", "brz log -d %s",
			"bzr status --directory %s", "somevcs --repo %s log", "somevcs --repository=%s show", "sometool --repodir %s list",
			"sudo jj -R %s log", "timeout 9 sl -R %s log"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"jj operator's", "jj -R /srv/app log", TierMutate},
		{"sl operator's", "sl --cwd /srv/app status", TierMutate},
		{"unknown with the operator's repo", "somevcs --repo /srv/r log", TierMutate},
		{"restic", "restic --repo /tmp/x snapshots", TierRead},
		{"borg", "borg list /tmp/x", TierRead},
	})
}
