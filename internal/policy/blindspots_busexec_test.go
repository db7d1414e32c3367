package policy

import "testing"

// TestBlindSpotBusAddressRunsDenied: a unixexec: bus address runs its
// path= program with its argvN= arguments, so an address that runs a
// denied command is denied as that command is, in every place an address
// is read and with the address's own %XX escaping.
func TestBlindSpotBusAddressRunsDenied(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"DBUS_SESSION_BUS_ADDRESS='unixexec:path=/bin/sh,argv1=-c,argv2=reboot' busctl status",
		"DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/sbin/reboot systemctl status",
		"DBUS_SYSTEM_BUS_ADDRESS='unix:path=/nonexistent;unixexec:path=/sbin/shutdown,argv1=-h,argv2=now' loginctl",
		"export DBUS_SESSION_BUS_ADDRESS='unixexec:path=/bin/sh,argv2=re%62oot,argv1=-c'; busctl --user list",
		"env DBUS_STARTER_ADDRESS='unixexec:path=/usr/bin/env,argv1=mkfs.ext4,argv2=/dev/sda' busctl tree",
		"busctl --address='unixexec:path=/sbin/poweroff' status",
		"gdbus call -a 'unixexec:path=/bin/sh,argv1=-c,argv2=halt' -d org.x -o / -m org.x.Y",
	))
	// A unixexec: address is still tier 3, not denied, when what it runs
	// is not a denied command.
	for _, h := range classifierHosts {
		v := p.Evaluate(Input{Command: "DBUS_SESSION_BUS_ADDRESS='unixexec:path=/usr/bin/dbus-daemon,argv1=--session' busctl status", Host: h})
		if v.Tier != TierDestructive || v.Denied {
			t.Errorf("host %q: dbus-daemon through unixexec: %s denied=%v (%s); want %s, not denied", h, v.Tier, v.Denied, v.Reason, TierDestructive)
		}
	}
}
