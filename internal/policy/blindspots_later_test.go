package policy

import "testing"

// TestBlindSpotRunLaterOutside: settings that name a file something runs
// later as root or another user, outside warden's confinement, were tier
// 2 whatever they named, which open mode admits: a login shell, a home or
// skeleton directory, the linker's library directories, an alternative's
// target, npm's script shell. Named under a temporary directory, where a
// tier 1 write can put it, or known only at run time, each is tier 3.
func TestBlindSpotRunLaterOutside(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ldconfig /tmp/lib`,
		`ldconfig /var/tmp/x /usr/local/lib`,
		`ldconfig -v /dev/shm/l`,
		`ldconfig -f /tmp/ld.so.conf`,
		`ldconfig -f "$conf"`,
		`ldconfig "$d"`,
		`ldconfig $(mktemp -d)`,
		`cd /tmp && ldconfig lib`,
		`update-alternatives --install /usr/bin/x x /tmp/y 100`,
		`update-alternatives --install /usr/bin/editor editor "$e" 100`,
		`update-alternatives --set editor /tmp/x`,
		`update-alternatives --set editor /var/tmp/vi`,
		`update-alternatives --altdir /tmp/a --install /usr/bin/x x /usr/bin/y 1`,
		`update-alternatives --admindir=/tmp/adm --config editor`,
		`update-alternatives --set-selections`,
		`update-alternatives --install /usr/bin/x x /usr/bin/y 1 --slave /usr/share/man/x.1 x.1 /tmp/x.1`,
		`alternatives --set java /tmp/java`,
		`chsh -s /tmp/x root`,
		`chsh --shell=/tmp/x`,
		`chsh --shell /dev/shm/sh bob`,
		`usermod -s /tmp/x root`,
		`usermod --shell /var/tmp/s bob`,
		`usermod -d /tmp/home bob`,
		`usermod -m --home /tmp/h bob`,
		`useradd -m -k /tmp/skel bob`,
		`useradd -s /tmp/sh bob`,
		`useradd -b /tmp bob`,
		`npm config set script-shell /tmp/x`,
		`npm config set script-shell=/tmp/x`,
		`npm config set -g shell /tmp/sh`,
		`yarn config set script-shell /tmp/x`,
		`pnpm config set shell /var/tmp/x`,
		`npm config set editor "$e"`,
		`npm config set git /tmp/git`,
	))
	runExactHosts(t, p, []exactCase{
		{"ldconfig -p", `ldconfig -p`, TierRead},
		{"ldconfig --print-cache", `ldconfig --print-cache`, TierRead},
		{"ldconfig", `ldconfig`, TierMutate},
		{"ldconfig -v", `ldconfig -v`, TierMutate},
		{"ldconfig local", `ldconfig /usr/local/lib`, TierMutate},
		{"ldconfig -n", `ldconfig -n /tmp/lib`, TierMutate},
		{"alternatives install", `update-alternatives --install /usr/bin/editor editor /usr/bin/vim.basic 100`, TierMutate},
		{"alternatives set", `update-alternatives --set editor /usr/bin/vim.basic`, TierMutate},
		{"alternatives display", `update-alternatives --display editor`, TierRead},
		{"chsh zsh", `chsh -s /bin/zsh bob`, TierMutate},
		{"usermod groups", `usermod -aG docker bob`, TierMutate},
		{"useradd", `useradd -m -s /bin/bash bob`, TierMutate},
		{"npm registry", `npm config set registry https://registry.example/`, TierMutate},
	})
}

// TestBlindSpotSecurityModulesOff: turning SELinux or AppArmor
// confinement off, or deleting audit rules, takes away a boundary or the
// record every later program runs under; those programs were unknown, so
// tier 2, which open mode admits.
func TestBlindSpotSecurityModulesOff(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`setenforce 0`, `setenforce Permissive`, `setenforce permissive`, `read m; setenforce "$m"`,
		`aa-disable /etc/apparmor.d/usr.sbin.nginx`, `aa-complain /etc/apparmor.d/*`, `aa-teardown`,
		`apparmor_parser -R /etc/apparmor.d/x`, `apparmor_parser --remove /etc/apparmor.d/x`,
		`apparmor_parser -QW /etc/apparmor.d/x -R`,
		`auditctl -D`, `auditctl -e 0`, `auditctl -e0`, `auditctl -d always,exit -F arch=b64 -S execve`,
		`auditctl -W /etc/shadow`, `read o; auditctl $o`,
	))
	runExactHosts(t, p, []exactCase{
		{"getenforce", `getenforce`, TierRead},
		{"aa-status", `aa-status`, TierRead},
		{"auditctl -l", `auditctl -l`, TierRead},
		{"auditctl -s", `auditctl -s`, TierRead},
		{"parser check", `apparmor_parser -QT /etc/apparmor.d/x`, TierRead},
		{"parser load", `apparmor_parser -r /etc/apparmor.d/x`, TierMutate},
		{"setenforce 1", `setenforce 1`, TierMutate},
		{"auditctl -e 1", `auditctl -e 1`, TierMutate},
	})
}
