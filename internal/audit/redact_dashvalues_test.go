package audit

import (
	"testing"
)

// TestRedactDashLedValues: an option whose value is required takes the
// next word whatever it starts with, as getopt does, so a password that
// starts with '-' (sshpass -p -S3cret) is the option's value; it was
// taken for the next option and kept. Each program is tried alone and
// inside ssh.
func TestRedactDashLedValues(t *testing.T) {
	const pw = "Zq9Secret77"
	forms := []string{
		"sshpass -p -%s ssh db1 uptime",
		"redis-cli -h h -a -%s ping",
		"ldapsearch -x -D cn=admin -w -%s -b dc=x",
		"docker login -u bob -p -%s registry.invalid",
		"podman login --username bob --password -%s registry.invalid",
		"az login -u bob -p -%s",
		"snmpwalk -v2c -c -%s h",
		"curl -u -%s: https://example.invalid/",
		"curl --proxy-user bob:-%s -x p https://example.invalid/",
		"ipmitool -I lanplus -H h -U admin -P -%s power status",
		"mosquitto_pub -h h -u bob -P -%s -t x -m y",
	}
	checkLocalAndSSH(t, pw, forms)

	// Kept: an option whose value is optional asks for it, and a long
	// option or a lone '-' after a required one is no password.
	checkSpellings(t, []spelling{
		{"mongo -u admin -p --authenticationDatabase admin db", nil, []string{"-p --authenticationDatabase"}},
		{"sshpass -p -- ssh h; redis-cli -a - ping", nil, []string{"sshpass -p -- ssh h", "-a - ping"}},
		{"docker login -u bob -p --help", nil, []string{"-p --help"}},
		{"mysql -uroot -p -e 'select 1' shop", nil, []string{"-p -e 'select 1' shop"}},
	})
}
