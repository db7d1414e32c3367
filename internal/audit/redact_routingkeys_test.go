package audit

import "testing"

// TestRedactRoutingDaemonKeys: a routing daemon's line (FRR's vtysh -c,
// Cisco IOS, a line echoed into frr.conf) keeps its BGP neighbor's
// password, an OSPF authentication or message-digest key and IS-IS's
// passwords out of the record, after the encryption type or algorithm
// they may carry; ip xfrm's and ip macsec's keys go too, behind sudo, env
// or a path. The lines' other words, GRE's key (an id) and ip's plain
// commands stay.
func TestRedactRoutingDaemonKeys(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"vtysh -c 'conf t' -c 'router bgp 65000' -c 'neighbor 1.2.3.4 password S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-c 'neighbor 1.2.3.4 password "}},
		{"echo 'neighbor 10.0.0.1 password S3cr3tZ' >> /etc/frr/frr.conf", []string{"S3cr3tZ"}, []string{"' >> /etc/frr/frr.conf"}},
		{"vtysh -c 'conf t' -c 'neighbor PEERS password 7 S3cr3tZ'", []string{"S3cr3tZ"}, []string{"password 7 "}},
		{"cat >> /etc/frr/frr.conf <<EOF\nrouter bgp 65000\n neighbor 2001:db8::1 password S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"router bgp 65000", "neighbor 2001:db8::1 password "}},
		{"vtysh -c 'interface eth0' -c 'ip ospf authentication-key S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ip ospf authentication-key "}},
		{"vtysh -c 'ip ospf message-digest-key 1 md5 S3cr3tZ'", []string{"S3cr3tZ"}, []string{"message-digest-key 1 md5 "}},
		{"vtysh -c 'ip ospf message-digest-key 1 md5 7 S3cr3tZ'", []string{"S3cr3tZ"}, []string{"md5 7 "}},
		{"vtysh -c 'isis password clear S3cr3tZ'", []string{"S3cr3tZ"}, []string{"isis password clear "}},
		{"vtysh -c 'router isis 1' -c 'area-password md5 S3cr3tZ' -c 'domain-password clear S3cr3tY'", []string{"S3cr3tZ", "S3cr3tY"}, []string{"area-password md5 ", "domain-password clear "}},
		{"ip xfrm state add src 1.1.1.1 dst 2.2.2.2 proto esp spi 0x1 reqid 1 mode tunnel aead 'rfc4106(gcm(aes))' 0xS3cr3tZ 128", []string{"S3cr3tZ"}, []string{"aead 'rfc4106(gcm(aes))' ", " 128"}},
		{"sudo ip xfrm state add src a dst b proto esp spi 0x2 auth-trunc 'hmac(sha256)' 0xS3cr3tZ 128 enc 'cbc(aes)' 0xS3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"auth-trunc 'hmac(sha256)' ", "enc 'cbc(aes)' "}},
		{"env LC_ALL=C ip xfrm state add src a dst b proto esp spi 1 enc aes 0xS3cr3tZ", []string{"S3cr3tZ"}, []string{"enc aes "}},
		{"/sbin/ip -n ns1 xfrm state add src a dst b proto esp spi 1 auth sha256 0xS3cr3tZ", []string{"S3cr3tZ"}, []string{"auth sha256 "}},
		{"ssh r1 'ip xfrm state add src a dst b proto esp spi 1 enc aes 0xS3cr3tZ'", []string{"S3cr3tZ"}, []string{"enc aes "}},
		{"ip macsec add macsec0 tx sa 0 pn 1 on key 01 S3cr3tZ", []string{"S3cr3tZ"}, []string{"on key 01 "}},
		// Stays.
		{"neighbor 1.2.3.4 remote-as 65001", nil, []string{"neighbor 1.2.3.4 remote-as 65001"}},
		{"ip tunnel add gre1 mode gre key 1234 remote 1.2.3.4", nil, []string{"key 1234 remote 1.2.3.4"}},
		{"ip route add 10.0.0.0/8 via 1.2.3.4", nil, []string{"ip route add 10.0.0.0/8 via 1.2.3.4"}},
		{"ip ospf authentication message-digest", nil, []string{"ip ospf authentication message-digest"}},
		{"ip xfrm policy add src 10.0.0.0/24 dst 10.1.0.0/24 dir out tmpl src 1.1.1.1 dst 2.2.2.2 proto esp mode tunnel", nil, []string{"tmpl src 1.1.1.1 dst 2.2.2.2 proto esp mode tunnel"}},
		{"ip -s neigh; ip xfrm state list", nil, []string{"ip -s neigh; ip xfrm state list"}},
	})
}
