package audit

import (
	"strings"
	"testing"
)

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

// TestRedactFedAuthLines: the AUTH line an echo, printf or here-string
// feeds a Redis client (or nc to its port) carries the password.
func TestRedactFedAuthLines(t *testing.T) {
	checkSpellings(t, []spelling{
		{"echo 'AUTH S3cr3tZ' | redis-cli", []string{"S3cr3tZ"}, []string{"echo 'AUTH ", "' | redis-cli"}},
		{`printf 'AUTH default S3cr3tZ\r\nPING\r\n' | nc redis 6379`, []string{"S3cr3tZ"}, []string{"printf 'AUTH", "| nc redis 6379"}},
		{"(echo AUTH S3cr3tZ; echo PING) | redis-cli", []string{"S3cr3tZ"}, []string{"echo PING) | redis-cli"}},
		{`{ echo "AUTH $U S3cr3tZ"; echo INFO; } | redis-cli -h h`, []string{"S3cr3tZ"}, []string{"echo INFO; } | redis-cli -h h"}},
		{"nc -q1 redis 6379 <<< 'AUTH bob S3cr3tZ'", []string{"S3cr3tZ"}, []string{"nc -q1 redis 6379 <<< 'AUTH"}},
		// PAM's lower-case auth lines are no credential.
		{"echo 'auth required pam_unix.so' >> /etc/pam.d/x", nil, []string{"auth required pam_unix.so"}},
	})
}

// TestRedactEmptyPasswordUser: curl -u TOKEN: passes an API key as the
// user with an empty password (Stripe, Mailgun, GitLab …): the user part
// is the secret then.
func TestRedactEmptyPasswordUser(t *testing.T) {
	checkSpellings(t, []spelling{
		{"curl -u S3cr3tZ: https://api.stripe.com/v1/charges", []string{"S3cr3tZ"}, []string{"-u ", ": https://api.stripe.com"}},
		{"curl -u 'S3cr3tZ:' https://x", []string{"S3cr3tZ"}, []string{"https://x"}},
		{"curl --user=S3cr3tZ: https://x", []string{"S3cr3tZ"}, []string{"--user="}},
		{"curl -sSu S3cr3tZ: https://x", []string{"S3cr3tZ"}, []string{"-sSu "}},
		{"curl -u bob: https://x", nil, []string{"curl -u "}},
		{"curl -u bob https://x", nil, []string{"curl -u bob https://x"}},
	})
}

// TestRedactCredentialFileSubstitutions: options that name a file holding
// a user and password, given a process substitution that prints them.
func TestRedactCredentialFileSubstitutions(t *testing.T) {
	checkSpellings(t, []spelling{
		{`openvpn --config c.ovpn --auth-user-pass <(printf 'bob\nS3cr3tZ\n')`, []string{"S3cr3tZ"}, []string{"openvpn --config c.ovpn --auth-user-pass <("}},
		{`sudo openvpn --auth-user-pass <(echo -e "bob\nS3cr3tZ") c.ovpn`, []string{"S3cr3tZ"}, []string{"c.ovpn"}},
		{`openvpn --askpass <(echo S3cr3tZ) --config c`, []string{"S3cr3tZ"}, []string{"--config c"}},
		{`smbclient -A <(printf 'username=bob\npassword2=S3cr3tZ') //n/s`, []string{"S3cr3tZ"}, []string{"//n/s"}},
	})
}

// TestRedactPasswordCommands: an option or variable naming the command
// that prints a password (restic --password-command, BORG_PASSCOMMAND)
// has the secret in it when that command is echo or printf; other
// commands name where the secret is kept and stay.
func TestRedactPasswordCommands(t *testing.T) {
	checkSpellings(t, []spelling{
		{"restic --password-command 'echo S3cr3tZ' snapshots", []string{"S3cr3tZ"}, []string{"--password-command 'echo ", "' snapshots"}},
		{`restic --password-command="printf S3cr3tZ" snapshots`, []string{"S3cr3tZ"}, []string{"snapshots"}},
		{"BORG_PASSCOMMAND='echo S3cr3tZ' borg list r", []string{"S3cr3tZ"}, []string{"borg list r"}},
		{"export RESTIC_PASSWORD_COMMAND='printf %s S3cr3tZ'", []string{"S3cr3tZ"}, []string{"RESTIC_PASSWORD_COMMAND='printf"}},
		{"rclone --password-command 'echo S3cr3tZ' ls r:", []string{"S3cr3tZ"}, []string{"ls r:"}},
		{"restic --password-command 'pass show restic' snapshots", nil, []string{"--password-command 'pass show restic' snapshots"}},
	})
}

