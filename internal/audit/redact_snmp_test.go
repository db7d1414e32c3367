package audit

import (
	"strings"
	"testing"
)

// TestRedactSNMPCommunities: an SNMP community is the agent's password,
// so a name that ends in "community" holds a secret wherever a secret
// name's value is redacted (assignments, export, env, sudo, YAML and JSON
// keys, --community=), and snmpd.conf's directives keep their
// communities and passphrases out of the log when a command writes them.
func TestRedactSNMPCommunities(t *testing.T) {
	checkSpellings(t, []spelling{
		{"SNMP_COMMUNITY=S3cr3tZ ./poll.sh sw1", []string{"S3cr3tZ"}, []string{"SNMP_COMMUNITY=", "./poll.sh sw1"}},
		{"export SNMP_COMMUNITY='S3cr3tZ'; snmpwalk sw1", []string{"S3cr3tZ"}, []string{"export SNMP_COMMUNITY=", "snmpwalk sw1"}},
		{"declare -x SNMP_RO_COMMUNITY=S3cr3tZ", []string{"S3cr3tZ"}, []string{"declare -x SNMP_RO_COMMUNITY="}},
		{"env SNMP_COMMUNITY=S3cr3tZ ./poll.sh", []string{"S3cr3tZ"}, []string{"env SNMP_COMMUNITY=", "./poll.sh"}},
		{"sudo SNMP_COMMUNITY=\"S3cr3tZ\" ./poll.sh", []string{"S3cr3tZ"}, []string{"sudo SNMP_COMMUNITY=", "./poll.sh"}},
		{"SNMP_COMMUNITY_STRING=S3cr3tZ ./poll.sh", []string{"S3cr3tZ"}, []string{"SNMP_COMMUNITY_STRING=", "./poll.sh"}},
		{"snmp_community: S3cr3tZ\nhost: sw1", []string{"S3cr3tZ"}, []string{"snmp_community:", "host: sw1"}},
		{`{"community": "S3cr3tZ", "host": "sw1"}`, []string{"S3cr3tZ"}, []string{`"host": "sw1"`}},
		{"snmpwalk --community=S3cr3tZ sw1", []string{"S3cr3tZ"}, []string{"--community=", "sw1"}},
		{"nmap -sU -p161 --script snmp-info --script-args snmpcommunity=S3cr3tZ sw1", []string{"S3cr3tZ"}, []string{"snmpcommunity=", " sw1"}},
		// Nagios' check and net-snmp's user creators.
		{"check_snmp -H sw1 -C S3cr3tZ -o sysUpTime.0", []string{"S3cr3tZ"}, []string{"-H sw1 -C", "-o sysUpTime.0"}},
		{"/usr/lib/nagios/plugins/check_snmp -H sw1 -P 3 -U bob -A S3cr3tZ -X S3cr3tZ -a SHA", []string{"S3cr3tZ"}, []string{"-U bob -A", "-a SHA"}},
		{"sudo net-snmp-create-v3-user -ro -A S3cr3tZ -X S3cr3tZ -a SHA -x AES bob", []string{"S3cr3tZ"}, []string{"-a SHA -x AES bob"}},
		{"net-snmp-config --create-snmpv3-user -A S3cr3tZ -X S3cr3tZ bob", []string{"S3cr3tZ"}, []string{"--create-snmpv3-user -A", "bob"}},
		// snmpd.conf lines, echoed, tee'd or in a here-document.
		{"echo 'rocommunity S3cr3tZ 10.0.0.0/8' >> /etc/snmp/snmpd.conf", []string{"S3cr3tZ"}, []string{"rocommunity ", " 10.0.0.0/8' >> /etc/snmp/snmpd.conf"}},
		{"echo \"rwcommunity S3cr3tZ\" | sudo tee -a /etc/snmp/snmpd.conf", []string{"S3cr3tZ"}, []string{"rwcommunity ", "sudo tee -a /etc/snmp/snmpd.conf"}},
		{"cat >> /etc/snmp/snmpd.conf <<EOF\nsysLocation DC1\nrocommunity S3cr3tZ default -V systemonly\ncom2sec readonly default S3cr3tZ\ntrap2sink nms.example S3cr3tZ\ncreateUser bob SHA S3cr3tZ AES S3cr3tZ\nEOF",
			[]string{"S3cr3tZ"}, []string{"sysLocation DC1", "default -V systemonly", "com2sec readonly default ", "trap2sink nms.example ", "createUser bob SHA ", " AES "}},
		// Must stay: words that only look alike, and reading the file.
		{"COMMUNITY_EDITION=1 make", nil, []string{"COMMUNITY_EDITION=1 make"}},
		{"echo community garden", nil, []string{"echo community garden"}},
		{"grep rocommunity /etc/snmp/snmpd.conf", nil, []string{"grep rocommunity /etc/snmp/snmpd.conf"}},
		{"grep -c createUser /var/lib/snmp/snmpd.conf", nil, []string{"grep -c createUser /var/lib/snmp/snmpd.conf"}},
		{"COMMAND=ls compose=up ./run", nil, []string{"COMMAND=ls compose=up ./run"}},
		{"snmpwalk -v2c -c S3cr3tZ sw1 IF-MIB::ifDescr", []string{"S3cr3tZ"}, []string{"-v2c -c", "sw1 IF-MIB::ifDescr"}},
	})
}

// TestRedactArgsSNMPEnv: run_command's env map drops an SNMP community
// as it drops a password.
func TestRedactArgsSNMPEnv(t *testing.T) {
	for _, in := range []string{
		`{"command":"./poll.sh sw1","env":{"SNMP_COMMUNITY":"S3cr3tZ"}}`,
		`{"command":"./poll.sh sw1","env":{"RO_COMMUNITY":"S3cr3tZ","HOST":"sw1"}}`,
		`{"command":"./poll.sh sw1","env":{"snmp_community_string":"S3cr3tZ"}}`,
	} {
		got := string(RedactArgs([]byte(in), DefaultMaxValue))
		if strings.Contains(got, "S3cr3tZ") || !strings.Contains(got, "./poll.sh sw1") {
			t.Errorf("RedactArgs(%s) = %s", in, got)
		}
	}
}
