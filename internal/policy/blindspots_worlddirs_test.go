package policy

import "testing"

// TestBlindSpotWorldWritableDirs: /run/lock (also reached as /var/lock
// and /var/run/lock) on Debian and Ubuntu, and Ubuntu's /var/crash, are
// world-writable like /tmp: a repository, configuration or program there
// is whatever another local user put there, so code read from one is
// tier 3 as it is under /tmp.
func TestBlindSpotWorldWritableDirs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"git -C /run/lock/x log",
		"git -C /var/lock/x status",
		"git --git-dir=/var/run/lock/x/.git log",
		"cd /run/lock/x && git log",
		"cd /var/lock && git -C x diff",
		"git -C /var/crash/x log",
		"/run/lock/x",
		"/var/lock/x/bin/ls -l",
		"cd /run/lock && ./x",
		"nginx -t -c /run/lock/x.conf",
		"gpg --homedir /run/lock/g --list-keys",
		"cargo tree --manifest-path /run/lock/x/Cargo.toml",
		"npm --prefix /var/lock/x ls",
		"systemd-analyze verify /run/lock/x.service",
		"cd /run/lock/x && ansible-config dump",
	))
	runExactHosts(t, p, []exactCase{
		{"list", "ls -la /run/lock /var/lock", TierRead},
		{"pid file", "cat /run/lock/x.pid", TierRead},
		{"find locks", "find /run/lock -name '*.lock'", TierRead},
		{"lsof", "lsof /run/lock/x", TierRead},
		{"cd and list", "cd /run/lock && ls", TierRead},
		{"look-alike", "git -C /run/locked/x log", TierRead},
		{"repo", "git -C /srv/repo log", TierRead},
	})
}
