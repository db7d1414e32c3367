package policy

import "testing"

// TestBlindSpotPCIConfigReads: root reading a PCI device's configuration
// space file reads all of it, as lspci -xxx does, which lspci's manual
// warns crashes some devices (and lspci -xxx is TierMutate for it): the
// sysfs config attribute under /sys/bus/pci, /sys/devices/pci… or a class
// device's device link, and procfs's /proc/bus/pci/BUS/DEV.FN, by any
// program that opens its operands, a redirection, a pattern, or after a cd.
// The device's other attributes, the procfs listing, and every other file
// named config stay reads.
func TestBlindSpotPCIConfigReads(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"cat /sys/bus/pci/devices/0000:00:1f.0/config",
		"hexdump -C /sys/bus/pci/devices/0000:00:1f.0/config",
		"od -x /sys/devices/pci0000:00/0000:00:00.0/config",
		"xxd /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/config",
		"xxd < /sys/class/net/eth0/device/config",
		"dd if=/sys/bus/pci/devices/0000:00:1f.0/config bs=4096 count=1",
		"cat /sys/bus/pci/devices/*/config",
		"cat /sys/devices/pci0000:00/*/config",
		"cat /proc/bus/pci/00/1f.0",
		"hexdump /proc/bus/pci/01/00.0",
		"cd /sys/bus/pci/devices/0000:00:1f.0 && cat config",
		"cd /sys/class/net/eth0/device && xxd config",
		"sudo cat /sys/bus/pci/devices/0000:00:02.0/config",
		"for d in /sys/bus/pci/devices/*; do xxd $d/config; done",
		"head -c 4096 /sys/bus/pci/devices/0000:03:00.0/config | xxd",
	))
	runExactHosts(t, p, []exactCase{
		{"pci listing", "cat /proc/bus/pci/devices", TierRead},
		{"vendor", "cat /sys/bus/pci/devices/0000:00:1f.0/vendor", TierRead},
		{"device id", "cat /sys/bus/pci/devices/0000:00:1f.0/device", TierRead},
		{"ls config", "ls -l /sys/bus/pci/devices/0000:00:1f.0/config", TierRead},
		{"stat config", "stat /sys/bus/pci/devices/0000:00:1f.0/config", TierRead},
		{"lspci header", "lspci -x", TierRead},
		{"git config", "cat .git/config", TierRead},
		{"ssh config", "cat ~/.ssh/config", TierRead},
		{"app config", "cat /srv/app/config", TierRead},
		{"config here", "cat config", TierRead},
		{"config above", "cat ../config", TierRead},
		{"usb configuration", "cat /sys/bus/usb/devices/1-1/bConfigurationValue", TierRead},
	})
}
