package audit

import "testing"

// TestRedactKeptSelectorValues: a secret-named key whose value is no
// secret where it is written keeps it: a SQL condition on a key-value
// table's key column, keytool's password source (:env, :file).
func TestRedactKeptSelectorValues(t *testing.T) {
	checkSpellings(t, []spelling{
		{"sqlite3 app.db \"SELECT * FROM settings WHERE key = 'theme'\"", nil, []string{"WHERE key = 'theme'"}},
		{"psql -c \"UPDATE settings SET value='dark' WHERE key = 'theme'\"", nil, []string{"WHERE key = 'theme'"}},
		{"mysql -e \"DELETE FROM cfg WHERE id > 3 AND key='locale'\"", nil, []string{"key='locale'"}},
		{"mysql -e \"SELECT v FROM s WHERE s.key = 'theme'\"", nil, []string{"s.key = 'theme'"}},
		{"mysql -e 'SELECT * FROM wp_usermeta WHERE `meta_key` = \"nickname\"'", nil, []string{"\"nickname\""}},
		{"sqlite3 x.db \"select value from config where (key = 'mode')\"", nil, []string{"key = 'mode'"}},
		{"keytool -list -keystore k.jks -storepass:env STOREPASS", nil, []string{"-storepass:env STOREPASS"}},
		{"keytool -importkeystore -srcstorepass:file /etc/sp -deststorepass:env DP -keypass:env KP", nil, []string{"-srcstorepass:file /etc/sp", "-deststorepass:env DP", "-keypass:env KP"}},
		// Still secret: a credential column compared, a key assigned,
		// keytool's password itself.
		{"psql -c \"SELECT id FROM keys WHERE api_key = 'S3cr3tZ'\"", []string{"S3cr3tZ"}, nil},
		{"echo \"key = 'S3cr3tZ'\" >> app.conf", []string{"S3cr3tZ"}, nil},
		{"psql -c \"UPDATE t SET key = 'S3cr3tZ' WHERE id = 1\"", []string{"S3cr3tZ"}, nil},
		{"keytool -list -keystore k.jks -storepass S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"keytool -list -storepass:environ", nil, []string{"keytool"}},
	})
}
