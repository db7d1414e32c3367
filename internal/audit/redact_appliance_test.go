package audit

import "testing"

// TestRedactApplianceSetters: routers', NAS boxes' and home-lab
// services' configuration setters whose value is a secret, while their
// other settings stay readable.
func TestRedactApplianceSetters(t *testing.T) {
	checkSpellings(t, []spelling{
		// WEP keys are numbered.
		{"uci set wireless.@wifi-iface[1].wep_key1=S3cr3tZ", []string{"S3cr3tZ"}, []string{"wireless.@wifi-iface[1].wep_key1="}},
		{"uci set wireless.wifinet0.key1='S3cr3tZ'", []string{"S3cr3tZ"}, []string{"wireless.wifinet0.key1="}},
		{"nvram set wl0_key1=S3cr3tZ", []string{"S3cr3tZ"}, []string{"nvram set wl0_key1="}},
		{"nvram set wl1_key4=S3cr3tZ && nvram commit", []string{"S3cr3tZ"}, []string{"&& nvram commit"}},
		{"wpa_cli set_network 0 wep_key0 S3cr3tZ", []string{"S3cr3tZ"}, []string{"set_network 0 wep_key0 "}},
		{"wpa_cli -i wlan0 set_network 1 wep_key3 '\"S3cr3tZ\"'", []string{"S3cr3tZ"}, []string{"wep_key3 "}},
		// VyOS, EdgeOS, Junos: the secret follows the last secret-named node.
		{"set system login user bob authentication plaintext-password S3cr3tZ", []string{"S3cr3tZ"}, []string{"authentication plaintext-password "}},
		{"set system login user bob authentication encrypted-password 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"authentication encrypted-password '"}},
		{"set interfaces wireless wlan0 security wpa passphrase S3cr3tZ", []string{"S3cr3tZ"}, []string{"security wpa passphrase "}},
		{"set vpn ipsec site-to-site peer 1.2.3.4 authentication pre-shared-secret S3cr3tZ", []string{"S3cr3tZ"}, []string{"authentication pre-shared-secret "}},
		{"set interfaces pppoe pppoe0 authentication password S3cr3tZ", []string{"S3cr3tZ"}, []string{"authentication password "}},
		{"cli -c 'set system root-authentication plain-text-password-value S3cr3tZ'", []string{"S3cr3tZ"}, []string{"root-authentication plain-text-password-value "}},
		{"vbash -ic 'configure; set system login user bob authentication plaintext-password S3cr3tZ; commit'", []string{"S3cr3tZ"}, []string{"; commit'"}},
		// Appliances' user tools.
		{"synouser --setpw bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"synouser --setpw bob "}},
		{"synouser --add bob S3cr3tZ 'Bob B' 0 bob@x.lan 0", []string{"S3cr3tZ"}, []string{"--add bob ", "'Bob B' 0 bob@x.lan 0"}},
		{"sudo /usr/syno/sbin/synouser --setpw admin 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"--setpw admin "}},
		{"pihole -a -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"pihole -a -p "}},
		{"pihole setpassword 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"pihole setpassword "}},
		{"docker exec pihole pihole -a -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"pihole -a -p "}},
		{"grafana-cli admin reset-admin-password S3cr3tZ", []string{"S3cr3tZ"}, []string{"reset-admin-password "}},
		{"grafana cli --homepath /usr/share/grafana admin reset-admin-password S3cr3tZ", []string{"S3cr3tZ"}, []string{"--homepath /usr/share/grafana"}},
		{"sudo -u www-data php occ config:system:set mail_smtppassword --value=S3cr3tZ", []string{"S3cr3tZ"}, []string{"mail_smtppassword --value="}},
		{"php /var/www/nextcloud/occ config:system:set dbpassword --value S3cr3tZ", []string{"S3cr3tZ"}, []string{"dbpassword --value "}},
		{"docker exec -u www-data nc php occ config:app:set x password --value=S3cr3tZ", []string{"S3cr3tZ"}, []string{"x password --value="}},
		{"gitea admin user change-password -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u bob -p "}},
		{"forgejo admin user change-password --username bob -p 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"--username bob -p "}},
		{"hostapd_cli wps_pin any 12S3cr3tZ", []string{"S3cr3tZ"}, []string{"wps_pin any "}},
		{"hostapd_cli -i wlan0 wps_ap_pin set 12S3cr3tZ 300", []string{"S3cr3tZ"}, []string{"wps_ap_pin set ", " 300"}},
		{"wpa_cli wps_reg 02:11:22:33:44:55 12S3cr3tZ", []string{"S3cr3tZ"}, []string{"wps_reg 02:11:22:33:44:55 "}},
		{"iwconfig wlan0 essid Home key s:S3cr3tZ", []string{"S3cr3tZ"}, []string{"essid Home key "}},
		{"create_ap -c 6 wlan0 eth0 HomeAP S3cr3tZ", []string{"S3cr3tZ"}, []string{"wlan0 eth0 HomeAP "}},
		{"lnxrouter --ap wlan0 HomeAP -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"--ap wlan0 HomeAP -p "}},
		{"midclt call user.set_root_password 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"user.set_root_password "}},
		{"midclt call auth.login root S3cr3tZ", []string{"S3cr3tZ"}, []string{"auth.login root "}},
		// Readable settings stay.
		{"iwconfig wlan0 essid Home", nil, []string{"essid Home"}},
		{"create_ap wlan0 eth0 HomeAP", nil, []string{"wlan0 eth0 HomeAP"}},
		{"hostapd_cli wps_pbc", nil, []string{"wps_pbc"}},
		{"midclt call system.info", nil, []string{"system.info"}},
		{"uci set network.lan.ipaddr=192.168.1.1", nil, []string{"network.lan.ipaddr=192.168.1.1"}},
		{"uci set wireless.@wifi-iface[0].encryption=psk2", nil, []string{"encryption=psk2"}},
		{"uci set wireless.radio0.channel=11", nil, []string{"channel=11"}},
		{"nvram set wan_proto=dhcp", nil, []string{"wan_proto=dhcp"}},
		{"nvram set wl0_ssid=Home", nil, []string{"wl0_ssid=Home"}},
		{"wpa_cli set_network 0 ssid '\"Home\"'", nil, []string{"ssid '\"Home\"'"}},
		{"set interfaces ethernet eth0 address 10.0.0.1/24", nil, []string{"eth0 address 10.0.0.1/24"}},
		{"set system login user bob full-name Bob", nil, []string{"full-name Bob"}},
		{"php occ config:system:set trusted_domains 1 --value=cloud.lan", nil, []string{"--value=cloud.lan"}},
		{"synouser --get bob", nil, []string{"synouser --get bob"}},
		{"gitea admin user list", nil, []string{"gitea admin user list"}},
	})
}

// TestRedactDeviceConfigLines: lines of network devices' configuration
// typed into a session or fed to one, and of interfaces(5).
func TestRedactDeviceConfigLines(t *testing.T) {
	checkSpellings(t, []spelling{
		{"wpa-psk S3cr3tZ", []string{"S3cr3tZ"}, []string{"wpa-psk "}},
		{"auto wlan0\niface wlan0 inet dhcp\n    wpa-ssid Home\n    wpa-psk S3cr3tZ\n", []string{"S3cr3tZ"}, []string{"wpa-ssid Home\n    wpa-psk "}},
		{"cat >> /etc/network/interfaces <<EOF\niface wlan0 inet dhcp\n  wpa-psk \"S3cr3tZ\"\nEOF", []string{"S3cr3tZ"}, []string{"  wpa-psk \""}},
		{"configure terminal; username admin password 0 S3cr3tZ", []string{"S3cr3tZ"}, []string{"username admin password 0 "}},
		{"username admin privilege 15 secret 5 S3cr3tZ", []string{"S3cr3tZ"}, []string{"privilege 15 secret 5 "}},
		{"enable secret S3cr3tZ", []string{"S3cr3tZ"}, []string{"enable secret "}},
		{"snmp-server community S3cr3tZ RO", []string{"S3cr3tZ"}, []string{"snmp-server community ", " RO"}},
		{"ssh sw1 <<EOF\nconf t\nusername bob secret 0 S3cr3tZ\ntacacs-server host 10.0.0.1 key 7 S3cr3tQ\nend\nEOF", []string{"S3cr3tZ", "S3cr3tQ"}, []string{"username bob secret 0 ", "key 7 ", "\nend\nEOF"}},
		{"ssh sw1 'enable secret S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ssh sw1 'enable secret "}},
		{"crypto isakmp key S3cr3tZ address 0.0.0.0", []string{"S3cr3tZ"}, []string{" address 0.0.0.0"}},
		{"key-string 7 S3cr3tZ", []string{"S3cr3tZ"}, []string{"key-string 7 "}},
		// No secret on the line.
		{"username admin privilege 15", nil, []string{"username admin privilege 15"}},
		{"enable -n echo", nil, []string{"enable -n echo"}},
		{"crypto key generate rsa modulus 2048", nil, []string{"crypto key generate rsa modulus 2048"}},
		{"enable secret", nil, []string{"enable secret"}},
		{"snmp-server location rack1", nil, []string{"snmp-server location rack1"}},
		{"grep username /etc/passwd", nil, []string{"grep username /etc/passwd"}},
		{"echo username is bob", nil, []string{"echo username is bob"}},
	})
}

// TestRedactJoinTokens: join and enrolment tokens of mesh VPNs, tunnels,
// clusters and CI runners, short options and positionals among them.
func TestRedactJoinTokens(t *testing.T) {
	checkSpellings(t, []spelling{
		{"netbird up -k S3cr3tZ", []string{"S3cr3tZ"}, []string{"netbird up -k "}},
		{"netbird login -k S3cr3tZ --management-url https://nb", []string{"S3cr3tZ"}, []string{"--management-url https://nb"}},
		{"cloudflared service install S3cr3tZ", []string{"S3cr3tZ"}, []string{"cloudflared service install "}},
		{"sudo cloudflared service install eyJhIjoiS3cr3tZ", []string{"S3cr3tZ"}, []string{"service install "}},
		{"ngrok config add-authtoken S3cr3tZ", []string{"S3cr3tZ"}, []string{"config add-authtoken "}},
		{"ngrok authtoken S3cr3tZ", []string{"S3cr3tZ"}, []string{"ngrok authtoken "}},
		{"k3s agent -t S3cr3tZ -s https://h:6443", []string{"S3cr3tZ"}, []string{"-s https://h:6443"}},
		{"rke2 server -t S3cr3tZ", []string{"S3cr3tZ"}, []string{"rke2 server -t "}},
		{"consul agent -encrypt=S3cr3tZ -server", []string{"S3cr3tZ"}, []string{"-encrypt=", "-server"}},
		{"consul agent -encrypt S3cr3tZ", []string{"S3cr3tZ"}, []string{"-encrypt "}},
		{"gitlab-runner register -r S3cr3tZ --url https://g", []string{"S3cr3tZ"}, []string{"--url https://g"}},
		{"netclient join -t S3cr3tZ", []string{"S3cr3tZ"}, []string{"netclient join -t "}},
		{"pro attach C1S3cr3tZ", []string{"S3cr3tZ"}, []string{"pro attach "}},
		{"sudo ua attach C1S3cr3tZ", []string{"S3cr3tZ"}, []string{"ua attach "}},
		{"SUSEConnect -r S3cr3tZ -e admin@x.lan", []string{"S3cr3tZ"}, []string{"-e admin@x.lan"}},
		{"husarnet join fc94:S3cr3tZ mynode", []string{"S3cr3tZ"}, []string{"husarnet join "}},
		{"zrok enable S3cr3tZ", []string{"S3cr3tZ"}, []string{"zrok enable "}},
		{"frpc tcp -s vps:7000 -t S3cr3tZ -l 22 -r 6000", []string{"S3cr3tZ"}, []string{"-l 22 -r 6000"}},
		{"chisel client --auth bob:S3cr3tZ https://vps R:2222:localhost:22", []string{"S3cr3tZ"}, []string{"--auth bob:"}},
		// No token.
		{"pro status", nil, []string{"pro status"}},
		{"zrok share public localhost:8080", nil, []string{"zrok share public localhost:8080"}},
		{"k3s crictl exec -t c1 sh", nil, []string{"exec -t c1 sh"}},
		{"netbird status -d", nil, []string{"netbird status -d"}},
		{"cloudflared tunnel list", nil, []string{"cloudflared tunnel list"}},
		{"ngrok http 80", nil, []string{"ngrok http 80"}},
		{"consul members", nil, []string{"consul members"}},
	})
}
