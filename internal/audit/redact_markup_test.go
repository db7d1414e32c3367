package audit

import "testing"

// TestRedactEchoedMarkup: a '>' inside the string echo prints is text,
// so the string written to a credential file is redacted whole and the
// one written elsewhere is kept; a '>' in a script's string is still a
// redirection.
func TestRedactEchoedMarkup(t *testing.T) {
	// The text after the inner '>' names a credential, which made it
	// look like a credential file written to.
	checkCases(t, []spelling{
		{"echo '<a>Secret-S3cr3tZ</a>' > ~/.netrc", []string{"S3cr3tZ"}, []string{"> ~/.netrc"}},
		{"echo '<master>{tokenS3cr3tZ=}</master>' > ~/.m2/settings-security.xml", []string{"S3cr3tZ"}, []string{"> ~/.m2/settings-security.xml"}},
		{`echo "<api>PasswordS3cr3tZ</api>" >> ~/.pgpass`, []string{"S3cr3tZ"}, []string{">> ~/.pgpass"}},
		{"printf '%s\\n' '<x>secret:S3cr3tZ</x>' > ~/.netrc", []string{"S3cr3tZ"}, []string{"> ~/.netrc"}},
		{"sh -c 'echo S3cr3tZ > ~/.netrc'", []string{"S3cr3tZ"}, []string{"> ~/.netrc'"}},
		// Kept: markup echoed to an ordinary file.
		{"echo '<x>keep-secret-santa</x>' > /tmp/notes.xml", nil, []string{"<x>keep-secret-santa</x>"}},
		{"echo '<b>token</b> -> done' > notes.html", nil, []string{"<b>token</b> -> done"}},
	})
}

// TestRedactSecretMapsAndLists: a secret-named key whose value is a map
// or a list in JSON or YAML flow text loses all of it.
func TestRedactSecretMapsAndLists(t *testing.T) {
	checkCases(t, []spelling{
		{`{"bearer": {"repo.example": "S3cr3tZ"}}`, []string{"S3cr3tZ"}, []string{`{"bearer": {`}},
		{`"password": {"value": "S3cr3tZ", "enc": false}, "user": "bob"`, []string{"S3cr3tZ"}, []string{`"user": "bob"`}},
		{"api_keys: [S3cr3tZ, S3cr3tY]\nname: app", []string{"S3cr3tZ", "S3cr3tY"}, []string{"name: app"}},
		{`"tokens": ["S3cr3tZ", "S3cr3tY"]`, []string{"S3cr3tZ", "S3cr3tY"}, []string{`"tokens": [`}},
		{"credentials = { user = \"bob\", pass = \"S3cr3tZ\" }", []string{"S3cr3tZ"}, nil},
		{"{\"secret\": {\n  \"a\": \"S3cr3tZ\",\n  \"b\": [1, \"}\"]\n}, \"x\": 1}", []string{"S3cr3tZ"}, []string{`"x": 1}`}},
		// Kept: a scheme in braces is the value's start; an empty list.
		{`{"roles": ["admin"], "tokens": []}`, nil, []string{`"roles": ["admin"]`, `"tokens": []`}},
	})
}

// TestRedactMoreCredentialFiles: curl's, wget's and Emacs' own login
// files, Samba's and Exim's password files; sssd's authtok key; Samba's
// smbpasswd hashes however they are written.
func TestRedactMoreCredentialFiles(t *testing.T) {
	checkCases(t, []spelling{
		{`echo 'user = "bob:S3cr3tZ"' >> ~/.curlrc`, []string{"S3cr3tZ"}, []string{">> ~/.curlrc"}},
		{"echo 'http_password = S3cr3tZ' >> ~/.wgetrc", []string{"S3cr3tZ"}, []string{">> ~/.wgetrc"}},
		{"echo 'machine h login bob port 993 password S3cr3tZ' > ~/.authinfo", []string{"S3cr3tZ"}, []string{"> ~/.authinfo"}},
		{"echo '*.gmail.com:bob@gmail.com:S3cr3tZ' >> /etc/exim4/passwd.client", []string{"S3cr3tZ"}, []string{">> /etc/exim4/passwd.client"}},
		{"echo 'ldap_default_authtok = S3cr3tZ' >> /etc/sssd/sssd.conf", []string{"S3cr3tZ"}, []string{"ldap_default_authtok = "}},
		{"ldap_default_authtok=S3cr3tZ\nldap_uri = ldap://h", []string{"S3cr3tZ"}, []string{"ldap_uri = ldap://h"}},
		{"bob:1000:XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX:5C3AB0123456789ABCDEF0123456789A:[U          ]:LCT-5F0A1B2C:", []string{"5C3AB0123456789ABCDEF0123456789A"}, []string{"bob:1000:"}},
		{"echo 'amy:1001:0123456789ABCDEF0123456789ABCDEF:5C3AB0123456789ABCDEF0123456789A:[U          ]:LCT-5F0A1B2C:' >> /etc/samba/smbpasswd", []string{"5C3AB0123456789ABCDEF0123456789A", "0123456789ABCDEF0123456789ABCDEF"}, []string{">> /etc/samba/smbpasswd"}},
		// Kept: an ldap* program's options still read as its own.
		{"ldapsearch -x -w S3cr3tZ -b dc=x", []string{"S3cr3tZ"}, []string{"-b dc=x"}},
	})
}
