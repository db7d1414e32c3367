package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlindSpotEchoedGlobsToRemovers: echo and printf print the names a
// glob matches, so echo /* | xargs rm -rf removes what rm -rf /* does; the
// pattern stands for those names, as a for loop's glob item does. GNU
// parallel run on its standard input is xargs for this: each line it
// reads is a command's argument. Both are denied as the direct command
// is; a glob under a directory of no consequence keeps its tier.
func TestBlindSpotEchoedGlobsToRemovers(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo /* | xargs rm -rf",
		"echo /usr/* | xargs rm -rf",
		"echo /etc/* | xargs -n1 rm -rf",
		"echo /* | xargs -I{} rm -rf {}",
		"echo /* | xargs -i rm -rf {}",
		"echo /* | xargs --replace rm -rf {}",
		"printf '%s\\0' /* | xargs -0 rm -rf",
		"printf '%s\\n' /* | xargs -d '\\n' rm -rf",
		"printf '%s\\n' /usr/* /etc/* | xargs rm -r",
		"echo /bin/* | xargs -P4 -n2 rm -rf",
		"echo /*/ | xargs rm -rf",
		"echo /home/* | xargs rm -rf",
		"echo /* | /usr/bin/xargs rm -rf",
		"echo / | parallel rm -rf {}",
		"echo /usr | parallel rm -rf",
		"printf '%s\\n' /usr /etc | parallel -j2 rm -rf {}",
		"echo /* | parallel rm -rf",
		"x=/usr; echo \"$x\" | parallel rm -rf {}",
		"ls / | parallel rm -rf /{}",
		"find /usr | parallel rm -rf",
	))
	runExactHosts(t, p, []exactCase{
		{"log glob", "echo /var/log/*.gz | xargs ls -l", TierRead},
		{"listing", "echo /var/* | xargs ls -d", TierRead},
		{"parallel compress", "printf '%s\\n' /srv/app/*.log | parallel gzip", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"echo /srv/app/cache/* | xargs rm -rf",
		"echo *.o | xargs rm -f",
		"echo /srv/data/* | parallel rm -rf {}",
	))
}

// TestParallelInputPastCap: parallel's input lines are tried one by one
// up to maxAlts; past it the rest is read as unknown input, so a removal
// fed a long list stays tier 3 however its lines end.
func TestParallelInputPastCap(t *testing.T) {
	p := protectedPolicy(t)
	var b strings.Builder
	for i := 0; i <= maxAlts+4; i++ {
		fmt.Fprintf(&b, "/srv/app/cache/%d ", i)
	}
	for _, cmd := range []string{
		"printf '%s\\n' " + b.String() + " | parallel rm -rf {}",
		"printf '%s\\n' " + b.String() + " | xargs -I{} rm -rf {}",
	} {
		got := p.Evaluate(Input{Command: cmd})
		if got.Tier != TierDestructive || got.Denied {
			t.Errorf("Evaluate(%.60q…) = %s denied=%v (%s); want tier 3, not denied", cmd, got.Tier, got.Denied, got.Reason)
		}
	}
	// Within the cap, a line that names a system tree is denied.
	got := p.Evaluate(Input{Command: "printf '%s\\n' /srv/a /srv/b /usr | parallel rm -rf {}"})
	if !got.Denied {
		t.Errorf("a system tree among parallel's lines: %s (%s); want denied", got.Tier, got.Reason)
	}
}
