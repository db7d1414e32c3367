package audit

import "testing"

// TestRedactTerminalKeys: text typed into a session carries the
// terminal's keys: Enter as '\r' ends a command and Ctrl-U or Ctrl-C
// before a word leave it a command's first word, so the program after
// them is read by its rules.
func TestRedactTerminalKeys(t *testing.T) {
	checkSpellings(t, []spelling{
		{"\x15mysql -pS3cr3tZ", []string{"S3cr3tZ"}, []string{"\x15mysql -p"}},
		{"ls\rmysql -pS3cr3tZ\r", []string{"S3cr3tZ"}, []string{"ls\rmysql -p", "\r"}},
		{"ls\rsshpass -p S3cr3tZ ssh h\r", []string{"S3cr3tZ"}, []string{"sshpass -p", "ssh h\r"}},
		{"\x03curl -u bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"\x03curl -u bob:", "https://x"}},
		{"echo a\recho S3cr3tZ | sudo -S id\r", []string{"S3cr3tZ"}, []string{"echo a\recho ", " | sudo -S id\r"}},
		// Must stay: a '\r' ends a command, so -p after it is the next
		// program's.
		{"mysql -pS3cr3tZ\rdocker run -p 8080:80 nginx\r", []string{"S3cr3tZ"}, []string{"docker run -p 8080:80 nginx"}},
		{"printf 'a\r\nb\r\n' | cat", nil, []string{"printf 'a\r\nb\r\n' | cat"}},
	})
}

// TestRedactMoreKeyForms: an unstyled community: key in YAML, and
// OpenVPN's static keys, which are as secret as private keys.
func TestRedactMoreKeyForms(t *testing.T) {
	checkSpellings(t, []spelling{
		{"snmp:\n  community: S3cr3tZ\n  host: sw1\n", []string{"S3cr3tZ"}, []string{"community:", "host: sw1"}},
		{"snmpwalk --community S3cr3tZ sw1", []string{"S3cr3tZ"}, []string{"--community", "sw1"}},
		{"echo '<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\nS3cr3tZ0123\n-----END OpenVPN Static key V1-----\n</tls-auth>' >> client.ovpn",
			[]string{"S3cr3tZ"}, []string{"-----BEGIN OpenVPN Static key V1-----", "-----END OpenVPN Static key V1-----\n</tls-auth>' >> client.ovpn"}},
		{"-----BEGIN CERTIFICATE-----\nMIIreadable\n-----END CERTIFICATE-----", nil, []string{"MIIreadable"}},
	})
}
