package audit

import "testing"

// TestRedactGetoptClusters: getopt and popt let options without a value
// stand before the password option in one word, its value attached or
// the next word (sshpass -vp pw, ssh-keygen -qN pw, ipmitool -vP pw,
// smbclient -NU bob%pw, ab -kA bob:pw); each program's letters without a
// value are listed, so a letter that takes one (-Hhost) still ends the
// cluster.
func TestRedactGetoptClusters(t *testing.T) {
	const pw = "Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		"sshpass -vp %s ssh h",
		"sshpass -vp%s ssh h",
		"sshpass -vvp '%s' ssh h",
		"sshpass -ep%s ssh h",
		"sshpass -Password: -p %s ssh h",
		"sshpass -Ppassphrase -p %s ssh h",
		"ssh-keygen -qN %s -f k",
		"ssh-keygen -qN%s -f k",
		"ssh-keygen -f k -qN'%s'",
		"ssh-keygen -yP %s -f k",
		"ssh-keygen -pP %s -N new -f k",
		"ssh-keygen -qtN ed25519 -N %s -f k",
		"ipmitool -vP %s -H h chassis status",
		"ipmitool -vvP%s -H h sel list",
		"ipmitool -I lanplus -EP %s -H h power status",
		"ipmitool -H h -U u -vk %s power on",
		"smbclient -gU bob%%s //h/s",
		"smbclient -NU bob%%s //h/s",
		"smbclient -qgUbob%%s //h/s",
		"smbcacls -PU 'dom\\bob%%s' //h/s f",
		"rpcclient -NU bob%%s h",
		"net rpc info -eU bob%%s",
		"ab -kA bob:%s http://h/",
		"ab -kqP bob:%s -X p:3128 http://h/",
		"slappasswd -ns %s",
	})
}

// TestRedactGetoptClustersKept: the user, host and options around the
// password stay, and a letter that takes a value ends the cluster.
func TestRedactGetoptClustersKept(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"kept", "sshpass -vp " + pw + " ssh -l bob db1", []string{"sshpass -vp", "ssh -l bob db1"}},
		{"kept", "smbclient -NU bob%" + pw + " //nas/share", []string{"-NU bob%", "//nas/share"}},
		{"kept", "ipmitool -vP " + pw + " -H bmc1 -U admin chassis status", []string{"-H bmc1 -U admin chassis status"}},
		{"kept", "ipmitool -Hbmc-Paris -Uadmin chassis status", []string{"-Hbmc-Paris -Uadmin chassis status"}},
		{"kept", "ssh-keygen -qN " + pw + " -f /root/.ssh/id_ed25519", []string{"-f /root/.ssh/id_ed25519"}},
		{"kept", "ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub", []string{"-lf /etc/ssh/ssh_host_ed25519_key.pub"}},
		{"kept", "ssh-keygen -R db1 -f ~/.ssh/known_hosts", []string{"-R db1 -f ~/.ssh/known_hosts"}},
		{"kept", "smbclient -L nas -gN", []string{"-L nas -gN"}},
	})
}