// TestRedactPromptAnswers: expect's send answering a password prompt, a
// prompt text itself being no key, sshpass without -p, -f, -d or -e
// (reading the password on its input) and pdbedit -t.
func TestRedactPromptAnswers(t *testing.T) {
	checkSpellings(t, []spelling{
		{`expect -c 'spawn ssh h; expect assword; send "S3cr3tZ\r"; interact'`, []string{"S3cr3tZ"}, []string{"expect assword; send", "interact'"}},
		{"expect <<EOF\nspawn ssh bob@h\nexpect \"password:\"\nsend \"S3cr3tZ\\r\"\ninteract\nEOF", []string{"S3cr3tZ"}, []string{"expect \"password:\"\nsend \"", "interact"}},
		{`expect -c 'spawn gpg -d f; expect "Passphrase: "; send -- "S3cr3tZ\n"; expect eof'`, []string{"S3cr3tZ"}, []string{`expect "Passphrase: "; send`}},
		{"sshpass ssh h uptime <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"sshpass ssh h uptime <<< "}},
		{"echo S3cr3tZ | sshpass -P assword ssh h", []string{"S3cr3tZ"}, []string{"| sshpass -P assword ssh h"}},
		{"pdbedit -a bob -t <<< $'S3cr3tZ\\nS3cr3tZ'", []string{"S3cr3tZ"}, []string{"pdbedit -a bob -t <<< "}},
		{"curl -H 'X-Api-Key: '+S3cr3tZ/x https://x", []string{"S3cr3tZ"}, []string{"X-Api-Key: '"}},
		{"curl -H 'X-Api-Key: '%S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"X-Api-Key: '"}},
		// sshpass told where the password is: the input is ssh's.
		{"sshpass -e ssh h cat <<< hello", nil, []string{"cat <<< hello"}},
		{"expect -c 'spawn ls; expect eof; send \"q\"'", nil, []string{`send "q"`}},
	})
}

// TestRedactArgsFoundSecrets: the texts redaction replaced in a call's
// arguments redact the classifier's reason, which quotes the words it
// judged without the options that made them secret.
func TestRedactArgsFoundSecrets(t *testing.T) {
	for _, tt := range []struct{ args, reason, secret, keep string }{
		{`{"command":"restic -r s3:x --password-command 'echo S3cr3tZ' snapshots"}`, "restic echo S3cr3tZ snapshots", "S3cr3tZ", "restic echo "},
		{`{"command":"sshpass ssh h <<< S3cr3tZ"}`, `unknown program "S3cr3tZ"`, "S3cr3tZ", "unknown program"},
		{`{"command":"run","env":{"PGPASSWORD":"S3cr3tZ"}}`, "psql -W S3cr3tZ", "S3cr3tZ", "psql -W"},
		{`{"script":"cat > ~/.netrc <<EOF\nmachine h login bob password S3cr3tZ\nEOF"}`, "line machine h login bob password S3cr3tZ", "S3cr3tZ", "line "},
	} {
		_, sec := RedactArgsFound([]byte(tt.args), 0, true)
		got := sec.Redact(tt.reason)
		if strings.Contains(got, tt.secret) || !strings.Contains(got, tt.keep) {
			t.Errorf("%s: reason %q redacted to %q", tt.args, tt.reason, got)
		}
	}
	if _, sec := RedactArgsFound([]byte(`{"command":"echo hi"}`), 0, true); sec != nil {
		t.Errorf("echo hi found secrets %q", sec)
	}
	if _, sec := RedactArgsFound([]byte(`{"command":"curl -u bob:pw x"}`), 0, true); len(sec) != 0 {
		t.Errorf("a secret shorter than %d bytes is looked for in other texts: %q", minSecret, sec)
	}
}
