package audit

import "testing"

// TestRedactNSSAndHashTools: NSS's tools take passwords as options or in
// the file an option names (pk12util -W/-K, certutil -f <(echo …)),
// Windows' certutil -p imports a PFX with one, and smbencrypt hashes each
// password it is given; other options and positionals stay.
func TestRedactNSSAndHashTools(t *testing.T) {
	checkCases(t, []spelling{
		{"pk12util -i f.p12 -d sql:db -W S3cr3tZ -K S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"-i f.p12 -d sql:db -W "}},
		{"pk12util -o out.p12 -n cert -d db -W 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-n cert"}},
		{"certutil -N -d db -f <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"certutil -N -d db -f <(echo "}},
		{"pk12util -i f.p12 -d db -w <(printf S3cr3tZ)", []string{"S3cr3tZ"}, []string{"-w <(printf "}},
		{"modutil -changepw 'NSS Certificate DB' -dbdir db -pwfile <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"-pwfile <(echo "}},
		{"certutil -p S3cr3tZ -importpfx cert.pfx", []string{"S3cr3tZ"}, []string{"-importpfx cert.pfx"}},
		{"smbencrypt S3cr3tZ", []string{"S3cr3tZ"}, []string{"smbencrypt "}},
		// Kept: reading and listing.
		{"certutil -L -d sql:/etc/pki/nssdb", nil, []string{"certutil -L -d sql:/etc/pki/nssdb"}},
		{"pk12util -l f.p12", nil, []string{"pk12util -l f.p12"}},
	})
}

// TestRedactDrushPassword: drush user:password (upwd, user-password)
// NAME PASSWORD sets a Drupal user's password; the name stays.
func TestRedactDrushPassword(t *testing.T) {
	checkCases(t, []spelling{
		{"drush upwd admin S3cr3tZ", []string{"S3cr3tZ"}, []string{"drush upwd admin "}},
		{"drush user:password admin S3cr3tZ", []string{"S3cr3tZ"}, []string{"user:password admin "}},
		{"drush user-password admin S3cr3tZ", []string{"S3cr3tZ"}, []string{"admin "}},
		{`drush -y upwd admin "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"upwd admin "}},
		{"drush @prod user:password admin S3cr3tZ", []string{"S3cr3tZ"}, []string{"@prod user:password admin "}},
		{"drush user:login admin", nil, []string{"drush user:login admin"}},
	})
}
