package policy

import "testing"

// TestBlindSpotSnapraidConfig: snapraid's -c/--conf names the
// configuration, which names the smartctl options snapraid smart runs
// through a shell (smartctl d1 -d sat %s; CMD) and the content files
// beside which it creates its lock file. Any configuration but the
// system's own (under /etc or /usr/local/etc) makes a report tier 2, in
// every spelling getopt_long takes.
func TestBlindSpotSnapraidConfig(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"snapraid -c /tmp/x.conf smart",
		"snapraid -c /tmp/x.conf status",
		"snapraid --conf=/tmp/x.conf diff",
		"snapraid --conf /home/u/s.conf smart",
		"snapraid --co /tmp/x smart",
		"snapraid -vc /tmp/x.conf status",
		"snapraid -c/tmp/x.conf list",
		"snapraid -c ./snapraid.conf check",
		"snapraid -c snapraid.conf dup",
		`snapraid -c "$C" status`,
		"snapraid smart -c /tmp/x",
		"snapraid -c /mnt/disk1/snapraid.conf probe",
		"sudo snapraid -c /var/tmp/s.conf devices",
		"/usr/bin/snapraid --conf=/srv/s.conf smart",
		"snapraid -c /etc/../tmp/x smart",
	))
	runExactHosts(t, p, []exactCase{
		{"status", "snapraid status", TierRead},
		{"diff", "snapraid diff", TierRead},
		{"smart", "snapraid smart", TierRead},
		{"verbose", "snapraid -v status", TierRead},
		{"etc conf", "snapraid -c /etc/snapraid.conf status", TierRead},
		{"bsd conf", "snapraid -c /usr/local/etc/snapraid.conf smart", TierRead},
		{"etc conf long", "snapraid --conf=/etc/snapraid.conf diff", TierRead},
		{"check filter", "snapraid check -d d1", TierRead},
	})
}
