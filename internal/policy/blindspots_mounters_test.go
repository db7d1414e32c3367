package policy

import "testing"

// TestBlindSpotOtherMounters: programs other than mount that mount a file
// system (FUSE file systems, systemd-mount, systemd-dissect, guestmount)
// over a system directory replace what the system runs, as mount over it
// does: tier 3 in every one of them. Options that make them run a program
// (sshfs's ssh_command and ssh options, -F; gocryptfs' and encfs'
// -extpass) are tier 3, sshfs's host meets the host rules, and merging
// system extensions or attaching a portable image is tier 3. Mounts under
// /mnt, /srv and the like stay tier 2; listings stay reads.
func TestBlindSpotOtherMounters(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierDestructive, false,
		"sshfs h:/ /etc", "sshfs user@h:/srv /usr/bin", "sshfs -o allow_other h:/ /usr/local/bin", "sshfs h:/x /root/.ssh",
		"sshfs -o ssh_command=reboot h:/ /mnt", "sshfs -o ssh_command='sh -c id' h:/ /mnt", "sshfs -o ProxyCommand=reboot h:/ /mnt",
		"sshfs -oProxyCommand=x h:/ /mnt", "sshfs -o reconnect,ssh_command=x h:/ /mnt", "sshfs -F /tmp/cfg h:/ /mnt",
		"sshfs -F/tmp/cfg h:/ /mnt", `sshfs -o "$o" h:/ /mnt`,
		"bindfs /tmp/x /etc", "bindfs -u root /tmp/x /usr/sbin", "bindfs --perms=a+rX /tmp/x /lib/modules",
		"mergerfs -o defaults /mnt/a:/mnt/b /usr/local", "mergerfs /tmp/a /boot",
		"s3fs bucket /etc/cron.d", "gocryptfs /srv/c /etc", "gocryptfs -extpass reboot /srv/c /mnt/p",
		"gocryptfs -extpass=x /srv/c /mnt/p", "encfs --extpass=reboot /srv/c /mnt/p", "encfs --extpass x /srv/c /mnt/p",
		"archivemount /tmp/x.tar /usr/share", "ntfs-3g /dev/sdb1 /var/lib", "fuse-overlayfs -o lowerdir=/x,upperdir=/tmp/u,workdir=/tmp/w /etc",
		"fuse2fs /tmp/x.img /etc", "squashfuse /tmp/x.sqfs /usr/bin", "guestmount -a /tmp/x.img -i /etc",
		"ratarmount /tmp/x.tar /opt", "httpdirfs https://example.com/ /sbin", "systemd-mount /tmp/x.img /etc",
		"systemd-mount --type=tmpfs tmpfs /etc", "systemd-mount -t tmpfs tmpfs /root", "sudo sshfs h:/ /etc",
		"systemd-dissect -m /tmp/x.raw /etc", "systemd-dissect --mount /tmp/x.raw /usr", "systemd-dissect -M /tmp/x.raw /root",
		"systemd-dissect -rm /tmp/x.raw /lib", "systemd-dissect --with /tmp/x.raw sh", "systemd-sysext merge", "systemd-sysext refresh",
		"systemd-confext merge", "portablectl attach /tmp/x.raw", "portablectl attach --now --enable /tmp/x.raw",
		"portablectl reattach /srv/x.raw",
	)
	cases = append(cases, blindCase{"sshfs denied host", "sshfs 169.254.169.254:/ /mnt", TierDestructive, true},
		blindCase{"sshfs denied host with user", "sshfs root@169.254.169.254:/srv /mnt/x", TierDestructive, true})
	runBlindHosts(t, p, cases)

	var exact []exactCase
	for c, tier := range map[string]Tier{
		"sshfs h:/ /mnt": TierMutate, "sshfs -o reconnect,allow_other nas:/volume1 /mnt/nas": TierMutate,
		"sshfs -p 2222 h:/srv /srv/remote": TierMutate, "bindfs -u www-data /srv/a /srv/b": TierMutate,
		"mergerfs -o defaults,allow_other /mnt/disk1:/mnt/disk2 /mnt/pool": TierMutate, "s3fs bucket /mnt/s3": TierMutate,
		"gocryptfs /srv/c /mnt/p": TierMutate, "squashfuse /tmp/x.sqfs /tmp/m": TierMutate, "systemd-mount /dev/sdb1": TierMutate,
		"systemd-mount /dev/sdb1 /media/usb": TierMutate, "systemd-mount --list": TierRead, "sshfs --version": TierRead,
		"systemd-dissect -m /tmp/x.raw /mnt/img": TierMutate, "systemd-sysext list": TierRead, "systemd-sysext status": TierRead,
		"portablectl list": TierRead, "mount /dev/sdb1 /mnt": TierMutate,
	} {
		exact = append(exact, exactCase{c, c, tier})
	}
	runExactHosts(t, p, exact)
}
