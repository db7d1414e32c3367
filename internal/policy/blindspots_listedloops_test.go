package policy

import "testing"

// TestBlindSpotLoopsOverListings: a loop over what ls or find lists of a
// directory gives its variable the names in it, so a body that removes
// "DIR/$d" removes what rm -rf DIR/* does, and is denied as that is:
// for d in $(ls /usr), `ls -A /etc`, ls /usr | while read d, $(find /usr
// -maxdepth 1), $(ls -d /etc/*). The same over an ordinary directory
// keeps its tier.
func TestBlindSpotLoopsOverListings(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`for d in $(ls /); do rm -rf "/$d"; done`,
		`for d in $(ls /usr); do rm -rf "/usr/$d"; done`,
		`for d in $(ls -1 /usr/); do rm -r "/usr/$d"; done`,
		"for d in `ls -A /etc`; do rm -rf /etc/\"$d\"; done",
		`for d in $(ls --all /boot); do rm -rf "/boot/${d}"; done`,
		`ls /usr | while read d; do rm -rf "/usr/$d"; done`,
		`ls /usr | while read -r d; do rm -rf /usr/$d; done`,
		`ls -A /etc | while IFS= read -r f; do rm -rf "/etc/$f"; done`,
		`for f in $(find /usr -maxdepth 1); do rm -rf "$f"; done`,
		`for f in $(find /etc/ -mindepth 1 -maxdepth 1); do rm -rf "$f"; done`,
		`for f in $(ls -d /etc/*); do rm -f "$f"; done`,
		`for f in $(ls -d /usr/bin/*); do rm "$f"; done`,
		`find /usr -maxdepth 1 | while read -r f; do rm -rf "$f"; done`,
	))
	runExactHosts(t, p, []exactCase{
		{"compress logs", `for f in $(ls /var/log); do gzip "/var/log/$f"; done`, TierMutate},
		{"sizes", `for u in $(ls /home); do du -sh "/home/$u"; done`, TierRead},
		// A name used alone is not a pattern of the working directory.
		{"names printed", `for f in $(ls /usr); do echo $f; done`, TierRead},
		{"names read", `ls /usr | while read f; do echo $f; done`, TierRead},
	})
	own, err := New(Rules{Protect: []string{"/root/.local/state/warden"}, Home: "/root", Dir: "/root", KernelHolds: true})
	if err != nil {
		t.Fatal(err)
	}
	runExact(t, own, []exactCase{
		{"names printed in home", `for f in $(ls /var/log); do echo $f; done`, TierRead},
		{"names read in home", `ls /usr/bin | while read -r f; do echo $f; done`, TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`for f in $(ls /srv/app/cache); do rm -rf "/srv/app/cache/$f"; done`,
		`ls /srv/app/tmp | while read f; do rm -rf "/srv/app/tmp/$f"; done`,
		`for f in $(find /srv/app/cache -maxdepth 1); do rm -rf "$f"; done`,
	))
}
