package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotRootWardenKeepsSetuid: the programs that keep an archive's
// or a source's setuid modes only when root runs them (checked here as
// root: GNU tar, bsdtar and busybox tar, busybox unzip, GNU and busybox ar
// x of members stored with their modes, rsync -p, cp --preserve=mode,
// dpkg-deb -x) were tier 3 under sudo, doas, pkexec and su, but tier 2
// when warden itself runs as root (a NAS, a router, CI) or an SSH host's
// login user is root: Input.Root now marks the command as root's, as
// sudo does. Info-ZIP unzip without -K and 7-Zip do not keep the bit
// (checked), so they keep their tier.
func TestBlindSpotRootWardenKeepsSetuid(t *testing.T) {
	p := protectedPolicy(t)
	cmds := []string{
		`tar -xf /tmp/a.tar`,
		`tar xf /tmp/a.tar`,
		`tar -xvzf /tmp/a.tgz -C /srv/app`,
		`tar --extract --file=/tmp/a.tar`,
		`tar -x -f /tmp/a.tar --same-owner`,
		`gtar -xf /tmp/a.tar`,
		`bsdtar -xf /tmp/a.zip`,
		`busybox tar -xf /tmp/a.tar`,
		`busybox unzip /tmp/a.zip`,
		`busybox unzip -o /tmp/a.zip -d /srv/x`,
		`ar x /tmp/a.ar`,
		`ar xo /tmp/a.ar`,
		`busybox ar x /tmp/a.ar`,
		`rsync -p /tmp/x /srv/y`,
		`rsync -rp --no-owner /tmp/x/ /srv/y/`,
		`cp --preserve=mode /tmp/x /srv/y`,
		`cp -a --no-preserve=ownership /tmp/x /srv/y`,
		`dpkg-deb -x /tmp/p.deb /srv/x`,
		`dpkg-deb -R /tmp/p.deb /srv/x`,
		`sh -c 'tar -xf /tmp/a.tar'`,
		`f() { tar -xf /tmp/a.tar; }; f`,
		`(cd /srv && tar -xf /tmp/a.tar)`,
		`echo /tmp/a.tar | xargs tar -xf`,
		`env tar -xf /tmp/a.tar`,
		`sudo -u root tar -xf /tmp/a.tar`,
		`sudo -u "$U" tar -xf /tmp/a.tar`,
		`nice tar -xf /tmp/a.tar`,
		`timeout 60 tar -xf /tmp/a.tar`,
	}
	for _, h := range classifierHosts {
		for _, c := range cmds {
			t.Run(h+"/"+c, func(t *testing.T) {
				got := p.Evaluate(Input{Command: c, Host: h, Root: true})
				if got.Tier < TierDestructive || got.Denied {
					t.Errorf("Evaluate(%q, host %q, root) = %s denied=%v (%s); want tier 3", c, h, got.Tier, got.Denied, got.Reason)
				}
				if strings.HasPrefix(c, "sudo -u root") || strings.HasPrefix(c, "sudo -u \"") {
					return // under sudo before, as now
				}
				// The same command not run as root keeps its tier.
				if got := p.Evaluate(Input{Command: c, Host: h}); got.Tier >= TierDestructive && !strings.Contains(c, "/srv/app") {
					t.Errorf("Evaluate(%q, host %q) = %s (%s); want below tier 3 when not root", c, h, got.Tier, got.Reason)
				}
			})
		}
	}
	exact := []struct {
		name, cmd string
		tier      Tier
	}{
		{"tar list", `tar -tf /tmp/a.tar`, TierRead},
		{"tar no same permissions", `tar -xf x.tar -C /tmp/d --no-same-permissions`, TierMutate},
		{"unzip", `unzip /tmp/a.zip`, TierMutate},
		{"unzip list", `unzip -l /tmp/a.zip`, TierRead},
		{"busybox unzip list", `busybox unzip -l /tmp/a.zip`, TierRead},
		{"7z", `7z x /tmp/a.7z`, TierMutate},
		{"ar list", `ar t /tmp/a.ar`, TierRead},
		{"rsync", `rsync /tmp/x /srv/y`, TierMutate},
		{"rsync no perms", `rsync -a --no-perms /tmp/x/ /srv/y/`, TierMutate},
		{"cp", `cp /tmp/x /srv/y`, TierMutate},
		{"dpkg-deb list", `dpkg-deb -c /tmp/p.deb`, TierRead},
		{"sudo to bob", `sudo -u bob tar -xf /tmp/a.tar`, TierMutate},
		{"doas to bob", `doas -u bob tar -xf /tmp/a.tar`, TierMutate},
	}
	for _, h := range classifierHosts {
		for _, tc := range exact {
			for _, root := range []bool{false, true} {
				t.Run(h+"/"+tc.name, func(t *testing.T) {
					got := p.Evaluate(Input{Command: tc.cmd, Host: h, Root: root})
					if got.Tier != tc.tier || got.Denied {
						t.Errorf("Evaluate(%q, host %q, root %v) = %s denied=%v (%s); want %s", tc.cmd, h, root, got.Tier, got.Denied, got.Reason, tc.tier)
					}
				})
			}
		}
	}
	// Extraction not as root keeps tier 2, as before.
	for _, h := range classifierHosts {
		for _, c := range []string{`tar -xf /tmp/a.tar`, `busybox unzip /tmp/a.zip`, `ar x /tmp/a.ar`, `cp --preserve=mode /tmp/x /srv/y`} {
			if got := p.Evaluate(Input{Command: c, Host: h}); got.Tier != TierMutate {
				t.Errorf("Evaluate(%q, host %q) = %s (%s); want tier 2 when not root", c, h, got.Tier, got.Reason)
			}
		}
	}
}
