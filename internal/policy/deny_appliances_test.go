package policy

import "testing"

// TestPowerOfAppliancesDenied: the management CLIs that turn a host off —
// ESXi's esxcli system shutdown, the UPS tools that cut its power, iDRAC's
// racadm serveraction, pm-utils and Synology's power commands — are denied
// like reboot and poweroff, in every spelling: paths, quotes, case,
// wrappers, sh -c, ssh, a pipe into a shell and values held in variables.
func TestPowerOfAppliancesDenied(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"esxcli system shutdown poweroff --reason maintenance",
		"esxcli system shutdown reboot -r x",
		"esxcli --server esx1 --username root system shutdown poweroff -r x",
		"esxcli -s esx1 system shutdown reboot -r x",
		`"esxcli" system SHUTDOWN PowerOff -r x`,
		"/bin/esxcli system shutdown poweroff -r x",
		"sudo esxcli system shutdown poweroff -r x",
		"ssh esx1 esxcli system shutdown reboot -r x",
		"v=poweroff; esxcli system shutdown $v -r x",
		"upsmon -c fsd",
		"/usr/sbin/upsmon -c FSD",
		"upsmon -cfsd",
		"sh -c 'upsmon -c fsd'",
		"x=fsd; upsmon -c $x",
		"echo upsmon -c fsd | sh",
		"upsdrvctl shutdown",
		"upsdrvctl -u nut shutdown",
		"upsdrvctl -D shutdown myups",
		"upscmd ups load.off",
		"upscmd ups LOAD.OFF.DELAY 5",
		"upscmd -u admin -p pw ups@nas shutdown.return",
		"upscmd ups shutdown.stayoff",
		"upscmd ups outlet.1.load.off",
		"upscmd ups load.cycle",
		"nohup upscmd ups shutdown.reboot &",
		"racadm serveraction powerdown",
		"racadm -r idrac1 -u root -p pw serveraction powercycle",
		"racadm serveraction HardReset",
		"racadm serveraction graceshutdown",
		"env racadm serveraction gracereboot",
		"pm-suspend",
		"pm-hibernate",
		"/usr/sbin/pm-suspend-hybrid",
		"synopoweroff",
		"/usr/syno/sbin/synoreboot -r",
		"env syno_poweroff_task -r",
	))
	runExactHosts(t, p, append(exactRead(
		"esxcli system version get",
		"upscmd -l ups",
		"upsdrvctl -t shutdown",
		"racadm getsysinfo",
		"racadm -r idrac1 -u root -p pw --nocertwarn getsysinfo",
		"racadm get iDRAC.Info",
		"racadm serveraction powerstatus",
		"racadm jobqueue view",
		"racadm storage get vdisks",
	), []exactCase{
		{"esxcli shutdown help", "esxcli system shutdown --help", TierMutate},
		{"upscmd beeper", "upscmd ups beeper.off", TierDestructive},
		{"racadm set", "racadm set iDRAC.NIC.Enable 0", TierMutate},
		{"racadm export", "racadm get -t xml -f /tmp/x.xml", TierMutate},
		{"racadm power on", "racadm serveraction powerup", TierDestructive},
		{"racadm reset", "racadm racresetcfg", TierDestructive},
		{"racadm jobs", "racadm jobqueue delete --all", TierDestructive},
		{"racadm vdisk", "racadm storage deletevd:Disk.Virtual.0", TierDestructive},
		{"racadm computed", "x=racreset; racadm $x", TierDestructive},
	}...))
}

// TestGuestsStoppedAlike: stopping, suspending or pulling a guest out of
// HA is TierDestructive on every hypervisor, as qm and pct stop are:
// virsh, Xen's xl, VirtualBox under either name, ha-manager.
func TestGuestsStoppedAlike(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"virsh shutdown vm1",
		"virsh reboot vm1",
		"virsh suspend vm1",
		"virsh managedsave vm1",
		"virsh -c qemu:///system shutdown vm1",
		"xl shutdown -a",
		"xl destroy dom1",
		"xl pause dom1",
		"xl reboot dom1",
		"vboxmanage controlvm vm poweroff",
		"vboxmanage unregistervm vm --delete",
		"ha-manager remove vm:100",
		"ha-manager crm-command stop vm:100 0",
		"ha-manager crm-command node-maintenance enable pve1",
	))
	runExactHosts(t, p, exactRead(
		"virsh list --all",
		"xl list",
		"xl info",
		"xl vcpu-list",
		"ha-manager status",
	))
}

// TestPingFloods: ping reads, but its flood forms (-f, -A, --flood, an
// interval under 0.2 s, a preload over 3, or an option computed at run
// time) are TierMutate; the kernel's read-only confinement does not hold
// the network.
func TestPingFloods(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ping -f 192.168.1.1",
		"ping -fc 100 nas",
		"ping -c3 -i 0.01 nas",
		"ping -i0 nas",
		"ping -l 100 nas",
		"ping -A nas",
		"ping --flood nas",
		"ping6 -f ::1",
		"sudo ping -f nas",
		"timeout 5 ping -qf nas",
		"x=-f; ping $x nas",
		"read x; ping $x nas",
		"for o in -f -c1; do ping $o nas; done",
	))
	runExactHosts(t, p, exactRead(
		"ping -c 3 1.1.1.1",
		"ping -i0.5 nas",
		"ping -i 1 -c 5 nas",
		"ping -l 2 nas",
		"ping -s 1400 -c 2 nas",
		"ping -W 1 -c 1 -q nas",
		"ping -nc1 nas",
		"ping -I eth0 -c 1 nas",
		"for h in web1 web2 db1; do ping -c1 $h & done; wait",
	))
}

// TestProbesHeldToHostRules: ping, traceroute, mtr and the DNS clients
// are held to the host deny rules like curl: a probe or a query can carry
// data to a denied host. testPolicy denies 169.254.169.254, 10.0.0.0/8,
// *.internal and fd00::/8.
func TestProbesHeldToHostRules(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierRead, true,
		"ping -c1 169.254.169.254",
		"ping -c 3 2852039166",
		"ping 0xa9fea9fe",
		"ping6 fd00::1",
		"ping -c1 10.1.2.3",
		"traceroute 169.254.169.254",
		"tracepath -n 10.0.0.1",
		"mtr -r -c 5 metadata.google.internal",
		"dig @169.254.169.254 example.com",
		"dig example.com @10.0.0.53",
		"nslookup example.com 10.0.0.53",
		"host example.com 169.254.169.254",
		"sudo ping -c1 db.internal",
	))
	runExactHosts(t, p, exactRead(
		"ping -c1 192.168.1.1",
		"traceroute example.com",
		"dig @1.1.1.1 example.com",
		"nslookup example.com",
		"host example.com",
		"mtr -r -c 5 example.com",
	))
}
