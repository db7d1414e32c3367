package policy

import "testing"

// TestBlindSpotNamedCheckconfPlugins: named-checkconf loads every plugin
// the configuration it checks names (plugin query "/x.so" { };), and
// dlopen runs the library's code, unless -c checks the core configuration
// only. A file of the caller's (anywhere but /etc and /usr/local/etc,
// relative, computed) or a -t chroot is then code the classifier does not
// see; the system's own configuration stays a read.
func TestBlindSpotNamedCheckconfPlugins(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"named-checkconf /tmp/x.conf",
		"named-checkconf -z /tmp/x.conf",
		"named-checkconf -p /srv/dns/named.conf",
		"named-checkconf -t /tmp/root /named.conf",
		"named-checkconf -t/tmp/root",
		"named-checkconf -zt /tmp/root /etc/named.conf",
		"named-checkconf /home/u/named.conf",
		"named-checkconf ./named.conf",
		"named-checkconf named.conf",
		"named-checkconf -- /tmp/x",
		"named-checkconf -m record /tmp/x",
		"named-checkconf /etc/../tmp/x.conf",
		`named-checkconf "$F"`,
		"/usr/sbin/named-checkconf /tmp/x.conf",
		"sudo named-checkconf -z /var/tmp/n.conf",
		"cd /tmp && named-checkconf x.conf",
		"find /tmp -name '*.conf' -exec named-checkconf {} \\;",
	))
	runExactHosts(t, p, []exactCase{
		{"default", "named-checkconf", TierRead},
		{"default zones", "named-checkconf -z", TierRead},
		{"print", "named-checkconf -p /etc/bind/named.conf", TierRead},
		{"debian", "named-checkconf /etc/bind/named.conf", TierRead},
		{"redhat zones", "named-checkconf -z /etc/named.conf", TierRead},
		{"freebsd", "named-checkconf /usr/local/etc/namedb/named.conf", TierRead},
		{"core only", "named-checkconf -c /tmp/x.conf", TierRead},
		{"core only cluster", "named-checkconf -zc /tmp/x.conf", TierRead},
		{"root chroot", "named-checkconf -t / /etc/bind/named.conf", TierRead},
		{"version", "named-checkconf -v", TierRead},
		{"print hiding keys", "named-checkconf -px /etc/bind/named.conf", TierRead},
	})
}
