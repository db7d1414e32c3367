package audit

import "testing"

// TestRedactSettingsRows: an UPDATE of a key-value table's value column
// whose row a literal names as a secret (UPDATE settings SET value = '…'
// WHERE name = 'smtp_password', WordPress's option_value) loses the
// value, as the INSERT of such a row does.
func TestRedactSettingsRows(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"update", `psql -c "UPDATE settings SET value = '` + pw + `' WHERE key = 'smtp_password'"`, []string{"UPDATE settings SET value = '"}},
		{"update", `mysql -e "UPDATE wp_options SET option_value = '` + pw + `' WHERE option_name = 'smtp_pass'"`, []string{"option_name = 'smtp_pass'"}},
		{"update", `mysql -e "UPDATE config SET value='` + pw + `' WHERE name='api_token'"`, []string{"name='api_token'"}},
		{"update", `sqlite3 app.db "UPDATE settings SET value = '` + pw + `' WHERE name = 'db.password'"`, []string{"name = 'db.password'"}},
		{"update", `wp db query "UPDATE wp_options SET option_value='` + pw + `' WHERE option_name='mailserver_pass'"`, nil},
		{"update", `ssh db1 "mysql app -e \"UPDATE settings SET value = '` + pw + `' WHERE name = 'stripe_secret_key'\""`, []string{"ssh db1"}},
		// Kept: the row names no secret, or the statement sets none.
		{"kept", `mysql -e "UPDATE wp_options SET option_value = 'https://x' WHERE option_name = 'siteurl'"`, []string{"'https://x'"}},
		{"kept", `mysql -e "UPDATE settings SET value = '12' WHERE name = 'password_min_length'"`, []string{"'12'"}},
		{"kept", `mysql -e "UPDATE settings SET value = 'scram-sha-256' WHERE name = 'password_encryption'"`, []string{"'scram-sha-256'"}},
		{"kept", `mysql -e "SELECT * FROM settings WHERE value = 'x' AND name = 'password_min_length'"`, []string{"value = 'x'"}},
	})
}
