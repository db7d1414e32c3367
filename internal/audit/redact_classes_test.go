package audit

import "testing"

// TestRedactConfiguringValues: inside a command that sets key value pairs
// (nmcli, git config, aws configure set), a value that is also a
// program's name (net, ssh, mysql) is a value, not a new command, and a
// value named like a key (wpa-psk) does not take the next pair's key as
// its value.
func TestRedactConfiguringValues(t *testing.T) {
	checkSpellings(t, []spelling{
		{"nmcli dev wifi connect net password S3cr3tZ", []string{"S3cr3tZ"}, []string{"connect net password"}},
		{"nmcli device wifi connect mysql password 'S3cr3tZ' ifname wlan0", []string{"S3cr3tZ"}, []string{"connect mysql password", "ifname wlan0"}},
		{"nmcli d wifi connect ssh password S3cr3tZ", []string{"S3cr3tZ"}, []string{"ssh password"}},
		{"nmcli connection add type wifi ssid n wifi-sec.key-mgmt wpa-psk wifi-sec.psk S3cr3tZ", []string{"S3cr3tZ"}, []string{"wifi-sec.key-mgmt wpa-psk wifi-sec.psk"}},
		{"nmcli c add type wifi ssid n 802-11-wireless-security.key-mgmt wpa-psk 802-11-wireless-security.psk S3cr3tZ", []string{"S3cr3tZ"}, []string{"key-mgmt wpa-psk 802-11-wireless-security.psk"}},
		{"nmcli con mod x wifi-sec.psk my-token-S3cr3tZ ipv4.method auto", []string{"S3cr3tZ"}, []string{"ipv4.method auto"}},
		{"aws configure set aws_secret_access_key S3cr3tZ --profile net", []string{"S3cr3tZ"}, []string{"--profile net"}},
		// A new command after a separator is a command again.
		{"nmcli radio wifi on; mysql -pS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"nmcli radio wifi on; mysql -p"}},
	})
}

// TestRedactInnerShellQuotedPositionals: a secret positional that the
// inner shell of sh -c '…' or ssh host '…' gets quoted by the idiom of a
// closing quote, an escaped quote and an opening one
// is read as one word, blanks included, and the idiom does not end the
// command's look-ahead.
func TestRedactInnerShellQuotedPositionals(t *testing.T) {
	checkSpellings(t, []spelling{
		{`ssh db1 'rabbitmqctl add_user '\''bob'\'' '\''S3cr3tZ'\'''`, []string{"S3cr3tZ"}, []string{`add_user '\''bob'\''`}},
		{`sh -c 'rabbitmqctl change_password bob '\''S3cr3tZ'\'''`, []string{"S3cr3tZ"}, []string{"change_password bob"}},
		{`sh -c 'wpa_passphrase '\''my net'\'' '\''S3cr3tZ'\'' >> /etc/wpa.conf'`, []string{"S3cr3tZ"}, []string{`'\''my net'\''`, ">> /etc/wpa.conf"}},
		{`bash -c 'htpasswd -b f '\''bob'\'' '\''S3cr3tZ'\'''`, []string{"S3cr3tZ"}, []string{"htpasswd -b f"}},
		{`ssh h 'vault login '\''S3cr3tZ'\'''`, []string{"S3cr3tZ"}, []string{"vault login"}},
		{`sh -c 'mc alias set s3 https://x AKEY '\''S3cr3tZ'\'''`, []string{"S3cr3tZ"}, []string{"https://x AKEY"}},
	})
}

// TestRedactSQLPasswordLiterals: the password literal of SET PASSWORD FOR
// u = '…' (MySQL, InfluxQL), SET PASSWORD FROM '…' TO '…' (Cypher), and
// PASSWORD followed by PostgreSQL's dollar quotes or an N'…'/E'…' literal.
func TestRedactSQLPasswordLiterals(t *testing.T) {
	checkSpellings(t, []spelling{
		{`mysql -e "SET PASSWORD FOR 'bob'@'%' = 'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{`SET PASSWORD FOR 'bob'@'%' = '`}},
		{`mysql -e "set password for root@localhost='S3cr3tZ';" && ls`, []string{"S3cr3tZ"}, []string{"set password for root@localhost='", "&& ls"}},
		{`influx -execute "SET PASSWORD FOR bob = 'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"SET PASSWORD FOR bob = '"}},
		{`ssh db1 'mysql -e "SET PASSWORD FOR bob = \"S3cr3tZ\""'`, []string{"S3cr3tZ"}, []string{"SET PASSWORD FOR bob"}},
		{`cypher-shell "ALTER CURRENT USER SET PASSWORD FROM 'Old0ne' TO 'S3cr3tZ'"`, []string{"S3cr3tZ", "Old0ne"}, []string{"SET PASSWORD FROM '", "' TO '"}},
		{`psql -c 'ALTER ROLE app PASSWORD $$S3cr3tZ$$'`, []string{"S3cr3tZ"}, []string{"ALTER ROLE app PASSWORD $$", "$$'"}},
		{`psql -c 'ALTER ROLE app PASSWORD $pw$S3cr3tZ$pw$'`, []string{"S3cr3tZ"}, []string{"PASSWORD $pw$"}},
		{`psql -c "ALTER ROLE app PASSWORD \$\$S3cr3tZ\$\$"`, []string{"S3cr3tZ"}, []string{`PASSWORD \$\$`}},
		{`psql -c "CREATE ROLE app LOGIN PASSWORD E'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"LOGIN PASSWORD E'"}},
		{`sqlcmd -Q "ALTER LOGIN sa WITH PASSWORD = N'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"ALTER LOGIN sa WITH PASSWORD"}},
		{"psql <<EOF\nALTER USER app WITH PASSWORD $$S3cr3tZ$$;\nEOF", []string{"S3cr3tZ"}, []string{"ALTER USER app WITH PASSWORD"}},
		// Prose and other dollars stay.
		{"echo 'reset the password for bob = done' $HOME", nil, []string{"reset the password for bob = done' $HOME"}},
	})
}
