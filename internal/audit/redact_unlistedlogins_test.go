package audit

import "testing"

// TestRedactUnlistedLoginPasswords: a program the table does not name,
// run with a login subcommand that takes options, has its -p read as
// the password, as every registry and cloud CLI the table names does;
// a protocol's LOGIN user pw line and -p elsewhere keep their own rules.
func TestRedactUnlistedLoginPasswords(t *testing.T) {
	checkSpellings(t, []spelling{
		{"cf login -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"cf login -u bob -p"}},
		{"cf login -a https://api.example.com -u bob -p 'S3cr3tZ' -o org -s dev", []string{"S3cr3tZ"}, []string{"-o org -s dev"}},
		{"cf auth bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"cf auth bob"}},
		{"bosh login -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"bosh login -p"}},
		{"acmecli login --username bob -pS3cr3tZ", []string{"S3cr3tZ"}, []string{"--username bob"}},
		{"acmecli auth login -u bob -p \"S3cr3tZ\" && acmecli ls", []string{"S3cr3tZ"}, []string{"&& acmecli ls"}},
		{"acmecli signin -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"acmecli signin -u bob -p"}},
		{"/opt/acme/bin/acmecli logon -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u bob -p"}},
		{"sh -c 'acmecli login -u bob -p S3cr3tZ'", []string{"S3cr3tZ"}, []string{"acmecli login -u bob -p"}},
		{"foo login bob S3cr3tZ", []string{"S3cr3tZ"}, nil},
		// -p outside a login, and a login without it, stay.
		{"acmecli serve -p 8080", nil, []string{"acmecli serve -p 8080"}},
		{"acmecli login -u bob", nil, []string{"acmecli login -u bob"}},
		{"mkdir -p login", nil, []string{"mkdir -p login"}},
	})
}

// TestRedactShortCredentialFiles: what is written into a file named as
// short for credentials (.smbcred, smb-creds, cifs.cred) is a secret, as
// for .smbcredentials.
func TestRedactShortCredentialFiles(t *testing.T) {
	checkSpellings(t, []spelling{
		{"echo \"S3cr3tZ\" | tee /root/.smbcred", []string{"S3cr3tZ"}, []string{"| tee /root/.smbcred"}},
		{"printf 'username=bob\\npassword=%s\\n' S3cr3tZ > /etc/smb-creds", []string{"S3cr3tZ"}, []string{"> /etc/smb-creds"}},
		{"echo S3cr3tZ >> ~/cifs.cred", []string{"S3cr3tZ"}, []string{">> ~/cifs.cred"}},
		{"echo S3cr3tZ > /root/creds.txt", []string{"S3cr3tZ"}, []string{"> /root/creds.txt"}},
		{"echo hello > /srv/sacred/notes", nil, []string{"echo hello > /srv/sacred/notes"}},
		{"echo done > /tmp/credits", nil, []string{"echo done > /tmp/credits"}},
	})
}
