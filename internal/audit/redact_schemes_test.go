package audit

import "testing"

// TestRedactSchemesAndSecureStrings: a password after its key keeps
// going past a {SCHEME} prefix (LDAP, Dovecot) and LDIF's base64 '::';
// a value that is PowerShell's ConvertTo-SecureString is read by that
// program's rule, which finds the literal, instead of standing for it.
func TestRedactSchemesAndSecureStrings(t *testing.T) {
	checkCases(t, []spelling{
		{"echo 'olcRootPW: {SSHA}S3cr3tZabc' | ldapmodify -Y EXTERNAL", []string{"S3cr3tZ"}, []string{"olcRootPW: ", "| ldapmodify"}},
		{"userPassword: {CRYPT}$6$salt$S3cr3tZabc", []string{"S3cr3tZ"}, []string{"userPassword: "}},
		{"userPassword: {SHA512-CRYPT}S3cr3tZabc\ncn: bob", []string{"S3cr3tZ"}, []string{"cn: bob"}},
		{`{"password": {PLAIN}S3cr3tZ}`, []string{"S3cr3tZ"}, []string{`"password": `}},
		{"echo 'userPassword:: UzNjcjN0WmFiYw==' >> u.ldif", []string{"UzNjcjN0WmFiYw=="}, []string{"userPassword:: ", ">> u.ldif"}},
		{"olcRootPW:: e1NTSEF9UzNjcjN0WmFiYw==\nolcSuffix: dc=x", []string{"e1NTSEF9UzNjcjN0WmFiYw=="}, []string{"olcSuffix: dc=x"}},
		{`$pw = ConvertTo-SecureString -String "S3cr3tZ" -AsPlainText -Force`, []string{"S3cr3tZ"}, []string{"$pw = ConvertTo-SecureString -String", "-AsPlainText -Force"}},
		{`$Password = ConvertTo-SecureString 'S3cr3tZ' -AsPlainText -Force`, []string{"S3cr3tZ"}, []string{"ConvertTo-SecureString '"}},
		{`New-LocalUser -Name bob -Password (ConvertTo-SecureString "S3cr3tZ" -AsPlainText -Force)`, []string{"S3cr3tZ"}, []string{"-Password (ConvertTo-SecureString"}},
		{`Set-ADAccountPassword bob -NewPassword (convertto-securestring -AsPlainText "S3cr3tZ" -Force)`, []string{"S3cr3tZ"}, []string{"-NewPassword (convertto-securestring"}},
		{`[System.Net.NetworkCredential]::new("bob", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`::new("bob", "`}},
		// Kept: braces that are no scheme, and a secure string read.
		{"config: {a: 1}", nil, []string{"{a: 1}"}},
	})
}
