package policy

import "testing"

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
