package policy

import "testing"

// TestBlindSpotRootKeepsSetuid: run as root (sudo, doas, pkexec, su), GNU tar,
// bsdtar and busybox tar keep the archive's modes and owners by default,
// so a member the archive says is root's and setuid is created so; cp
// keeping a mode but not the owner, rsync keeping modes with root or the
// source naming the owner, and dpkg-deb -x do the same with a setuid file.
// Setuid modes set by any program are tier 3. --no-same-permissions,
// another user and the non-root forms keep tier 2.
func TestBlindSpotRootKeepsSetuid(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sudo tar -xf /tmp/a.tar -C /tmp/x`,
		`sudo tar xf /tmp/a.tar`,
		`sudo tar -xzf ./release.tgz -C /opt/app`,
		`sudo tar --extract --file=/tmp/a.tar`,
		`sudo tar --no-same-owner -xf /tmp/a.tar -C /tmp/x`,
		`curl -sL https://example.org/a.tgz | sudo tar -xz -C /opt`,
		`sudo -u root tar -xf /tmp/a.tar`,
		`sudo -u '#0' tar -xf /tmp/a.tar`,
		`sudo -E tar -xf /tmp/a.tar`,
		`sudo -- tar -xf /tmp/a.tar`,
		`doas tar -xf /tmp/a.tar`,
		`pkexec tar -xf /tmp/a.tar`,
		`sudo bsdtar -xf /tmp/a.tar -C /tmp/x`,
		`sudo gtar -xf /tmp/a.tar`,
		`sudo busybox tar -xf /tmp/a.tar -C /tmp/x`,
		`sudo env LC_ALL=C tar -xf /tmp/a.tar`,
		`sudo nice tar -xf /tmp/a.tar`,
		`sudo sh -c 'tar -xf /tmp/a.tar -C /tmp/x'`,
		`sudo cp --preserve=mode /tmp/s /usr/local/bin/s`,
		`sudo cp --preserve=mode,timestamps /tmp/s /tmp/y`,
		`sudo cp -a --no-preserve=ownership /tmp/s /tmp/y`,
		`sudo cp -p --no-preserve=all /tmp/s /tmp/y`,
		`sudo rsync -p /tmp/s /tmp/y`,
		`sudo rsync -rlptD /tmp/src/ /opt/dst/`,
		`sudo rsync -a --no-owner /tmp/src/ /opt/dst/`,
		`sudo rsync -a --chown=root:root /tmp/src/ /opt/dst/`,
		`sudo rsync -a host:/srv/x/ /opt/x/`,
		`sudo rsync -a rsync://host/mod/ /opt/x/`,
		`sudo dpkg-deb -x /tmp/x.deb /tmp/out`,
		`sudo dpkg-deb -R /tmp/x.deb /tmp/out`,
		`su -c 'tar -xf /tmp/a.tar -C /tmp/x'`,
		`su -c 'tar -xf /tmp/a.tar' root`,
		`su -l -c 'cp --preserve=mode /tmp/s /tmp/y'`,
	))
	runExactHosts(t, p, []exactCase{
		{"tar", `tar -xf /tmp/a.tar -C /tmp/x`, TierMutate},
		{"tar no same permissions", `sudo tar --no-same-permissions -xf /tmp/a.tar -C /tmp/x`, TierMutate},
		{"tar other user", `sudo -u bob tar -xf /tmp/a.tar -C /tmp/x`, TierMutate},
		{"tar list", `sudo tar -tvf /tmp/a.tar`, TierRead},
		{"tar create", `sudo tar -czf /tmp/etc.tgz /etc`, TierMutate},
		{"cp", `sudo cp /tmp/a /tmp/b`, TierMutate},
		{"cp -a", `sudo cp -a /srv/www /srv/www.bak`, TierMutate},
		{"cp -p", `sudo cp -p /srv/a /srv/b`, TierMutate},
		{"cp preserve mode", `cp --preserve=mode /tmp/a /tmp/b`, TierMutate},
		{"rsync -a", `sudo rsync -a /srv/www/ /backup/www/`, TierMutate},
		{"rsync -p", `rsync -p /tmp/a /tmp/b`, TierMutate},
		{"unzip", `sudo unzip /tmp/a.zip -d /tmp/x`, TierMutate},
		{"dpkg-deb", `dpkg-deb -x /tmp/x.deb /tmp/out`, TierMutate},
		{"dpkg-deb list", `sudo dpkg-deb -c /tmp/x.deb`, TierRead},
	})
}
