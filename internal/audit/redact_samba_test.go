package audit

import "testing"

// TestRedactSambaUserPercent: the Samba suite's user%password, which
// every program built on its option parser takes as -U or --user (winexe,
// wmic, pth-winexe, samba-tool, net ads join), and wbinfo as -a.
func TestRedactSambaUserPercent(t *testing.T) {
	checkSpellings(t, []spelling{
		{"wmic -U 'bob%S3cr3tZ' //h 'select * from Win32_OperatingSystem'", []string{"S3cr3tZ"}, []string{"wmic -U 'bob%", "' //h 'select"}},
		{"winexe -U 'bob%S3cr3tZ' //h cmd", []string{"S3cr3tZ"}, []string{"winexe -U 'bob%", "//h cmd"}},
		{"winexe -U DOM/bob%S3cr3tZ //h cmd", []string{"S3cr3tZ"}, []string{"DOM/bob%", "//h cmd"}},
		{"winexe --user=dom/bob%S3cr3tZ //h cmd", []string{"S3cr3tZ"}, []string{"--user=dom/bob%"}},
		{"wmic --user bob%\"S3cr3tZ\" //h x", []string{"S3cr3tZ"}, []string{"--user bob%"}},
		{"pth-winexe -U dom/bob%aad3b435b51404ee:S3cr3tZ //h cmd", []string{"S3cr3tZ"}, []string{"dom/bob%"}},
		{"samba-tool domain join corp.lan DC -U admin%S3cr3tZ", []string{"S3cr3tZ"}, []string{"-U admin%"}},
		{"net ads join -U admin%'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-U admin%"}},
		{"sudo /usr/bin/winexe -U 'CORP\\bob%S3cr3tZ' //10.0.0.5 'cmd /c ver'", []string{"S3cr3tZ"}, []string{"CORP\\bob%"}},
		{"winexe -Ubob%S3cr3tZ //h cmd", []string{"S3cr3tZ"}, []string{"winexe -Ubob%", "//h cmd"}},
		{"wmic -UDOM/bob%'S3cr3tZ' //h x", []string{"S3cr3tZ"}, []string{"-UDOM/bob%"}},
		{"wbinfo -a bob%S3cr3tZ", []string{"S3cr3tZ"}, []string{"wbinfo -a bob%"}},
		{"wbinfo --authenticate=bob%S3cr3tZ", []string{"S3cr3tZ"}, []string{"--authenticate=bob%"}},
		{"enum4linux -u bob -p S3cr3tZ 10.0.0.5", []string{"S3cr3tZ"}, []string{"-u bob -p ", "10.0.0.5"}},
		{"enum4linux-ng -A -u bob -p 'S3cr3tZ' dc1", []string{"S3cr3tZ"}, []string{"dc1"}},
		{"kerbrute passwordspray -d corp.lan --dc dc1 users.txt -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"users.txt"}},
		{"bloodhound-python -u bob -p S3cr3tZ -d corp.lan -c All -ns 10.0.0.1", []string{"S3cr3tZ"}, []string{"-u bob -p ", "-d corp.lan"}},
		{"certipy req -u bob@corp.lan -p 'S3cr3tZ' -ca corp-CA -template User", []string{"S3cr3tZ"}, []string{"-ca corp-CA"}},
		{"certipy-ad find -u bob@corp.lan -hashes :S3cr3tZ -dc-ip 10.0.0.1", []string{"S3cr3tZ"}, []string{"-dc-ip 10.0.0.1"}},
		{"ldapdomaindump -u 'CORP\\bob' -p S3cr3tZ ldap://dc1", []string{"S3cr3tZ"}, []string{"ldap://dc1"}},
		{"bloodyAD --host dc1 -d corp.lan -u bob -p S3cr3tZ get writable", []string{"S3cr3tZ"}, []string{"get writable"}},
		// No password, or no user%password.
		{"psql -U bob -d db", nil, []string{"psql -U bob -d db"}},
		{"ps -U root -u root u", nil, []string{"ps -U root -u root u"}},
		{"x -U %USERNAME% y", nil, []string{"x -U %USERNAME% y"}},
		{"tool --user=%u", nil, []string{"--user=%u"}},
		{"wmic -U bob //h x", nil, []string{"wmic -U bob //h x"}},
		{"date -u +%Y%m%d", nil, []string{"date -u +%Y%m%d"}},
	})
}

