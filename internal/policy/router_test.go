package policy

import "testing"

// TestRouterPrograms: the report forms of router firmware programs are
// read-only, the rest change the host, and erasing settings is the
// highest tier.
func TestRouterPrograms(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		argv []string
		want Tier
	}{
		{[]string{"nvram", "get", "productid"}, TierRead},
		{[]string{"nvram", "show"}, TierRead},
		{[]string{"nvram", "set", "x=1"}, TierMutate},
		{[]string{"nvram", "commit"}, TierMutate},
		{[]string{"nvram", "erase"}, TierDestructive},
		{[]string{"nvram", "restore", "/tmp/x"}, TierDestructive},
		{[]string{"ubus", "call", "network.interface.wan", "status"}, TierRead},
		{[]string{"ubus", "call", "network.interface", "dump"}, TierRead},
		{[]string{"ubus", "list"}, TierRead},
		{[]string{"ubus", "call", "system", "reboot"}, TierDestructive},                   // denied like reboot
		{[]string{"ubus", "call", "file", "write", `{"path":"/etc/x"}`}, TierDestructive}, // any file, as root
		{[]string{"ubus", "call", "rc", "init", `{"name":"dnsmasq","action":"restart"}`}, TierMutate},
		{[]string{"uci", "show", "network"}, TierRead},
		{[]string{"uci", "set", "network.lan.ipaddr=1.2.3.4"}, TierMutate},
		{[]string{"iwinfo", "wlan0", "assoclist"}, TierRead},
		{[]string{"wl", "-i", "eth6", "assoclist"}, TierRead},
		{[]string{"wl", "-i", "eth6", "sta_info", "aa:bb:cc:dd:ee:ff"}, TierRead},
		{[]string{"wl", "-i", "eth6", "status", "x"}, TierMutate},
		{[]string{"wl", "ssid", "evil"}, TierMutate},
		{[]string{"wl", "down"}, TierMutate},
		{[]string{"synosystemctl", "get-active-status", "nginx"}, TierRead},
		{[]string{"synosystemctl", "get-enable-status", "pkgctl-Tailscale.service"}, TierRead},
		{[]string{"synosystemctl", "restart", "nginx"}, TierMutate},
		{[]string{"synosystemctl", "stop", "sshd"}, TierDestructive}, // sshd stopped by any service manager
		{[]string{"synopkg", "status", "Docker"}, TierRead},
		{[]string{"synopkg", "uninstall", "Docker"}, TierDestructive},
		{[]string{"synoservicectl", "--status", "nginx"}, TierRead},
		{[]string{"synoservicectl", "--restart", "nginx"}, TierMutate},
		{[]string{"synopkg", "checkupdateall"}, TierRead},
		{[]string{"opkg", "list-upgradable"}, TierRead},
		{[]string{"opkg", "list-installed"}, TierRead},
		{[]string{"opkg", "upgrade", "dnsmasq"}, TierMutate},
		{[]string{"opkg", "install", "/tmp/evil.ipk"}, TierDestructive},
		{[]string{"opkg", "download", "x"}, TierMutate},
		{[]string{"opkg", "update"}, TierMutate},
		{[]string{"opkg"}, TierMutate},
		{[]string{"synoupgrade", "--check"}, TierRead},
		{[]string{"synoupgrade", "--check-smallupdate"}, TierRead},
		{[]string{"synoupgrade", "--check", "--start"}, TierDestructive},
		{[]string{"synoupgrade", "--start"}, TierDestructive},
		{[]string{"synoupgrade", "--patch", "/tmp/x.pat"}, TierDestructive},
		{[]string{"synoupgrade"}, TierDestructive},
		{[]string{"upnpc", "-l"}, TierRead},
		{[]string{"upnpc", "-s"}, TierRead},
		{[]string{"upnpc", "-a", "192.168.1.2", "22", "22", "TCP"}, TierMutate},
		{[]string{"upnpc", "-d", "22", "TCP"}, TierMutate},
		{[]string{"upnpc", "-r", "22", "TCP"}, TierMutate},
		{[]string{"upnpc", "-m", "eth0", "-a", "x", "1", "1", "TCP"}, TierMutate},
		{[]string{"upnpc", "-m", "eth0", "-l"}, TierRead},
		{[]string{"upnpc", "-l", "x"}, TierMutate},
	}
	for _, tt := range tests {
		v := p.Evaluate(Input{Argv: tt.argv})
		if v.Tier != tt.want {
			t.Errorf("%q: tier %d (%s), want %d", tt.argv, v.Tier, v.Reason, tt.want)
		}
	}
}
