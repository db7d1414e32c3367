package policy

import "testing"

// TestBlindSpotNamedRunsDenied: a value that names a command to run (a
// unixexec: bus address with its argvN= arguments, a libvirt URI's
// command=, socat's EXEC:, nc -e, lftp's ! commands) is tier 3, which
// open mode admits, so a denied command there is denied as the command
// itself is, with the value's own escaping.
func TestBlindSpotNamedRunsDenied(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"DBUS_SESSION_BUS_ADDRESS='unixexec:path=/bin/sh,argv1=-c,argv2=reboot' busctl status",
		"DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/sbin/reboot systemctl status",
		"DBUS_SYSTEM_BUS_ADDRESS='unix:path=/nonexistent;unixexec:path=/sbin/shutdown,argv1=-h,argv2=now' loginctl",
		"export DBUS_SESSION_BUS_ADDRESS='unixexec:path=/bin/sh,argv2=re%62oot,argv1=-c'; busctl --user list",
		"env DBUS_STARTER_ADDRESS='unixexec:path=/usr/bin/env,argv1=mkfs.ext4,argv2=/dev/sda' busctl tree",
		"busctl --address='unixexec:path=/sbin/poweroff' status",
		"gdbus call -a 'unixexec:path=/bin/sh,argv1=-c,argv2=halt' -d org.x -o / -m org.x.Y",
		"virsh -c 'qemu+ext:///system?command=/sbin/reboot' list",
		"virsh --connect 'qemu+ext:///system?comm%61nd=%2Fsbin%2Fpoweroff' list",
		"LIBVIRT_DEFAULT_URI='qemu+ext:///system?command=/sbin/reboot' virsh list",
		"socat - EXEC:reboot",
		"socat - 'exec:/sbin/shutdown -h now,pty'",
		"socat TCP-LISTEN:9,fork EXEC:'/bin/sh -c reboot'",
		"nc -e /sbin/reboot h 1",
		"ncat --exec '/bin/sh -c poweroff' h 1",
		"lftp -c '!reboot'",
		"lftp -c 'open h; !shutdown -h now'",
		"lftp -e 'open h && !halt' h",
	))
	// What runs something not denied stays tier 3, not denied.
	for _, c := range []string{
		"DBUS_SESSION_BUS_ADDRESS='unixexec:path=/usr/bin/dbus-daemon,argv1=--session' busctl status",
		"virsh -c 'qemu+ext:///system?command=/usr/local/bin/tunnel' list",
		"socat - EXEC:/bin/cat",
		"nc -e /bin/cat h 1",
		"lftp -c 'open h; !ls'",
	} {
		for _, h := range classifierHosts {
			if v := p.Evaluate(Input{Command: c, Host: h}); v.Tier != TierDestructive || v.Denied {
				t.Errorf("Evaluate(%q, host %q) = %s denied=%v (%s); want %s, not denied", c, h, v.Tier, v.Denied, v.Reason, TierDestructive)
			}
		}
	}
}
