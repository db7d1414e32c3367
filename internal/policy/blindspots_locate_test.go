package policy

import "testing"

// TestLocateUpdates: where locate is slocate (older distributions, NAS
// firmware), -u and -U DIR rebuild its database, -o naming the file: a
// write and a walk of every disk, in any of locate's names. Searches, in
// mlocate's, plocate's and slocate's options, stay reads.
func TestLocateUpdates(t *testing.T) {
	p := protectedPolicy(t)
	var cases []string
	for _, name := range []string{"locate", "slocate", "mlocate", "plocate", "/usr/bin/locate"} {
		cases = append(cases, name+" -u", name+" -U /", name+" -U /srv -o /tmp/db", name+" --update",
			name+" -qu", name+" -o /var/lib/slocate/slocate.db -U /", "sudo "+name+" -u", "nice "+name+" -u")
	}
	runBlindHosts(t, p, sameCases(TierMutate, false, cases...))
	runExactHosts(t, p, []exactCase{
		{"pattern", "locate nginx.conf", TierRead},
		{"limit", "locate -i -l 5 nginx", TierRead},
		{"limit long", "locate --limit=5 --ignore-case nginx", TierRead},
		{"basename", `locate -b '\nginx'`, TierRead},
		{"database", "locate -d /var/lib/mlocate/mlocate.db x", TierRead},
		{"count", "plocate -c x", TierRead},
		{"regex", `locate -r '\.conf$'`, TierRead},
		{"statistics", "locate -S", TierRead},
		{"existing null", "locate -e0 x", TierRead},
	})
}