// TestRedactImpacketTargets: impacket's scripts take
// [domain/]user:password[@target], the LDAP and Kerberos ones without a
// target, and hashes or new passwords as options.
func TestRedactImpacketTargets(t *testing.T) {
	checkSpellings(t, []spelling{
		{"GetADUsers.py -all corp.lan/bob:S3cr3tZ -dc-ip 10.0.0.1", []string{"S3cr3tZ"}, []string{"corp.lan/bob:", "-dc-ip 10.0.0.1"}},
		{"GetUserSPNs.py -request corp/bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"corp/bob:"}},
		{"lookupsid.py corp/bob:S3cr3tZ@10.0.0.1", []string{"S3cr3tZ"}, []string{"corp/bob:", "@10.0.0.1"}},
		{"rpcdump.py 'corp/bob:S3cr3tZ@dc1'", []string{"S3cr3tZ"}, []string{"corp/bob:", "@dc1"}},
		{"python3 /opt/impacket/examples/findDelegation.py corp.lan/bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"corp.lan/bob:"}},
		{"ticketer.py -nthash S3cr3tZ -domain-sid S-1-5-21-1 -domain corp.lan admin", []string{"S3cr3tZ"}, []string{"-domain corp.lan admin"}},
		{"changepasswd.py corp/bob:old@dc1 -newpass S3cr3tZ", []string{"S3cr3tZ"}, []string{"corp/bob:", "-newpass "}},
		{"addcomputer.py -computer-name 'WS1$' -computer-pass S3cr3tZ corp/bob:x", []string{"S3cr3tZ"}, []string{"-computer-name 'WS1$'"}},
		{"getST.py -spn cifs/h corp/bob -hashes :S3cr3tZ", []string{"S3cr3tZ"}, []string{"-spn cifs/h corp/bob"}},
		// No password.
		{"GetUserSPNs.py -request -dc-ip 10.0.0.1 corp/bob", nil, []string{"-dc-ip 10.0.0.1 corp/bob"}},
		{"lookupsid.py -no-pass corp/bob@dc1", nil, []string{"corp/bob@dc1"}},
		{"ntlmrelayx.py -t smb://10.0.0.5 -smb2support", nil, []string{"smb://10.0.0.5"}},
	})
}

// TestRedactClientCommandLogins: interactive clients whose command
// strings carry a login or set a password: deluge-console's connect HOST
// USER PASSWORD, rpcclient's setuserinfo2 and chgpasswd, lxc config set
// of a secret-named key.
func TestRedactClientCommandLogins(t *testing.T) {
	checkSpellings(t, []spelling{
		{"deluge-console \"connect h bob S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"deluge-console \"connect h bob "}},
		{"deluge-console \"connect h:58846 bob S3cr3tZ; info\"", []string{"S3cr3tZ"}, []string{"; info\""}},
		{"deluge-console 'connect 10.0.0.2 admin S3cr3tZ; add magnet:?xt=x'", []string{"S3cr3tZ"}, []string{"connect 10.0.0.2 admin ", "; add magnet"}},
		{"deluge-console connect 127.0.0.1:58846 bob S3cr3tZ \\; info", []string{"S3cr3tZ"}, []string{"\\; info"}},
		{"deluge-console -U bob -P S3cr3tZ info", []string{"S3cr3tZ"}, []string{"-U bob -P ", "info"}},
		{"ssh nas deluge-console \"'connect localhost bob S3cr3tZ; pause *'\"", []string{"S3cr3tZ"}, []string{"pause *"}},
		{"rpcclient -U admin%x dc1 -c \"setuserinfo2 bob 23 'S3cr3tZ'\"", []string{"S3cr3tZ"}, []string{"setuserinfo2 bob 23 '"}},
		{"rpcclient -U admin dc1 -c 'chgpasswd bob Old1pw S3cr3tZ'", []string{"S3cr3tZ", "Old1pw"}, []string{"chgpasswd bob "}},
		{"lxc config set core.trust_password S3cr3tZ", []string{"S3cr3tZ"}, []string{"core.trust_password "}},
		{"incus config set c1 environment.DB_PASSWORD S3cr3tZ", []string{"S3cr3tZ"}, []string{"environment.DB_PASSWORD "}},
		// No login.
		{"deluge-console \"connect h; info\"", nil, []string{"connect h; info"}},
		{"deluge-console \"connect h:58846; info\"", nil, []string{"connect h:58846; info"}},
		{"rpcclient -U admin dc1 -c 'enumdomusers'", nil, []string{"enumdomusers"}},
		{"lxc config set c1 limits.memory 2GB", nil, []string{"limits.memory 2GB"}},
	})
}
