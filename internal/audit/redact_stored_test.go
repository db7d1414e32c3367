package audit

import "testing"

// TestRedactSecretsGivenToStore: programs given a secret to store, hash,
// obscure or unlock with take it as a positional or as an option whose
// name says nothing of a password; their rules name it, under wrappers
// too, and keep the rest of the command.
func TestRedactSecretsGivenToStore(t *testing.T) {
	checkSpellings(t, []spelling{
		{"rclone obscure S3cr3tZ", []string{"S3cr3tZ"}, []string{"rclone obscure"}},
		{"sudo -u backup rclone obscure 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"sudo -u backup rclone obscure"}},
		{"bw unlock S3cr3tZ --raw", []string{"S3cr3tZ"}, []string{"bw unlock", "--raw"}},
		{"bw login bob@example.org S3cr3tZ", []string{"S3cr3tZ"}, []string{"bw login bob@example.org"}},
		{"ansible-vault encrypt_string 'S3cr3tZ' --name db_password", []string{"S3cr3tZ"}, []string{"ansible-vault encrypt_string", "--name"}},
		{"caddy hash-password --plaintext S3cr3tZ", []string{"S3cr3tZ"}, []string{"caddy hash-password --plaintext"}},
		{"caddy hash-password -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"caddy hash-password -p"}},
		{"mosquitto_passwd -b /etc/mosquitto/passwd bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"-b /etc/mosquitto/passwd bob"}},
		{"kadmin -p admin/admin -w S3cr3tZ -q listprincs", []string{"S3cr3tZ"}, []string{"-p admin/admin -w", "-q listprincs"}},
		{"security add-generic-password -a bob -s svc -w S3cr3tZ", []string{"S3cr3tZ"}, []string{"-a bob -s svc -w"}},
		{"pulumi config set dbPassword S3cr3tZ --secret", []string{"S3cr3tZ"}, []string{"pulumi config set dbPassword", "--secret"}},
		{"hostapd_cli set wpa_passphrase S3cr3tZ", []string{"S3cr3tZ"}, []string{"hostapd_cli set wpa_passphrase"}},
		{"iw dev wlan0 connect home key 0:S3cr3tZ", []string{"S3cr3tZ"}, []string{"connect home key 0:"}},
		// Must stay: the same programs without a secret.
		{"rclone ls remote:bucket", nil, []string{"rclone ls remote:bucket"}},
		{"bw list items --search github", nil, []string{"bw list items --search github"}},
		{"security find-generic-password -s svc -w", nil, []string{"security find-generic-password -s svc -w"}},
		{"caddy run --config /etc/caddy/Caddyfile", nil, []string{"caddy run --config /etc/caddy/Caddyfile"}},
		{"iw dev wlan0 link", nil, []string{"iw dev wlan0 link"}},
	})
}

// TestRedactProcessSubstitutionSources: a program that reads a secret on
// its input reads it from a file it is given as well, so what echo or
// printf prints into a process substitution it is given is the secret.
func TestRedactProcessSubstitutionSources(t *testing.T) {
	checkSpellings(t, []spelling{
		{"restic -p <(echo S3cr3tZ) snapshots", []string{"S3cr3tZ"}, []string{"restic -p <(echo ", ") snapshots"}},
		{"wg set wg0 private-key <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"wg set wg0 private-key <(echo "}},
		{"sudo wg set wg0 peer x preshared-key <(printf %s S3cr3tZ) allowed-ips 10.0.0.2/32", []string{"S3cr3tZ"}, []string{"preshared-key <(printf ", ") allowed-ips 10.0.0.2/32"}},
		{"podman secret create db_pw <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"podman secret create db_pw <(echo "}},
		{"docker secret create db_pw <(printf %s S3cr3tZ)", []string{"S3cr3tZ"}, []string{"docker secret create db_pw"}},
		{"gcloud secrets versions add x --data-file=<(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"gcloud secrets versions add x --data-file=<(echo "}},
		// Must stay: process substitutions of commands that read no secret.
		{"diff <(echo readable) <(echo plain)", nil, []string{"diff <(echo readable) <(echo plain)"}},
		{"wg show wg0; paste <(echo a) <(echo readable)", nil, []string{"paste <(echo a) <(echo readable)"}},
	})
}

// TestRedactURLTokenUsers: a URL whose user name is an access token (no
// password, an empty one, or the fixed word a forge takes beside a token)
// loses the token; plain user names stay.
func TestRedactURLTokenUsers(t *testing.T) {
	checkSpellings(t, []spelling{
		{"git clone https://0123456789abcdef0123456789abcdef01234567@github.com/o/r", []string{"0123456789abcdef0123456789abcdef01234567"}, []string{"git clone https://", "@github.com/o/r"}},
		{"git clone https://S3cr3tZ0123456789abcdefghijklmn@dev.azure.com/o/p/_git/r", []string{"S3cr3tZ"}, []string{"@dev.azure.com/o/p/_git/r"}},
		{"curl https://S3cr3tZ0123456789abcdef:x-oauth-basic@api.github.com/user", []string{"S3cr3tZ"}, []string{":x-oauth-basic@api.github.com/user"}},
		{"git remote set-url origin https://S3cr3tZ1234567890abcdefghij:@github.com/o/r", []string{"S3cr3tZ"}, []string{"set-url origin https://", ":@github.com/o/r"}},
		{"git clone https://S3cr3tZ0123456789abcdefghijklmn@h.example:8443/x", []string{"S3cr3tZ"}, []string{"@h.example:8443/x"}},
		{"sh -c 'git clone https://S3cr3tZ0123456789abcdefghijklmn@github.com/o/r'", []string{"S3cr3tZ"}, []string{"@github.com/o/r'"}},
		{"git clone https://x-token-auth:S3cr3tZ@bitbucket.org/o/r", []string{"S3cr3tZ"}, []string{"x-token-auth:"}},
		// Must stay: user names.
		{"git clone https://bob@github.com/o/r", nil, []string{"https://bob@github.com/o/r"}},
		{"git clone ssh://git@github.com/o/r", nil, []string{"ssh://git@github.com/o/r"}},
		{"git clone https://x-access-token@github.com/o/r", nil, []string{"https://x-access-token@github.com/o/r"}},
		{"curl https://bob@h.example:8443/x", nil, []string{"https://bob@h.example:8443/x"}},
		{"curl https://deploy.bot.2024@h.example/x", nil, []string{"https://deploy.bot.2024@h.example/x"}},
	})
}

// TestRedactMoreSecretTakers: more programs and calls that take a secret
// where no name says so: an option of their own, a positional, a file
// they read it from, their input, or a call's third argument.
func TestRedactMoreSecretTakers(t *testing.T) {
	checkSpellings(t, []spelling{
		{"swift -U bob -K S3cr3tZ list", []string{"S3cr3tZ"}, []string{"swift -U bob -K", "list"}},
		{"nuget setapikey S3cr3tZ -source x", []string{"S3cr3tZ"}, []string{"nuget setapikey", "-source x"}},
		{"zkCli.sh -server h addauth digest bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"addauth digest bob:"}},
		{"memtier_benchmark -s h -a S3cr3tZ", []string{"S3cr3tZ"}, []string{"memtier_benchmark -s h -a"}},
		{"pwsh -c '$p = ConvertTo-SecureString \"S3cr3tZ\" -AsPlainText -Force'", []string{"S3cr3tZ"}, []string{"ConvertTo-SecureString \"", "-AsPlainText -Force'"}},
		{"pwsh -c 'ConvertTo-SecureString -String \"S3cr3tZ\" -AsPlainText'", []string{"S3cr3tZ"}, []string{"ConvertTo-SecureString -String"}},
		{"printf 'protocol=https\\nhost=x\\nusername=bob\\npassword=%s\\n' S3cr3tZ | git credential approve", []string{"S3cr3tZ"}, []string{"| git credential approve"}},
		{"vercel env add X production <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"vercel env add X production <<< "}},
		{"gcloud auth login --cred-file=<(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"gcloud auth login --cred-file=<(echo "}},
		{"vncviewer -passwd <(echo S3cr3tZ) h", []string{"S3cr3tZ"}, []string{"vncviewer -passwd <(echo ", ") h"}},
		{"perl -e 'DBI->connect(\"dbi:mysql:x\", \"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{`DBI->connect("dbi:mysql:x", "bob", "`}},
		{"php -r '$db = new PDO(\"mysql:host=h\", \"bob\", \"S3cr3tZ\");'", []string{"S3cr3tZ"}, []string{`new PDO("mysql:host=h", "bob", "`}},
		// Must stay.
		{"git credential fill <<< 'host=readable'", nil, []string{"<<< 'host=readable'"}},
		{"swift list readable", nil, []string{"swift list readable"}},
		// connect(h, user, "…") is a login now (redact_connects_test.go);
		// Perl's socket connect(SOCK, $addr) is none.
		{"perl -e 'connect(SOCK, \"readable\")'", nil, []string{"readable"}},
	})
}
