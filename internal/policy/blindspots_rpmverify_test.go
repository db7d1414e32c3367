package policy

import "testing"

// rpm -V runs each package's %verifyscript as it verifies it (rpm(8):
// --noscripts skips it). With -p the package is a file, which a tier 1
// call can write, and its script runs as the caller: every spelling of
// verify (-V, -y, --verify) with a package file (-p, --package) is tier
// 3; verifying installed packages and querying a file stay reads.
func TestBlindRpmVerifyScript(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"rpm -Vp /tmp/x.rpm",
		"rpm -pV /tmp/x.rpm",
		"rpm -V -p x.rpm",
		"rpm --verify -p /tmp/x.rpm",
		"rpm --verify --package /tmp/x.rpm",
		"rpm -yp /tmp/x.rpm",
		"rpm -Vvp /tmp/x.rpm",
		"rpm -V --nodigest -p /tmp/x.rpm",
		"/usr/bin/rpm -Vp /tmp/x.rpm",
		"sudo rpm -Vp /tmp/x.rpm",
		"env LANG=C rpm -Vp ./x.rpm",
		"find /tmp -name '*.rpm' -exec rpm -Vp {} \\;",
		"ls /tmp/*.rpm | xargs rpm -Vp",
		"bash -c 'rpm -Vp /tmp/x.rpm'",
		"for f in /tmp/*.rpm; do rpm -Vp \"$f\"; done",
	))
	runExactHosts(t, p, []exactCase{
		{"verify all", "rpm -Va", TierRead},
		{"verify one", "rpm -V bash", TierRead},
		{"verify noscripts", "rpm -Vp --noscripts /tmp/x.rpm", TierRead},
		{"query file", "rpm -qp /tmp/x.rpm", TierRead},
		{"query scripts", "rpm -qp --scripts /tmp/x.rpm", TierRead},
		{"query all", "rpm -qa", TierRead},
		{"verify file owner", "rpm -Vf /usr/bin/ls", TierRead},
	})
}
