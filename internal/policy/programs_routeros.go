package policy

import "strings"

// routerOSMenus are RouterOS menu names, at the root or below it (/ip,
// /ip firewall filter, /system resource). None is a command anywhere:
// /tool's commands (fetch, ping, profile, torch, sniffer) are left out,
// so a word here is never a verb that takes "print" for an item's name,
// as /file remove print would.
var routerOSMenus = set(`ip ipv6 interface system log routing user ppp queue certificate file disk snmp radius
	caps-man capsman wifi wireless container port mpls special-login partitions lcd console tool
	address route firewall filter nat mangle raw connection tracking address-list layer7-protocol service-port
	dhcp-server dhcp-client dhcp-relay lease network option dns static cache arp neighbor discovery-settings
	pool service settings resource cpu usb pci irq identity routerboard clock package health history license
	logging scheduler script job environment ntp client server ethernet bridge host vlan mdb msti
	registration-table security-profiles access-list wireguard peers list member pppoe-client pppoe-server
	l2tp-client l2tp-server sstp-client sstp-server ovpn-client ovpn-server eoip gre vrrp bonding veth lte
	bgp ospf ospf-v3 rip instance area session peer template vrf table rule nexthop bfd active group
	secret aaa simple tree type ipsec proposal policy installed-sa hotspot upnp socks proxy traffic-flow
	cloud smb nd prefix netwatch graphing mac-server romon switch ssh-keys note leds ups envs mounts config`)

// routerOSPrintFlags are print's arguments that take no value; where
// starts its filter.
var routerOSPrintFlags = set(`detail terse brief stats stats-detail without-paging count-only follow
	follow-only as-value value-list oid show-ids status all rate where`)

// routerOSPrint reports whether a command is RouterOS's print of a menu
// (/ip address print detail, /interface print stats, v7's
// /ip/firewall/filter/print): a path of menus, print, and print's
// arguments. Its file= (in any abbreviation) writes the listing to the
// router's flash, so it is not one of them, and neither is a word that
// holds RouterOS's command substitution ([ ]), a variable ($) or a block.
func routerOSPrint(a0 arg, args []arg) bool {
	if !a0.known || !strings.HasPrefix(a0.val, "/") {
		return false
	}
	words := strings.Split(a0.val[1:], "/")
	for _, a := range args {
		if !a.known {
			return false
		}
		words = append(words, a.val)
	}
	i := 0
	for i < len(words) && routerOSMenus[words[i]] {
		i++
	}
	if i == 0 || i == len(words) || words[i] != "print" {
		return false
	}
	where := false
	for _, w := range words[i+1:] {
		if strings.ContainsAny(w, "[]${};") {
			return false
		}
		key, _, hasVal := strings.Cut(w, "=")
		if strings.HasPrefix("file", strings.ToLower(key)) {
			return false
		}
		// Past where, bare words are the filter's (disabled, !dynamic).
		if !hasVal && !routerOSPrintFlags[w] && !where {
			return false
		}
		where = where || w == "where"
	}
	return true
}
